// The differential tester's steps and their seeded generator. A step is concrete (a request with
// its ids and body, a clock move, a sync of a profile), so a sequence replays as it was, and a
// shortened sequence is a regression test. The generator picks its targets from what the
// service held at the last look (the World), so a step aimed at a record removed since is a
// refused request, which is a step like any other.
import { formatBerlinDateTime, DAY_MS, HOUR_MS } from '../../sandbox/data/time';
import type { Profile, ServiceView } from './oracle';

export type Step =
  | { kind: 'advance'; ms: number }
  /**
   * A sync; `during`: a change that lands while it runs, right after the first page of a paged
   * list of `list` was answered (after the sync when nothing paged); `remove` takes the first
   * record of that page off the service, which shifts every later page by one.
   */
  | { kind: 'sync'; profile: Profile; during?: { list: PagedList; change: Change | 'remove' } }
  /** A write through the public interface, as the office. */
  | { kind: 'write'; label: string; method: string; path: string; body?: unknown }
  /** A change through the admin interface (the service's web interface, paging). */
  | { kind: 'admin'; label: string; method: string; path: string; body?: unknown }
  | { kind: 'backup'; name: number }
  | { kind: 'restore'; name: number };

/** The lists a sync reads that can be long enough to page. */
export const PAGED_LISTS = ['personal', 'helferstunden', 'courses'] as const;
export type PagedList = (typeof PAGED_LISTS)[number];

/** A change on the service: a step of the kinds that write. */
export type Change = Extract<Step, { kind: 'write' | 'admin' }>;

/** What the service held at the last look, for picking targets. */
export interface World {
  officeId: string;
  trainerId: string;
  /** The service clock (ms), for dates of new records. */
  now: number;
  people: string[];
  courses: { id: string; status: string; trainers: string[]; dates: string[] }[];
  participations: { id: string; courseId: string; status: string }[];
  customfields: { id: string; courseId: string }[];
  hours: string[];
  occasions: string[];
  /** Every hour type the service shows (in the own settings or on an entry), and the active ones. */
  hourTypes: string[];
  activeHourTypes: string[];
  courseTypes: string[];
  uvts: string[];
  companies: string[];
  addresses: string[];
  clients: string[];
  notifications: string[];
  calendars: string[];
  trainings: { id: string; userId: string }[];
  checks: string[];
  honours: string[];
  forms: string[];
  backups: number;
}

/** The World as the office's view of the service shows it. */
export function worldOf(
  view: ServiceView,
  base: Pick<World, 'officeId' | 'trainerId' | 'now' | 'forms' | 'backups'>,
): World {
  const records = (table: string) => [...(view.get(table)?.values() ?? [])];
  const hours = records('helferstunden');
  return {
    ...base,
    people: records('users').map((r) => r.id),
    courses: records('courses').map((r) => ({
      id: r.id,
      status: String(r.attributes.status ?? ''),
      trainers: r.relationships.trainers ?? [],
      dates: r.relationships.dates ?? [],
    })),
    participations: records('participations').map((r) => ({
      id: r.id,
      courseId: String(r.columns?.course_id),
      status: String(r.attributes.status ?? ''),
    })),
    customfields: records('customfields').map((r) => ({
      id: r.id,
      courseId: String(r.columns?.course_id),
    })),
    hours: hours.map((r) => r.id),
    occasions: records('helferstunden_anlaesse').map((r) => r.id),
    hourTypes: records('helferstunden_typen').map((r) => r.id),
    activeHourTypes: records('helferstunden_typen')
      .filter((r) => r.attributes.aktiv === true)
      .map((r) => r.id),
    courseTypes: records('course_types').map((r) => r.id),
    uvts: records('uvts').map((r) => r.id),
    companies: records('companies').map((r) => r.id),
    addresses: records('addresses').map((r) => r.id),
    clients: records('clients').map((r) => r.id),
    notifications: records('benachrichtigungen').map((r) => r.id),
    calendars: records('kalender').map((r) => r.id),
    trainings: records('ausbildungen').map((r) => ({
      id: r.id,
      userId: String(r.columns?.user_id),
    })),
    checks: records('ueberpruefungen').map((r) => r.id),
    honours: records('ehrungen').map((r) => r.id),
  };
}

