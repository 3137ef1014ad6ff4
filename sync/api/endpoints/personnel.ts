// Personnel (seed 4.1, `/personal`): the schemas of people, their trainings, checks and honours,
// and the operations (the own record, the list, and per person trainings, checks and honours).
// Every attribute is optional (read tolerantly, see ../schemas/tolerance); none is required to
// file these records: a person without a readable name is still a person (stored with an empty
// name), and trainings, checks and honours belong to the person of the request they came with.
import type { z } from 'zod';
import {
  code,
  date,
  dateTime,
  flag,
  idText,
  integer,
  list,
  object,
  raw,
  required,
  resourceSchema,
  text,
  texts,
} from '../schemas/common';
import type { ApiCore, RequestOptions } from '../core';
import type { Page, Single } from '../pages';
import { dateTimeParam } from '../urls';
import { pathSegment } from './path';

const ausbildungFields = {
  ausbildung_id: idText,
  bezeichnung: text,
  datum: date,
  lehrgangsnummer: text,
  gueltig_bis: date,
  created_at: dateTime,
  updated_at: dateTime,
};

/**
 * A training as embedded in the user resource (saves one request per person, SERVICE-NOTES).
 * An entry without a readable `id` cannot be filed: it is dropped from the list (counted).
 */
const embeddedAusbildung = object({ id: required(idText), ...ausbildungFields });

const qualifikation = object({
  position: code,
  liste_id: code,
  liste: text,
  rang: integer,
  name: text,
  name_kurz: text,
  zentralliste_id: code,
  zentralliste_rang: integer,
  zentralliste_name_kurz: text,
  erwerb_datum: date,
});

const fahrerlaubnis = object({
  klassen: texts,
  beschraenkung: text,
  fuehrerscheinnummer: text,
  fuehrerscheindatum: date,
});

const benutzerdefiniertesFeld = object({ id: idText, name: text, value: raw });

export const userResource = resourceSchema('user', {
  anrede: text,
  vorname: text,
  nachname: text,
  name: text,
  username: text,
  kuerzel: text,
  telpriv: text,
  teldienst: text,
  handy: text,
  email: text,
  adresse: text,
  plz: text,
  ort: text,
  land: text,
  gebdat: date,
  gebort: text,
  gruppen_namen: texts,
  orgakuerzel: text,
  leitung: flag,
  status: text,
  gesperrt: flag,
  rechte: texts,
  mitgliednr: text,
  mitglied_seit: date,
  austritt_datum: date,
  beruf: text,
  arbeitgeber: text,
  bemerkung: text,
  funktion: text,
  kontoinhaber: text,
  iban: text,
  bic: text,
  kreditinstitut: text,
  angehoerige: text,
  ernaehrung: text,
  allerg_intol: text,
  fahrerlaubnis,
  benutzerdefinierte_felder: list(benutzerdefiniertesFeld),
  qualifikationen: list(qualifikation),
  /**
   * Kept as `[]` when the service sends an empty list: "embedded, none" differs from "not
   * embedded" (absent, null or ""), when the trainings must come from /personal/{id}/ausbildungen.
   */
  ausbildungen: list(embeddedAusbildung, { keepEmpty: true }),
});
export type UserResource = z.infer<typeof userResource>;
export type EmbeddedAusbildung = NonNullable<ReturnType<typeof embeddedAusbildung>>;

export const organisationResource = resourceSchema('organisation', { name: text, kuerzel: text });
export type OrganisationResource = z.infer<typeof organisationResource>;

/** Trainings (`/personal/{id}/ausbildungen`); the seed leaves the type open. */
export const ausbildungResource = resourceSchema('ausbildung', ausbildungFields, {
  anyTypeSpelling: true,
});
export type AusbildungResource = z.infer<typeof ausbildungResource>;

