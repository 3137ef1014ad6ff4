// The contract between the core and every UI: each query the screens may send, with a zod
// schema for its arguments and a TypeScript type for its result, plus the events the core emits.
// Served unchanged over Electron IPC, the loopback WebSocket of browser mode and the CLI; every
// transport validates arguments with these schemas before the core sees them.
// Imports zod only: the renderer (a browser) imports this file.
import { z } from 'zod';

// The commands (writes and the outbox's own) live beside: sync/contract/commands.ts.
export * from './contract/commands';
// The host's calls (account, login, demo, sign-out, sync now): sync/contract/host.ts.
export * from './contract/host';
// Export (.ics, CSV, the attendance PDF) and the private calendar feed: sync/contract/export.ts.
export * from './contract/export';
// The desktop app's updates: sync/contract/updates.ts.
export * from './contract/updates';
// The tables each read of the contract reads (what makes a screen's query run again).
export { CALL_READS, type ReadCallName } from './contract/reads';
// Each call's kind (read, write, host) and the tables each write changes.
export { CALL_KIND_NAMES, CALL_WRITES, type CallKind, type WriteCallName } from './contract/kinds';
import {
  COMMAND_AND_HOST_KINDS,
  kindOf,
  type CallKind,
  type WriteCallName,
} from './contract/kinds';
// The sync's areas, status and the scheduler's state: sync/contract/sync-status.ts.
export * from './contract/sync-status';
import type {
  AreaStatus,
  QuarantineItem,
  SchedulerState,
  SyncStatus,
} from './contract/sync-status';
// The service's wall clock, read alike by the core and the screens.
export { SERVICE_ZONE, serviceDay, serviceTime, toServiceDateTime } from './contract/service-time';
// How a search compares text, alike in the core and the page.
export { courseFoundBy, foldForSearch } from './contract/search-text';
import type { CallName, HostEvent } from './contract/host';
import { calendarDay } from './contract/export';
// The rows the reads answer with: sync/contract/results.ts.
export * from './contract/results';
import type {
  CourseDayItem,
  CourseDetail,
  CourseListItem,
  DuePerson,
  HoursItem,
  HoursSettings,
  HoursSummary,
  HoursTotals,
  LocalState,
  Paged,
  ParticipationItem,
  PersonDetail,
  PersonListItem,
} from './contract/results';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');
const id = z.string().min(1).max(200);
const page = {
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
};

/** The filter of hours.list and hours.totals. */
const hoursFilter = {
  userId: z.union([id, z.literal('self')]).optional(),
  anlassId: id.optional(),
  typId: id.optional(),
  from: isoDate.optional(),
  until: isoDate.optional(),
  freigegeben: z.boolean().optional(),
};

/** The objects a form belongs to (the interface's letters): service, appointment, course, material, person. */
export const FORM_OBJECT_TYPES = ['d', 't', 'k', 'm', 'u'] as const;
export type FormObjectType = (typeof FORM_OBJECT_TYPES)[number];

export const PERSON_STATUSES = ['aktiv', 'eingeschraenkt', 'extern', 'gesperrt'] as const;

