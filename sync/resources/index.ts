// The registry of the service's resources: one module each (beside this file), listed once. It
// refuses at load two modules of one type or one table, and it holds a writable module for every
// resource type the contract's writes change (a missing one does not compile), so the outbox can
// ask it for any record type instead of a switch of its own. What the others need as lists
// (the lists the sync reads whole, the columns that reference a resource) is derived here.
import type { WriteResourceType } from '../contract';
import type { TableName } from '../db/schema';
import { address } from './address';
import { anlassReferenz } from './anlass-referenz';
import { ausbildung } from './ausbildung';
import { benachrichtigung } from './benachrichtigung';
import { client } from './client';
import { clientParticipant } from './client-participant';
import { company } from './company';
import { course } from './course';
import { courseDate } from './course-date';
import { courseType } from './course-type';
import { customfield } from './customfield';
import { ehrung } from './ehrung';
import { helferstunden } from './helferstunden';
import { helferstundenAnlass } from './helferstunden-anlass';
import { helferstundenTyp } from './helferstunden-typ';
import { kalender } from './kalender';
import { organisation } from './organisation';
import { participation } from './participation';
import type { Reference, ResourceModule, WholeCollection, WritableResource } from './resource';
import { steuersatz } from './steuersatz';
import { ueberpruefung } from './ueberpruefung';
import { user } from './user';
import { uvt } from './uvt';
import type { AddressesTable } from './address';
import type { AnlassReferenzenTable } from './anlass-referenz';
import type { AusbildungenTable } from './ausbildung';
import type { BenachrichtigungenTable } from './benachrichtigung';
import type { ClientsTable } from './client';
import type { ClientParticipantsTable } from './client-participant';
import type { CompaniesTable } from './company';
import type { CoursesTable } from './course';
import type { CourseDatesTable } from './course-date';
import type { CourseTypesTable } from './course-type';
import type { CustomfieldsTable } from './customfield';
import type { EhrungenTable } from './ehrung';
import type { HelferstundenTable } from './helferstunden';
import type { HelferstundenAnlaesseTable } from './helferstunden-anlass';
import type { HelferstundenTypenTable } from './helferstunden-typ';
import type { KalenderTable } from './kalender';
import type { OrganisationsTable } from './organisation';
import type { ParticipationsTable } from './participation';
import type { SteuersaetzeTable } from './steuersatz';
import type { UeberpruefungenTable } from './ueberpruefung';
import type { UsersTable, QualifikationenTable } from './user';
import type { UvtsTable } from './uvt';

export {
  address,
  anlassReferenz,
  ausbildung,
  benachrichtigung,
  client,
  clientParticipant,
  company,
  course,
  courseDate,
  courseType,
  customfield,
  ehrung,
  helferstunden,
  helferstundenAnlass,
  helferstundenTyp,
  kalender,
  organisation,
  participation,
  steuersatz,
  ueberpruefung,
  user,
  uvt,
};
export { applyQualificationEdits, embeddedAusbildungen, qualifikationRows } from './user';
export * from './columns';
export type * from './resource';

/** The replica's tables of the service's resources, by name (part of sync/db/schema's Database). */
export interface ResourceTables {
  users: UsersTable;
  qualifikationen: QualifikationenTable;
  organisations: OrganisationsTable;
  ausbildungen: AusbildungenTable;
  ueberpruefungen: UeberpruefungenTable;
  ehrungen: EhrungenTable;
  kalender: KalenderTable;
  helferstunden_typen: HelferstundenTypenTable;
  anlass_referenzen: AnlassReferenzenTable;
  helferstunden_anlaesse: HelferstundenAnlaesseTable;
  helferstunden: HelferstundenTable;
  benachrichtigungen: BenachrichtigungenTable;
  steuersaetze: SteuersaetzeTable;
  course_types: CourseTypesTable;
  uvts: UvtsTable;
  clients: ClientsTable;
  companies: CompaniesTable;
  addresses: AddressesTable;
  courses: CoursesTable;
  course_dates: CourseDatesTable;
  participations: ParticipationsTable;
  client_participants: ClientParticipantsTable;
  customfields: CustomfieldsTable;
}

/** The writable resources, one for each type the contract's writes change. */
const WRITABLE: { readonly [T in WriteResourceType]: WritableResource & { type: T } } = {
  user,
  ausbildung,
  kalender,
  helferstunden,
  helferstunden_anlass: helferstundenAnlass,
  benachrichtigung,
  course,
  participation,
  customfield,
};

/** A registry of `modules`: their maps by type and by table; two of one type or table are refused. */
export function registry(modules: readonly ResourceModule[]) {
  const byType = new Map<string, ResourceModule>();
  const byTable = new Map<string, ResourceModule>();
  for (const module of modules) {
    if (byType.has(module.type)) throw new Error(`Two resource modules of type ${module.type}`);
    if (byTable.has(module.table)) throw new Error(`Two resource modules of table ${module.table}`);
    byType.set(module.type, module);
    byTable.set(module.table, module);
  }
  return { byType, byTable } as const;
}

export const RESOURCES: readonly ResourceModule[] = [
  user,
  ausbildung,
  ueberpruefung,
  ehrung,
  organisation,
  kalender,
  helferstunden,
  helferstundenAnlass,
  helferstundenTyp,
  anlassReferenz,
  benachrichtigung,
  steuersatz,
  course,
  courseDate,
  participation,
  clientParticipant,
  customfield,
  courseType,
  uvt,
  client,
  company,
  address,
];

const { byType, byTable } = registry(RESOURCES);
const writableTypes = new Map<string, WritableResource>(Object.entries(WRITABLE));

export const resourceOfType = (type: string): ResourceModule | undefined => byType.get(type);
export const resourceOfTable = (table: string): ResourceModule | undefined => byTable.get(table);

/** The writable resource of `type`; undefined for a type the writes do not change. */
export const writableResource = (type: string): WritableResource | undefined =>
  writableTypes.get(type);

/** Every writable resource. */
export const WRITABLE_RESOURCES: readonly WritableResource[] = Object.values(WRITABLE);

/**
 * The columns that hold ids of `module`'s records (a temporary id is replaced there): those the
 * other modules declare as their references to it, and the ones it names itself.
 */
export function referencesTo(module: ResourceModule): readonly Reference[] {
  let found = referencing.get(module.type);
  if (!found) {
    found = [
      ...RESOURCES.flatMap((other) =>
        Object.entries(other.references ?? {})
          .filter(([, type]) => type === module.type)
          .map(([column]) => ({ table: other.table, column })),
      ),
      ...(module.referencedBy ?? []),
    ];
    referencing.set(module.type, found);
  }
  return found;
}
const referencing = new Map<string, readonly Reference[]>();

/** The primary key of each resource's table. */
export const RESOURCE_KEYS: ReadonlyMap<TableName, readonly string[]> = new Map(
  RESOURCES.map((module) => [module.table, module.keys]),
);

/** The collections the sync reads whole, with their tables, in the registry's order. */
export const WHOLE_COLLECTIONS: readonly (WholeCollection & { table: TableName })[] =
  RESOURCES.flatMap((module) => (module.whole ? [{ ...module.whole, table: module.table }] : []));
