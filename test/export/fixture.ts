// The export tests' world: the sandbox (with its admin interface) holding two courses made through
// the service's own interface, synced by the real sync engine into a real replica file. One course
// has 30 participants with the names an attendance list must survive (umlauts, ß, Ł, a `;` and a
// quote, a formula, very long names) and one cancelled; the other has dates on both sides of this
// year's two daylight-saving changes in Berlin, each at 10:00 Berlin time.
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync, type SyncSummary } from '../../sync/pull/engine';
import { EVERY_ITEM_EVERY_SYNC } from '../../sync/pull/options';

/** The Berlin offset at an instant, as Intl knows it: the tests' oracle, apart from sync/export's arithmetic. */
function berlinOffset(ms: number): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
      .formatToParts(ms)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT+01:00';
  return name.replace('GMT', '') || '+00:00';
}

/** A Berlin wall-clock time as the service writes it: 2026-03-27T10:00:00+01:00. */
export function berlinDateTime(day: string, time: string): string {
  const guess = Date.parse(`${day}T${time}:00Z`);
  let offset = berlinOffset(guess - 2 * 3_600_000);
  const instant = Date.parse(`${day}T${time}:00${offset}`);
  offset = berlinOffset(instant);
  return `${day}T${time}:00${offset}`;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last Sunday of a month (1-12) of a year, as YYYY-MM-DD. */
export function lastSunday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0));
  return isoDay(Date.UTC(year, month - 1, last.getUTCDate() - last.getUTCDay()));
}

const DAY = 86_400_000;
const shiftDay = (day: string, days: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY);

/** The DST course's dates: Friday before and Monday after each change, 10:00–12:00 Berlin. */
export function dstDays(year: number): string[] {
  const march = lastSunday(year, 3);
  const october = lastSunday(year, 10);
  return [shiftDay(march, -2), shiftDay(march, 1), shiftDay(october, -2), shiftDay(october, 1)];
}

export interface Person {
  first: string;
  last: string;
  birthday?: string;
  company?: string;
}

/** The 30 participants (besides them one cancelled): what CSV and PDF must carry unchanged. */
export const PEOPLE: Person[] = [
  {
    first: 'Jürgen',
    last: 'Müller-Lüdenscheidt',
    birthday: '1970-02-14',
    company: 'Bäckerei Groß & Söhne',
  },
  { first: 'Anna "Anni"', last: 'Schmidt; Sohn', birthday: '1988-12-01' },
  { first: 'Łukasz', last: 'Wiśniewski', company: 'Straßenbau Ødegård GmbH' },
  { first: 'Zoë', last: 'Ünal', birthday: '2001-07-31' },
  { first: '=HYPERLINK("http://example.org")', last: 'Formel' },
  { first: '@Mara', last: '+Plus' },
  {
    first: 'Maximiliane Friederike Wilhelmine',
    last: 'von und zu Hohenzollern-Sigmaringen-Schwarzenberg-Löwenstein-Wertheim',
    company: 'Landesverband für Katastrophenschutz, Bevölkerungsschutz und Sanitätswesen e. V.',
  },
  {
    first: 'Kai',
    last: 'Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamtengesellschaft',
  },
  { first: 'Şükrü', last: 'Öztürk', birthday: '1979-05-05' },
  { first: 'Ægidius', last: 'Weiß', company: 'Weiß & Weiß' },
  ...[
    'Bauer',
    'Böhm',
    'Dörfler',
    'Eßer',
    'Fuchs',
    'Gärtner',
    'Hößl',
    'Jäger',
    'Köhler',
    'Lührs',
    'Mäder',
    'Nüßlein',
    'Oßwald',
    'Pöschl',
    'Quandt',
    'Rößler',
    'Schäfer',
    'Thür',
    'Vögele',
    'Wüst',
  ].map((last, index) => ({
    first: ['Björn', 'Käthe', 'Götz', 'Uta', 'Jörg'][index % 5]!,
    last,
    ...(index % 3 === 0 ? { birthday: `19${60 + index}-0${(index % 9) + 1}-1${index % 10}` } : {}),
  })),
];

export const CANCELLED: Person = { first: 'Stefan', last: 'Storniert' };

export const COURSE_TITLE = 'Erste Hilfe – Betriebe, Teil „Praxis“; Gruppe 2';