/** A small seeded generator (mulberry32): the same seed, the same run. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
  int(from: number, to: number): number {
    return from + Math.floor(this.next() * (to - from + 1));
  }
  pick<T>(items: readonly T[]): T | undefined {
    return items.length ? items[Math.floor(this.next() * items.length)] : undefined;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const MINUTE_MS = 60_000;

/**
 * How the clocks move between steps. `mixed`: minutes to weeks (mostly the scheduler's few
 * minutes, sometimes a night, a weekend, a holiday), so clients often catch up after an absence.
 * `steady`: a client that keeps syncing every few minutes, so the bounds themselves are held.
 */
export type Schedule = 'mixed' | 'steady';

function advance(random: Random, schedule: Schedule): Step {
  if (schedule === 'steady') return { kind: 'advance', ms: random.int(2, 12) * MINUTE_MS };
  const roll = random.next();
  const ms =
    roll < 0.55
      ? random.int(2, 30) * MINUTE_MS
      : roll < 0.8
        ? random.int(1, 12) * HOUR_MS
        : roll < 0.95
          ? random.int(1, 3) * DAY_MS
          : random.int(7, 16) * DAY_MS;
  return { kind: 'advance', ms };
}

const ref = (type: string, id: string) => ({ data: { type, id } });

/** A Berlin wall-clock time `days` from the world's now, at `hour`. */
function at(world: World, days: number, hour: number): string {
  const day = Math.floor(world.now / DAY_MS) * DAY_MS + days * DAY_MS;
  return formatBerlinDateTime(day + (hour - 1) * HOUR_MS);
}

/** A step of one kind, or nothing (falsy) when the world has nothing to aim it at. */
type Maker = (world: World, random: Random, tag: string) => Step | '' | undefined;

const write = (label: string, method: string, path: string, body?: unknown): Step => ({
  kind: 'write',
  label,
  method,
  path,
  ...(body === undefined ? {} : { body }),
});
const admin = (label: string, method: string, path: string, body?: unknown): Step => ({
  kind: 'admin',
  label,
  method,
  path,
  ...(body === undefined ? {} : { body }),
});

