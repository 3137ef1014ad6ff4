// What a profile's replica must hold, read from the service with plain fetch (test/support/
// service-read, never the sync client): per replica table, the service's records by id, each
// with the parent whose confirmation vouches for it (DESIGN rule 15) and the columns the
// replica derives from other records (a course's first and last day come from its dates).
import { addMonths, format } from 'date-fns';
import {
  getJson,
  getPlainJson,
  list,
  type OracleTarget,
  type Resource,
} from '../support/service-read';

export type Profile = 'office' | 'trainer';

/** A parent whose confirmation (the replica's `confirmations` table) vouches for a record. */
export interface Vouch {
  scope: 'course' | 'person' | 'client' | 'reference' | 'forms';
  id: string;
}

/** A reference list's vouch: the sync state of the collection it comes from. */
const referenceList = (collection: string): Vouch => ({ scope: 'reference', id: collection });

export interface ExpectedRecord {
  /** The service's `type:id`, as the change journal names it. */
  key: string;
  id: string;
  attributes: Record<string, unknown>;
  /** Relationship name → the ids it points at, sorted. */
  relationships: Record<string, string[]>;
  /** Replica columns that must hold these values (derived from other records). */
  columns?: Record<string, unknown>;
  vouch?: Vouch;
}

/** Replica table → the records the service holds for it, by id. */
export type ServiceView = Map<string, Map<string, ExpectedRecord>>;

export interface ViewOptions {
  profile: Profile;
  /** The client's calendar day (the sandbox clock's), for the course window. */
  today: Date;
  selfId: string;
  hoursHistoryStart: string;
  courseMonthsBack: number;
  courseMonthsAhead: number;
}

/** The course window as the client computes it (sync/pull/collections/courses.ts). */
export function courseWindowOf(options: ViewOptions): { from: string; until: string } {
  return {
    from: format(addMonths(options.today, -options.courseMonthsBack), 'yyyy-MM-dd'),
    until: format(addMonths(options.today, options.courseMonthsAhead), 'yyyy-MM-dd'),
  };
}

/**
 * Relationship ids of a resource: `{ name: { data } }` → `{ name: [ids] }`, sorted; null and an
 * empty list are `[]`; a relationship without `data` (links only) is left out: it says nothing.
 */
export function relationshipIds(relationships: Record<string, unknown> | undefined) {
  const ids: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(relationships ?? {})) {
    if (value === null || typeof value !== 'object' || !('data' in value)) continue;
    const data = (value as { data: unknown }).data;
    const refs = Array.isArray(data) ? data : data ? [data] : [];
    ids[name] = refs.map((ref) => String((ref as { id: unknown }).id)).sort();
  }
  return ids;
}

function record(resource: Resource, extra: Partial<ExpectedRecord> = {}): ExpectedRecord {
  return {
    key: `${resource.type}:${resource.id}`,
    id: resource.id,
    attributes: resource.attributes ?? {},
    relationships: relationshipIds(resource.relationships),
    ...extra,
  };
}

function byId(records: ExpectedRecord[]): Map<string, ExpectedRecord> {
  return new Map(records.map((r) => [r.id, r]));
}