export interface ExportWorld {
  sandbox: RunningSandbox;
  replica: Replica;
  file: string;
  officeToken: string;
  /** The course with the 30 participants, and the one across the DST changes. */
  courseId: string;
  dstCourseId: string;
  year: number;
  sync(): Promise<SyncSummary>;
  /** A write to the service's interface as the office account (JSON:API). */
  write(method: string, path: string, body?: unknown): Promise<{ data: { id: string } }>;
  /** A change of the service's web interface (the admin interface). */
  admin(method: string, path: string, body?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** Wide enough that both of this year's DST changes are inside the synced course window. */
export const SYNC_OPTIONS = {
  profile: 'office' as const,
  ...EVERY_ITEM_EVERY_SYNC,
  courseMonthsBack: 24,
  courseMonthsAhead: 24,
};

export async function exportWorld(file: string): Promise<ExportWorld> {
  const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 17, admin: true });
  const office = sandbox.users.find((u) => u.role === 'office')!;
  const trainer = sandbox.users.find((u) => u.role === 'trainer')!;
  const write = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${office.accessToken}`,
        'content-type': 'application/vnd.api+json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: { id: string } };
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.admin!.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${sandbox.admin!.token}`,
        'content-type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`admin ${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const year = new Date().getUTCFullYear();
  const soon = isoDay(Date.now() + 20 * DAY);
  const course = await write('POST', '/courses', {
    data: {
      type: 'course',
      attributes: { title: COURSE_TITLE, max_participants: 40 },
      relationships: {
        course_type: { data: { type: 'course_type', id: '1' } },
        dates: {
          data: [
            { type: 'course_date', id: 'new-1' },
            { type: 'course_date', id: 'new-2' },
          ],
        },
        location: { data: { type: 'address', id: 'new-a' } },
        trainers: {
          data: [
            { type: 'user', id: office.id },
            { type: 'user', id: trainer.id },
          ],
        },
      },
    },
    included: [
      {
        type: 'course_date',
        id: 'new-1',
        attributes: { from: berlinDateTime(soon, '08:30'), to: berlinDateTime(soon, '16:30') },
      },
      {
        type: 'course_date',
        id: 'new-2',
        attributes: {
          from: berlinDateTime(shiftDay(soon, 1), '08:30'),
          to: berlinDateTime(shiftDay(soon, 1), '12:15'),
        },
      },
      {
        type: 'address',
        id: 'new-a',
        attributes: {
          description: 'Gemeindehaus St. Jürgen, Saal „Größe“',
          street: 'Hauptstraße 1',
          postal_code: '12345',
          city: 'Übersee',
        },
      },
    ],
  });
  const courseId = course.data.id;
  let companyNumber = 0;
  const participate = (person: Person) => {
    const companyId = person.company ? `new-c${(companyNumber += 1)}` : null;
    return write('POST', `/courses/${courseId}/participations`, {
      data: {
        type: 'participation',
        attributes: {
          first_name: person.first,
          last_name: person.last,
          ...(person.birthday ? { birthday: person.birthday } : {}),
        },
        ...(companyId
          ? { relationships: { company: { data: { type: 'company', id: companyId } } } }
          : {}),
      },
      ...(companyId
        ? { included: [{ type: 'company', id: companyId, attributes: { name: person.company } }] }
        : {}),
    });
  };
  for (const person of PEOPLE) await participate(person);
  const cancelled = await participate(CANCELLED);
  await write('POST', `/courses/${courseId}/participations/${cancelled.data.id}/cancel`, {
    data: { type: 'cancellation', attributes: { reason: 'krank' } },
  });
  const days = dstDays(year);
  const dst = await write('POST', '/courses', {
    data: {
      type: 'course',
      attributes: { title: 'Fortbildung zur Zeitumstellung', max_participants: 12 },
      relationships: {
        course_type: { data: { type: 'course_type', id: '1' } },
        dates: { data: days.map((_, i) => ({ type: 'course_date', id: `new-${i}` })) },
        trainers: { data: [{ type: 'user', id: office.id }] },
      },
    },
    included: days.map((day, i) => ({
      type: 'course_date',
      id: `new-${i}`,
      attributes: { from: berlinDateTime(day, '10:00'), to: berlinDateTime(day, '12:00') },
    })),
  });
  const replica = openReplica(file);
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(office.accessToken),
  });
  const world: ExportWorld = {
    sandbox,
    replica,
    file,
    officeToken: office.accessToken,
    courseId,
    dstCourseId: dst.data.id,
    year,
    sync: () => runSync({ api, replica, options: SYNC_OPTIONS }),
    write,
    admin,
    async close() {
      await replica.close();
      await sandbox.close();
    },
  };
  const summary = await world.sync();
  if (!summary.ok) throw new Error(`the first sync failed: ${JSON.stringify(summary.collections)}`);
  return world;
}