/** Every write of the public interface, each with a weight. */
const PUBLIC: [number, Maker][] = [
  [
    2,
    (_w, _r, tag) =>
      write('person created', 'POST', '/personal', {
        data: { type: 'user', attributes: { vorname: `Vor${tag}`, nachname: `Nach${tag}` } },
      }),
  ],
  [
    4,
    (w, r, tag) => {
      const id = r.pick(w.people);
      return (
        id &&
        write('person changed', 'PATCH', `/personal/${id}`, {
          data: { type: 'user', id, attributes: { ort: `Ort ${tag}` } },
        })
      );
    },
  ],
  [
    1,
    (_w, r, tag) =>
      write(
        'person created or changed by member number',
        'PUT',
        `/personal/mitgliednr/M-${r.int(1, 40)}`,
        {
          data: { type: 'user', attributes: { vorname: `Vor${tag}`, nachname: `Nach${tag}` } },
        },
      ),
  ],
  [
    1,
    (w, r) => {
      const training = r.pick(w.trainings);
      return (
        training &&
        write(
          'training deleted',
          'DELETE',
          `/personal/${training.userId}/ausbildungen/${training.id}`,
        )
      );
    },
  ],
  [
    1,
    (_w, _r, tag) =>
      write('calendar created', 'POST', '/kalender', {
        data: { type: 'kalender', attributes: { name: `Kalender ${tag}` } },
      }),
  ],
  [
    1,
    (w, r) => {
      const id = r.pick(w.calendars);
      return id && write('calendar deleted', 'DELETE', `/kalender/${id}`);
    },
  ],
  [
    4,
    (w, r) => {
      const occasion = r.pick(w.occasions);
      const type = r.pick(w.activeHourTypes);
      const user = r.chance(0.4) ? w.trainerId : r.pick(w.people);
      if (!occasion || !type || !user) return undefined;
      const day = -r.int(0, 120);
      return write('hours entered', 'POST', '/helferstunden', {
        data: {
          type: 'helferstunden',
          attributes: { von: at(w, day, 8), bis: at(w, day, 12), stunden: 4, freigegeben: false },
          relationships: {
            anlass: ref('helferstunden_anlass', occasion),
            typ: ref('helferstunden_typ', type),
            user: ref('user', user),
          },
        },
      });
    },
  ],
  [
    4,
    (w, r) => {
      const id = r.pick(w.hours);
      return (
        id &&
        write('hours changed', 'PATCH', `/helferstunden/${id}`, {
          data: { type: 'helferstunden', id, attributes: { stunden: r.int(1, 9) / 2 } },
        })
      );
    },
  ],
  [
    2,
    (w, r) => {
      const id = r.pick(w.hours);
      return id && write('hours deleted', 'DELETE', `/helferstunden/${id}`);
    },
  ],
  [
    1,
    (w, r, tag) =>
      write('occasion created', 'POST', '/helferstunden/anlass', {
        data: {
          type: 'helferstunden_anlass',
          attributes: {
            typ: 'sonstiges',
            beschreibung: `Anlass ${tag}`,
            datum: at(w, -r.int(0, 30), 9).slice(0, 10),
          },
        },
      }),
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.occasions);
      return (
        id &&
        write('occasion changed', 'PATCH', `/helferstunden/anlass/${id}`, {
          data: { type: 'helferstunden_anlass', id, attributes: { beschreibung: `Anlass ${tag}` } },
        })
      );
    },
  ],
  [
    1,
    (w, r) => {
      const id = r.pick(w.notifications);
      return (
        id &&
        write('notification read', 'PATCH', `/benachrichtigungen/${id}`, {
          data: { type: 'benachrichtigung', id, attributes: { gelesen: r.chance(0.5) } },
        })
      );
    },
  ],
  [
    1,
    (w, r) => {
      const id = r.pick(w.notifications);
      return id && write('notification deleted', 'DELETE', `/benachrichtigungen/${id}`);
    },
  ],
  [
    2,
    (w, r, tag) => {
      const day = r.int(-20, 60);
      return write('course created', 'POST', '/courses', {
        data: {
          type: 'course',
          attributes: { title: `Kurs ${tag}`, max_participants: 12 },
          relationships: {
            course_type: ref('course_type', '1'),
            dates: { data: [{ type: 'course_date', id: 'new-1' }] },
            trainers: { data: r.chance(0.5) ? [{ type: 'user', id: w.trainerId }] : [] },
          },
        },
        included: [
          {
            type: 'course_date',
            id: 'new-1',
            attributes: { from: at(w, day, 9), to: at(w, day, 16) },
          },
        ],
      });
    },
  ],
  [
    5,
    (w, r, tag) => {
      const course = pickOpenCourse(w, r);
      return (
        course &&
        write('participant added', 'POST', `/courses/${course.id}/participations`, {
          data: {
            type: 'participation',
            attributes: {
              first_name: `Teil${tag}`,
              last_name: `Nehmer${tag}`,
              status: 'registered',
            },
            relationships: { company: ref('company', 'new-c') },
          },
          included: [{ type: 'company', id: 'new-c', attributes: { name: `Firma ${tag}` } }],
        })
      );
    },
  ],
  [
    5,
    (w, r) => {
      const p = r.pick(w.participations.filter((x) => x.status !== 'cancelled'));
      return (
        p &&
        write('participation changed', 'PATCH', `/courses/${p.courseId}/participations/${p.id}`, {
          data: {
            type: 'participation',
            id: p.id,
            attributes: { attended: r.chance(0.5), paid: r.chance(0.5) },
          },
        })
      );
    },
  ],
  [
    2,
    (w, r, tag) => {
      const p = r.pick(w.participations.filter((x) => x.status !== 'cancelled'));
      return (
        p &&
        write(
          'participation cancelled',
          'POST',
          `/courses/${p.courseId}/participations/${p.id}/cancel`,
          {
            data: { type: 'cancellation', attributes: { reason: `Grund ${tag}` } },
          },
        )
      );
    },
  ],
  [
    2,
    (w, r, tag) => {
      const course = r.pick(w.courses);
      return (
        course &&
        write('custom field added', 'POST', `/courses/${course.id}/customfields`, {
          data: {
            type: 'customfield',
            attributes: { name: `Feld ${tag}`, field_type: 'text', value: tag },
          },
        })
      );
    },
  ],
  [
    2,
    (w, r, tag) => {
      const field = r.pick(w.customfields);
      return (
        field &&
        write(
          'custom field changed',
          'PATCH',
          `/courses/${field.courseId}/customfields/${field.id}`,
          {
            data: { type: 'customfield', id: field.id, attributes: { value: tag } },
          },
        )
      );
    },
  ],
  [
    1,
    (w, r) => {
      const field = r.pick(w.customfields);
      return (
        field &&
        write(
          'custom field deleted',
          'DELETE',
          `/courses/${field.courseId}/customfields/${field.id}`,
        )
      );
    },
  ],
];