/** Everything the profile's replica must hold, as the service answers it now. */
export async function readServiceView(
  target: OracleTarget,
  options: ViewOptions,
): Promise<ServiceView> {
  const view: ServiceView = new Map();
  const office = options.profile === 'office';
  const window = courseWindowOf(options);

  const people = office ? await list(target, '/personal') : await list(target, '/personal/selbst');
  view.set('users', byId(people.map((p) => record(p))));
  const trainings = people.flatMap((person) =>
    ((person.attributes.ausbildungen as Record<string, unknown>[] | undefined) ?? []).map(
      ({ id, ...attributes }) =>
        record(
          { type: 'ausbildung', id: String(id), attributes },
          { columns: { user_id: person.id } },
        ),
    ),
  );
  view.set('ausbildungen', byId(trainings));
  if (office) {
    const checks: ExpectedRecord[] = [];
    const honours: ExpectedRecord[] = [];
    for (const person of people) {
      const vouch: Vouch = { scope: 'person', id: person.id };
      for (const check of await list(target, `/personal/${person.id}/ueberpruefungen`))
        checks.push(record(check, { vouch, columns: { user_id: person.id } }));
      for (const honour of await list(target, `/personal/${person.id}/ehrungen`))
        honours.push(record(honour, { vouch, columns: { user_id: person.id } }));
    }
    view.set('ueberpruefungen', byId(checks));
    view.set('ehrungen', byId(honours));
    view.set('kalender', referenceOf('kalender', await list(target, '/kalender')));
    view.set(
      'benachrichtigungen',
      referenceOf('benachrichtigungen', await list(target, '/benachrichtigungen')),
    );
    view.set('steuersaetze', referenceOf('steuersaetze', await list(target, '/steuersaetze')));
    const clients = await list(target, '/clients');
    view.set('clients', referenceOf('clients', clients));
    view.set('client_participants', await clientParticipants(target, clients));
  }
  view.set('course_types', referenceOf('course_types', await list(target, '/courses/types')));

  const courseQuery =
    `/courses?filter[from]=${window.from}&filter[until]=${window.until}` +
    (office ? '' : `&filter[trainer_user_id]=${options.selfId}`);
  const courseAnswer = await getJson(target, courseQuery);
  const courses = courseAnswer.data as Resource[];
  const included = new Map((courseAnswer.included ?? []).map((r) => [`${r.type}:${r.id}`, r]));
  const dates: ExpectedRecord[] = [];
  const courseRecords = courses.map((course) => {
    const own = relationshipIds(course.relationships).dates ?? [];
    const ofCourse = own
      .map((id) => included.get(`course_date:${id}`))
      .filter((d): d is Resource => d !== undefined);
    for (const date of ofCourse)
      dates.push(
        record(date, {
          columns: {
            course_id: course.id,
            date_from: date.attributes.from ?? null,
            date_to: date.attributes.to ?? null,
          },
        }),
      );
    const froms = ofCourse.map((d) => String(d.attributes.from)).sort();
    const tos = ofCourse.map((d) => String(d.attributes.to ?? d.attributes.from)).sort();
    return record(course, {
      columns: { first_date: froms[0] ?? null, last_date: tos.at(-1) ?? null },
    });
  });
  view.set('courses', byId(courseRecords));
  view.set('course_dates', byId(dates));

  // A course location comes with its course in every course list.
  view.set(
    'addresses',
    byId([...included.values()].filter((r) => r.type === 'address').map((r) => record(r))),
  );

  const participations: ExpectedRecord[] = [];
  const customfields: ExpectedRecord[] = [];
  // Companies and UVTs come with the participations that name them (the first course that
  // shows one vouches for it); UVTs also in the list of favourites.
  const companies = new Map<string, ExpectedRecord>();
  const uvts = referenceOf('uvts', await list(target, '/uvts'));
  for (const course of courses) {
    const vouch: Vouch = { scope: 'course', id: course.id };
    const answer = await getJson(
      target,
      `/courses/${course.id}/participations?include=company,uvt`,
    );
    for (const p of answer.data as Resource[])
      participations.push(record(p, { vouch, columns: { course_id: course.id } }));
    for (const related of answer.included ?? []) {
      const held = related.type === 'company' ? companies : related.type === 'uvt' ? uvts : null;
      if (held && !held.has(related.id)) held.set(related.id, record(related, { vouch }));
    }
    for (const f of await list(target, `/courses/${course.id}/customfields`))
      customfields.push(record(f, { vouch, columns: { course_id: course.id } }));
  }
  view.set('participations', byId(participations));
  view.set('customfields', byId(customfields));
  view.set('companies', companies);
  view.set('uvts', uvts);

  // The forms of the own person and of every course not yet ended (the client's owners),
  // each owner's list as one record: `typ:id` → its forms in order.
  const today = format(options.today, 'yyyy-MM-dd');
  const owners = [
    `u:${options.selfId}`,
    ...courseRecords
      .filter((c) => String(c.columns?.last_date ?? '').slice(0, 10) >= today)
      .map((c) => `k:${c.id}`),
  ];
  const forms: ExpectedRecord[] = [];
  for (const owner of owners) {
    const [typ, id] = owner.split(':') as [string, string];
    const list = await getPlainJson(target, `/formulare/v1/liste?typ=${typ}&id=${id}`);
    forms.push({
      key: `forms:${owner}`,
      id: owner,
      attributes: { forms: list },
      relationships: {},
      vouch: { scope: 'forms', id: owner },
    });
  }
  view.set('formulare', byId(forms));

  const hours = await getJson(
    target,
    `/helferstunden?filter[eigene]=${office ? 'false' : 'true'}&filter[von]=${options.hoursHistoryStart}&include=anlass,typ`,
  );
  view.set('helferstunden', byId((hours.data as Resource[]).map((h) => record(h))));
  view.set(
    'helferstunden_anlaesse',
    byId(
      (hours.included ?? []).filter((r) => r.type === 'helferstunden_anlass').map((r) => record(r)),
    ),
  );
  view.set('helferstunden_typen', await hourTypes(target, hours.included ?? []));
  return view;
}

/** A reference list's records, vouched for by the collection's sync state. */
function referenceOf(collection: string, resources: Resource[]): Map<string, ExpectedRecord> {
  return byId(resources.map((r) => record(r, { vouch: referenceList(collection) })));
}

/**
 * The hour types: those the own settings list (the active ones, vouched for by the settings)
 * and those the hour entries name. Whether a type is offered (`aktiv`) is compared as the
 * replica's column, which the settings decide.
 */
async function hourTypes(
  target: OracleTarget,
  ofEntries: readonly Resource[],
): Promise<Map<string, ExpectedRecord>> {
  const settings = await getJson(target, '/helferstunden/einstellungen/selbst');
  const types = new Map<string, ExpectedRecord>();
  const add = (resource: Resource, vouch?: Vouch) =>
    types.set(
      resource.id,
      record(resource, {
        columns: { aktiv: resource.attributes.aktiv === true ? 1 : 0 },
        ...(vouch ? { vouch } : {}),
      }),
    );
  for (const type of settings.included ?? [])
    if (type.type === 'helferstunden_typ') add(type, referenceList('helferstunden_einstellungen'));
  for (const type of ofEntries)
    if (type.type === 'helferstunden_typ' && !types.has(type.id)) add(type);
  return types;
}

/** Every client's participants, keyed `client:participation` (one may be another client's too). */
async function clientParticipants(
  target: OracleTarget,
  clients: readonly Resource[],
): Promise<Map<string, ExpectedRecord>> {
  const participants = new Map<string, ExpectedRecord>();
  for (const client of clients)
    for (const p of await list(target, `/clients/${client.id}/participants`)) {
      const expected = record(p, {
        vouch: { scope: 'client', id: client.id },
        columns: { client_id: client.id },
      });
      participants.set(`${client.id}:${p.id}`, { ...expected, id: `${client.id}:${p.id}` });
    }
  return participants;
}