export const queries = {
  /**
   * The personnel list: a search anywhere in names, member number, e-mail and phone numbers
   * (ignoring case and diacritics; every word must match), filters by status, group and
   * qualification, sorted by name, member number, status or place.
   */
  'personnel.list': z.object({
    search: z.string().max(100).optional(),
    /** Exactly this member number: who holds it (a search would match it inside other values too). */
    mitgliednr: z.string().max(100).optional(),
    status: z.array(z.enum(PERSON_STATUSES)).optional(),
    group: z.string().max(200).optional(),
    qualification: z.string().max(100).optional(),
    sort: z.enum(['name', 'mitgliednr', 'status', 'ort']).default('name'),
    ...page,
  }),
  'personnel.get': z.object({ id }),
  'personnel.countByStatus': z.object({}),
  /** The groups and qualifications people have, with how many have each. */
  'personnel.facets': z.object({}),
  /**
   * What falls due (Fällig): the people with a training whose validity ends, or a check whose
   * next date is, on or before `until` (expired ones included), by name; with `unread`, then
   * the people whose checks the service never gave here (unknown, not clear). Expired means
   * before today (the service's day, or `today`).
   */
  'personnel.due': z.object({
    until: calendarDay,
    today: calendarDay.optional(),
    unread: z.boolean().default(true),
    ...page,
  }),
  /**
   * Courses in a date range; by default all in the replica. `trainerId: 'self'` means the
   * signed-in user; `courseTypeId` and `clientId` keep the courses of that type or client (the
   * office's filters).
   */
  'courses.list': z.object({
    from: isoDate.optional(),
    until: isoDate.optional(),
    trainerId: z.union([id, z.literal('self')]).optional(),
    courseTypeId: id.optional(),
    clientId: id.optional(),
    status: z.array(z.string().max(40)).optional(),
    search: z.string().max(100).optional(),
    sort: z.enum(['date', 'title', 'number']).default('date'),
    ...page,
  }),
  /**
   * One row per course date (a trainer's day plan), oldest first (by start, then id): the
   * courses.list filters (from/until on the date's day, trainer, search), courses deleted here
   * left out, and `anchor` (a day): the result says at which row that day begins (today first on
   * open).
   */
  'courses.days': z.object({
    from: isoDate.optional(),
    until: isoDate.optional(),
    trainerId: z.union([id, z.literal('self')]).optional(),
    search: z.string().max(100).optional(),
    anchor: isoDate.optional(),
    ...page,
  }),
  'courses.get': z.object({ id }),
  /** The people who train a course of the replica, by name (the office's trainer filter). */
  'courses.trainers': z.object({}),
  'participations.list': z.object({ courseId: id, includeCancelled: z.boolean().default(true) }),
  /**
   * Hour entries (not deleted here), newest `von` first: one person's ('self': the signed-in
   * user's, those created here too) or everyone's in the replica, by occasion, type, period
   * (`von`'s day) and approval.
   */
  'hours.list': z.object({
    ...hoursFilter,
    sort: z.enum(['von', 'stunden']).default('von'),
    ...page,
  }),
  /**
   * The totals of what hours.list shows with the same filter: all, per person (most hours first,
   * `limit` of them; `persons` says how many there are) and per type.
   */
  'hours.totals': z.object({
    ...hoursFilter,
    limit: z.number().int().min(1).max(500).default(50),
  }),
  /**
   * The own volunteer-hour settings (/helferstunden/einstellungen/selbst) as last read, with the
   * types that take new entries; null: never read here.
   */
  'hours.settings': z.object({}),
  'hours.summary': z.object({
    userId: z.union([id, z.literal('self')]).optional(),
    year: z.number().int().min(1900).max(2200).optional(),
  }),
  'hours.types': z.object({ activeOnly: z.boolean().default(false) }),
  /**
   * Totals per year of `von` (newest first), for one person (default: everyone in the replica).
   * `self` counts the own entries created here too (the service sets their user).
   */
  'hours.years': z.object({ userId: z.union([id, z.literal('self')]).optional() }),
  /**
   * Occasions (Anlässe) for an hours entry, not deleted here: search anywhere in the description
   * (ASCII case-insensitive), newest `datum` first.
   */
  'hours.occasions': z.object({
    search: z.string().max(100).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  }),
  /**
   * Course days the signed-in trainer taught (courses not cancelled; date begun by now; its day
   * in from/until, default the last 60 days to today) without an own hours entry (not deleted)
   * whose `von` falls on that day, as the service means days (Europe/Berlin): offered as
   * one-click drafts, newest first.
   */
  'hours.suggestions': z.object({ from: isoDate.optional(), until: isoDate.optional() }),
  /** The own calendars; each one's private feed address without its secret path (`https://host/…`). */
  'calendars.list': z.object({}),
  /**
   * A calendar's private feed address whole, secret path and all (null: none, or no such
   * calendar): asked for on purpose, never part of a list (`vorort call calendars.list` is
   * printed, logged and pasted).
   */
  'calendars.icalUrl': z.object({ id }),
  'notifications.list': z.object({ unreadOnly: z.boolean().default(false) }),
  /** How many: unread and shown (not deleted here), and the service's own count (`meta.size`). */
  'notifications.count': z.object({}),
  'reference.get': z.object({}),
  'clients.list': z.object({ search: z.string().max(100).optional() }),
  'clients.participants': z.object({ clientId: id }),
  /**
   * A client with its courses as the service's /clients/{id}/courses means them (those where the
   * client is the client or has participants), from the replica, by first day; null: unknown.
   */
  'clients.get': z.object({ id }),
  /**
   * Companies known to the replica (from participations), for a walk-in's company: search
   * anywhere in the name (ASCII case-insensitive; umlauts as typed), names beginning with it
   * first, then by name.
   */
  'companies.list': z.object({
    search: z.string().max(100).optional(),
    limit: z.number().int().min(1).max(200).default(20),
  }),
  'forms.list': z.object({ typ: z.enum(FORM_OBJECT_TYPES), id }),
  /**
   * Every form the replica holds, by the object it belongs to (d service, t appointment, k course,
   * m material, u person), each object with its name where the replica knows it.
   */
  'forms.all': z.object({}),
  /**
   * The private calendar feed's events (as its last readable fetch left them) whose first day, as
   * the service means days (Europe/Berlin), is from..until (both included), by start. A repeating
   * event (RRULE, RDATE) once for each of its occurrences in the range, in its own zone, without
   * those EXDATE excludes; an occurrence changed by a VEVENT of its own shows as that, once.
   */
  'feed.events': z.object({ from: calendarDay, until: calendarDay }),
  /** One search box (Ctrl+K) over people, courses, participants, occasions and clients. */
  search: z.object({
    text: z.string().min(1).max(100),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  'sync.status': z.object({ freshness: z.boolean().default(false) }),
  /** What the last syncs could not apply: unreadable records and failed items, newest first. */
  'sync.quarantine': z.object({ collection: z.string().max(60).optional(), ...page }),
  /** Per area of the service: may this account read it, is it licensed (403 / 423)? */
  'sync.areas': z.object({}),
} as const;

export type QueryName = keyof typeof queries;

/** Each call's kind (sync/contract/kinds.ts): every query reads; the type makes a call without one an error. */
export const CALL_KINDS: Readonly<Record<CallName, CallKind>> = {
  ...kindOf(queries, 'read'),
  ...COMMAND_AND_HOST_KINDS,
};

/** Whether a call changes the replica or the outbox here (what wakes the sync). */
export function isWriteCall(name: string): name is WriteCallName {
  return Object.hasOwn(CALL_KINDS, name) && CALL_KINDS[name as CallName] === 'write';
}
export type QueryArgs<N extends QueryName> = z.input<(typeof queries)[N]>;
export type ParsedQueryArgs<N extends QueryName> = z.output<(typeof queries)[N]>;

export interface QueryResults {
  'personnel.list': Paged<PersonListItem> & {
    /** People per status (`''`: none) with the search, group and qualification applied. */
    statusCounts: Record<string, number>;
  };
  'personnel.get': PersonDetail | null;
  'personnel.countByStatus': Record<string, number>;
  'personnel.facets': {
    groups: { name: string; people: number }[];
    qualifications: { name: string; people: number }[];
  };
  'personnel.due': Paged<DuePerson> & {
    /** The day that divides expired from falling due. */
    today: string;
    /** People listed with something due (the rest of total: listed because never read). */
    withDue: number;
  };
  'courses.list': Paged<CourseListItem>;
  'courses.days': Paged<CourseDayItem> & {
    /** The first row on or after `anchor` (total when none is; 0 without an anchor). */
    anchorIndex: number;
  };
  'courses.get': CourseDetail | null;
  /** `name` null: a trainer the replica does not know by name. */
  'courses.trainers': { id: string; name: string | null; courses: number }[];
  'participations.list': ParticipationItem[];
  'hours.list': Paged<HoursItem> & { totalStunden: number };
  'hours.totals': HoursTotals;
  'hours.settings': HoursSettings | null;
  'hours.summary': HoursSummary;
  'hours.types': { id: string; bezeichnung: string | null; aktiv: boolean }[];
  'hours.years': { year: number; stunden: number; entries: number }[];
  'hours.occasions': {
    id: string;
    localState: LocalState;
    typ: string | null;
    beschreibung: string | null;
    datum: string | null;
    /**
     * The course the occasion is about: its `referenz` when that is a course; else, for typ
     * `kurs`, the course whose number the description names in parentheses, as the service's
     * own course occasions write it ("Erste Hilfe (EH-2026-17)"; drafts should too). Null: none.
     */
    courseId: string | null;
  }[];
  'hours.suggestions': {
    courseId: string;
    title: string | null;
    courseNumber: string | null;
    dateId: string;
    from: string;
    to: string | null;
    /**
     * The date's length in hours, rounded to a quarter, at least 0.25, as the draft's stunden; a
     * date without an end (or not after its start) gives 0.25 for the trainer to correct.
     */
    stunden: number;
    /**
     * An occasion of the replica about this course (as hours.occasions' courseId), the newest,
     * for the draft; null: one is to be created (typ kurs, "Title (Number)").
     */
    occasionId: string | null;
  }[];
  'calendars.list': {
    id: string;
    localState: LocalState;
    name: string | null;
    farbe: string | null;
    typ: string | null;
    /** The private feed's address as a person may see it, `https://host/…`; calendars.icalUrl has it whole. */
    icalAddress: string | null;
  }[];
  'calendars.icalUrl': string | null;
  'notifications.list': {
    id: string;
    localState: LocalState;
    titel: string | null;
    kategorie: string | null;
    gelesen: boolean;
    erstelltAm: string | null;
    text: string | null;
    /** The notification's https address, if it has one. */
    link: string | null;
  }[];
  'notifications.count': {
    unread: number;
    shown: number;
    /** The list's `meta.size` at the last sync; null when the service sent none. */
    service: number | null;
  };
  'reference.get': {
    organisation: Record<string, unknown> | null;
    user: Record<string, unknown> | null;
    courseTypes: { id: string; name: string | null; shortName: string | null }[];
    /**
     * The UVTs the replica knows: those /uvts lists (with the setting "select favorites" only the
     * favourites; `favorite` as the service says) and those a participation names (a sync keeps
     * every UVT a row points at), by name; `known` false: named by a company only, the service
     * offered the UVT itself nowhere (its name unknown here), listed last.
     */
    uvts: {
      id: string;
      name: string | null;
      shortName: string | null;
      favorite: boolean;
      known: boolean;
    }[];
    taxRates: {
      id: string;
      bezeichnung: string | null;
      satz: number | null;
      gueltigAb: string | null;
    }[];
  };
  'clients.list': { id: string; name: string | null; city: string | null; participants: number }[];
  'clients.participants': {
    id: string;
    courseId: string | null;
    firstName: string | null;
    lastName: string | null;
    status: string | null;
  }[];
  'clients.get': {
    id: string;
    name: string | null;
    city: string | null;
    participants: number;
    /** The client's own data as the service gives it (customer number, address, contact). */
    attributes: Record<string, unknown>;
    /** When the service last confirmed the client with its participants (the screen's "as of"); null: not yet. */
    confirmedAt: string | null;
    courses: {
      id: string;
      courseNumber: string | null;
      title: string | null;
      courseType: string | null;
      status: string | null;
      localState: LocalState;
      firstDate: string | null;
      lastDate: string | null;
      /** How many dates the course has. */
      dates: number;
      city: string | null;
      /** The place in one line: description, street, postal code and town. */
      address: string | null;
    }[];
  } | null;
  'forms.list': { titel: string | null; aktion: unknown }[];
  'forms.all': {
    typ: FormObjectType;
    id: string;
    /** The object's name as the replica knows it (course number and title, a person's name); null: unknown here. */
    label: string | null;
    forms: { titel: string | null; aktion: unknown }[];
  }[];
  'feed.events': {
    uid: string;
    /**
     * '' for an event that does not repeat; an occurrence of a repeating event (and the VEVENT
     * that changed one) the RECURRENCE-ID it has: a UTC instant (ISO), or the date when all day.
     * uid and recurrenceId name one entry of the answer.
     */
    recurrenceId: string;
    summary: string | null;
    description: string | null;
    location: string | null;
    categories: string | null;
    status: string | null;
    allDay: boolean;
    /** Timed: an instant (ISO, UTC); all day: the first day, YYYY-MM-DD. Of this occurrence. */
    startsAt: string;
    /** Timed: an instant; all day: the day after the last (exclusive, as iCalendar's DTEND). */
    endsAt: string | null;
    /** The first day (Europe/Berlin) of this occurrence, YYYY-MM-DD. */
    startDay: string;
    /**
     * The entry is one occurrence of a repeating event (or its changed one). A rule that cannot be
     * read, or a replica not fetched since it could expand rules, shows the event on its first day.
     */
    recurring: boolean;
  }[];
  'companies.list': {
    id: string;
    name: string | null;
    uvtId: string | null;
    uvt: string | null;
  }[];
  search: {
    people: { id: string; label: string }[];
    courses: { id: string; label: string }[];
    participants: { id: string; courseId: string; label: string }[];
    occasions: { id: string; label: string; datum: string | null }[];
    clients: { id: string; label: string }[];
  };
  'sync.status': SyncStatus;
  'sync.quarantine': Paged<QuarantineItem>;
  'sync.areas': AreaStatus[];
}

/** Events the core emits to every connected UI. */
export type CoreEvent =
  | { type: 'sync.state'; state: SchedulerState }
  | { type: 'sync.progress'; collection: string; done: number; total?: number }
  | {
      type: 'sync.finished';
      ok: boolean;
      records: number;
      requests: number;
      seconds: number;
      error?: string;
    }
  /** The replica's tables that changed ('all': read everything again, e.g. a replica removed). */
  | { type: 'data.changed'; tables: readonly string[] | 'all' }
  | HostEvent;