/** What the service's web interface changes, through the admin interface. */
const WEB: [number, Maker][] = [
  [
    3,
    (w, r) => {
      const course = r.pick(w.courses.filter((c) => c.dates.length));
      const date = course && r.pick(course.dates);
      return (
        course &&
        date &&
        admin('course date moved', 'POST', `/courses/${course.id}/dates/${date}/move`, {
          days: r.pick([-7, -2, -1, 1, 2, 14]) ?? 1,
        })
      );
    },
  ],
  [
    3,
    (w, r) => {
      const course = r.pick(w.courses);
      if (!course) return undefined;
      const on = course.trainers.includes(w.trainerId);
      return admin(
        on ? 'trainer removed' : 'trainer assigned',
        'POST',
        `/courses/${course.id}/trainers`,
        on ? { remove: [w.trainerId] } : { add: [w.trainerId] },
      );
    },
  ],
  [
    1,
    (w, r) => {
      const course = r.pick(w.courses);
      return course && admin('course deleted', 'DELETE', `/courses/${course.id}`);
    },
  ],
  [
    2,
    (w, r) => {
      const id = r.pick(w.hourTypes);
      // Never the last active type: an organisation that enters hours keeps one, and the client
      // reads settings that list none as a broken answer (sync/pull/collections/hour-settings.ts).
      const last = w.activeHourTypes.length === 1 && w.activeHourTypes[0] === id;
      return (
        id &&
        admin('hour type (de)activated', 'PATCH', `/helferstunden/typen/${id}`, {
          aktiv: last || r.chance(0.5),
        })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.hourTypes);
      return (
        id &&
        admin('hour type renamed', 'PATCH', `/helferstunden/typen/${id}`, {
          bezeichnung: `Stundentyp ${tag}`,
        })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.courseTypes);
      return (
        id &&
        admin('course type edited', 'PATCH', `/courses/types/${id}`, { name: `Kurstyp ${tag}` })
      );
    },
  ],
  [
    2,
    (w, r, tag) => {
      const id = r.pick(w.uvts);
      if (!id) return undefined;
      return r.chance(0.5)
        ? admin('UVT renamed', 'PATCH', `/uvts/${id}`, { name: `UVT ${tag}` })
        : admin('UVT favourite switched', 'PATCH', `/uvts/${id}`, { favorite: r.chance(0.5) });
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.companies);
      const uvt = r.pick(w.uvts);
      return (
        id &&
        admin('company edited', 'PATCH', `/companies/${id}`, {
          name: `Firma ${tag}`,
          ...(uvt && r.chance(0.3) ? { uvt } : {}),
        })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.addresses);
      return (
        id && admin('course location edited', 'PATCH', `/addresses/${id}`, { city: `Ort ${tag}` })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.clients);
      return id && admin('client edited', 'PATCH', `/clients/${id}`, { name: `Kunde ${tag}` });
    },
  ],
  [
    2,
    (w, r, tag) => {
      const id = r.pick(w.occasions);
      return (
        id &&
        admin('occasion edited', 'PATCH', `/helferstunden/anlaesse/${id}`, {
          beschreibung: `Web ${tag}`,
        })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const course = r.pick(w.courses);
      return (
        course &&
        admin('form added', 'POST', '/formulare', {
          objekt_typ: 'k',
          objekt_id: course.id,
          titel: `Formular ${tag}`,
        })
      );
    },
  ],
  [
    1,
    (w, r) => {
      const id = r.pick(w.forms);
      return id && admin('form removed', 'DELETE', `/formulare/${id}`);
    },
  ],
  [
    1,
    (w, r) => {
      const from = r.pick(w.people.filter((p) => p !== w.officeId && p !== w.trainerId));
      const into = r.pick(w.people.filter((p) => p !== from));
      return from && into && admin('person merged', 'POST', `/personal/${from}/merge`, { into });
    },
  ],
  [
    2,
    (w, r, tag) => {
      const id = r.pick(w.people);
      return (
        id &&
        admin('person edited on the web', 'PATCH', `/personal/${id}`, {
          attributes: { bemerkung: `Web ${tag}` },
        })
      );
    },
  ],
  [
    2,
    (w, r, tag) => {
      const id = r.pick(w.people);
      return (
        id &&
        admin('check added', 'POST', `/personal/${id}/ueberpruefungen`, {
          attributes: { bezeichnung: `Prüfung ${tag}`, bestanden: true },
        })
      );
    },
  ],
  [
    2,
    (w, r) => {
      const id = r.pick(w.checks);
      return id && admin('check deleted', 'DELETE', `/ueberpruefungen/${id}`);
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.checks);
      return (
        id &&
        admin('check edited', 'PATCH', `/ueberpruefungen/${id}`, {
          attributes: { bezeichnung: `Prüfung ${tag}` },
        })
      );
    },
  ],
  [
    1,
    (w, r, tag) => {
      const id = r.pick(w.people);
      return (
        id &&
        admin('honour added', 'POST', `/personal/${id}/ehrungen`, {
          attributes: { bezeichnung: `Ehrung ${tag}` },
        })
      );
    },
  ],
  [
    1,
    (w, r) => {
      const id = r.pick(w.honours);
      return id && admin('honour deleted', 'DELETE', `/ehrungen/${id}`);
    },
  ],
];