/** Checks (`/personal/{id}/ueberpruefungen`); the seed leaves the type open. */
export const ueberpruefungResource = resourceSchema(
  'ueberpruefung',
  {
    bezeichnung: text,
    pruefergebnis: object({ bestanden: flag, einschraenkungen: text }),
    letzte_pruefung: date,
    naechste_pruefung: date,
    updated_at: dateTime,
  },
  { anyTypeSpelling: true },
);
export type UeberpruefungResource = z.infer<typeof ueberpruefungResource>;

/** Honours (`/personal/{id}/ehrungen`); the seed leaves the type open. */
export const ehrungResource = resourceSchema(
  'ehrung',
  { bezeichnung: text, datum: date, jahre: integer, stufe: text },
  { anyTypeSpelling: true },
);
export type EhrungResource = z.infer<typeof ehrungResource>;

/** Status values of `filter[status]` (seed section 3); the type stays open for values the service adds. */
export type PersonalStatus = 'aktiv' | 'eingeschraenkt' | 'gesperrt' | 'extern' | (string & {});

export interface ListPersonalOptions extends RequestOptions {
  /** Only records changed since then; a Date is sent as 'Y-m-dTH:i:sP' in UTC, a string as it is. */
  updatedSince?: Date | string;
  status?: readonly PersonalStatus[];
  include?: readonly 'organisation'[];
}

export interface PerPersonOptions extends RequestOptions {
  updatedSince?: Date | string;
  include?: readonly 'user'[];
}

export interface PersonalApi {
  getOwnUser(options?: RequestOptions): Promise<Single<UserResource>>;
  listPersonal(options?: ListPersonalOptions): AsyncGenerator<Page<UserResource>>;
  /**
   * The list with each person turned by `map` into what the caller keeps (its rows) as soon as it
   * is read: the people's list is the largest answer of a sync, read as it arrives (ApiCore.listMapped).
   */
  listPersonalAs<M>(
    map: (user: UserResource) => M,
    options?: ListPersonalOptions,
  ): AsyncGenerator<Page<M>>;
  listAusbildungen(
    userId: string,
    options?: PerPersonOptions,
  ): AsyncGenerator<Page<AusbildungResource>>;
  listUeberpruefungen(
    userId: string,
    options?: PerPersonOptions,
  ): AsyncGenerator<Page<UeberpruefungResource>>;
  listEhrungen(userId: string, options?: RequestOptions): AsyncGenerator<Page<EhrungResource>>;
}

const personalQuery = (options: ListPersonalOptions) => ({
  'filter[updated_since]': dateTimeParam(options.updatedSince),
  'filter[status]': options.status,
  include: options.include,
});

export function personalApi(core: ApiCore): PersonalApi {
  const personPath = (userId: string) => `/personal/${pathSegment(userId)}`;
  const perPersonQuery = (params: PerPersonOptions) => ({
    'filter[updated_since]': dateTimeParam(params.updatedSince),
    include: params.include,
  });
  return {
    getOwnUser: (options) => core.getOne('/personal/selbst', {}, userResource, options),
    listPersonal: (options = {}) =>
      core.list('/personal', personalQuery(options), userResource, options),
    listPersonalAs: (map, options = {}) =>
      core.listMapped('/personal', personalQuery(options), userResource, map, options),
    listAusbildungen: (userId, options = {}) =>
      core.list(
        `${personPath(userId)}/ausbildungen`,
        perPersonQuery(options),
        ausbildungResource,
        options,
      ),
    listUeberpruefungen: (userId, options = {}) =>
      core.list(
        `${personPath(userId)}/ueberpruefungen`,
        perPersonQuery(options),
        ueberpruefungResource,
        options,
      ),
    listEhrungen: (userId, options) =>
      core.list(`${personPath(userId)}/ehrungen`, {}, ehrungResource, options),
  };
}

/** The area's resource schemas by JSON:API `type` (merged in ./index.ts). */
export const personnelSchemas = {
  user: userResource,
  organisation: organisationResource,
  ausbildung: ausbildungResource,
  ueberpruefung: ueberpruefungResource,
  ehrung: ehrungResource,
} as const;