function pickOpenCourse(world: World, random: Random) {
  return random.pick(
    world.courses.filter((c) => c.status !== 'cancelled' && c.status !== 'completed'),
  );
}

function weighted(makers: [number, Maker][], random: Random): Maker {
  const total = makers.reduce((sum, [weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [weight, maker] of makers) {
    roll -= weight;
    if (roll < 0) return maker;
  }
  return makers[makers.length - 1]![1];
}

/** The next step: mostly changes, then the clock and syncs of both profiles, now and then paging, a backup or a restore. */
export function nextStep(
  world: World,
  random: Random,
  index: number,
  schedule: Schedule = 'mixed',
): Step {
  const tag = `s${index}`;
  for (;;) {
    const roll = random.next();
    if (roll < 0.18) return advance(random, schedule);
    if (roll < 0.32) {
      const profile = random.chance(0.5) ? 'office' : 'trainer';
      // Now and then another user changes something between two pages of the sync's answers.
      const list = random.pick(PAGED_LISTS)!;
      const change = random.chance(0.5) ? someChange(world, random, tag) : undefined;
      return change
        ? { kind: 'sync', profile, during: { list, change } }
        : { kind: 'sync', profile };
    }
    if (roll < 0.34)
      return admin('paging switched', 'PUT', '/paging', {
        pageSize: random.chance(0.5) ? null : random.pick([3, 7, 25]),
      });
    if (roll < 0.35) return { kind: 'backup', name: world.backups + 1 };
    if (roll < 0.36 && world.backups > 0)
      return { kind: 'restore', name: random.int(1, world.backups) };
    const step = weighted(roll < 0.72 ? PUBLIC : WEB, random)(world, random, tag);
    if (step) return step;
  }
}

/** A change for the middle of a sync: mostly a record of the page just read removed, else any. */
function someChange(world: World, random: Random, tag: string): Change | 'remove' | undefined {
  if (random.chance(0.7)) return 'remove';
  const step = weighted(random.chance(0.6) ? PUBLIC : WEB, random)(world, random, tag);
  return step && (step.kind === 'write' || step.kind === 'admin') ? step : undefined;
}

/** One line per step, for the report of a shortened sequence. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'advance':
      return `advance the clocks by ${formatDuration(step.ms)}`;
    case 'sync':
      return `sync the ${step.profile} replica${
        step.during
          ? `, and after the first page of ${step.during.list}: ${
              step.during.change === 'remove'
                ? 'its first record removed'
                : describeStep(step.during.change)
            }`
          : ''
      }`;
    case 'backup':
      return `back the service up (backup ${step.name})`;
    case 'restore':
      return `restore the service from backup ${step.name}`;
    default:
      return `${step.label}: ${step.kind === 'admin' ? 'admin ' : ''}${step.method} ${step.path}${
        step.body === undefined ? '' : ` ${JSON.stringify(step.body)}`
      }`;
  }
}

function formatDuration(ms: number): string {
  if (ms >= DAY_MS) return `${+(ms / DAY_MS).toFixed(1)} days`;
  if (ms >= HOUR_MS) return `${+(ms / HOUR_MS).toFixed(1)} hours`;
  return `${Math.round(ms / MINUTE_MS)} minutes`;
}
