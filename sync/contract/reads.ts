// The replica's tables each read of the contract reads: a screen's query runs again only when
// the core says one of them changed (the event data.changed names tables). Declared once: the
// areas' reads in their files (personnel.ts, courses.ts, ...), the others here;
// test/sync/call-tables.test.ts keeps every line true by asking SQLite which tables each query
// opens. Imports the contract only: the renderer imports this file.
import * as calendars from './calendars';
import { COLLECTIONS } from './collections';
import * as courses from './courses';
import * as hours from './hours';
import * as notifications from './notifications';
import * as participations from './participations';
import * as personnel from './personnel';

/**
 * The tables of every collection, and the sync's own: what the status counts and reports (as the
 * screens ask for it; asked for its freshness, as only `vorort status` does, it reads
 * `confirmations` too).
 */
const STATUS_TABLES = [
  ...new Set([
    ...Object.values(COLLECTIONS).flatMap((collection) => collection.tables),
    'conflicts',
    'outbox',
    'quarantine',
    'replica_meta',
    'sync_log',
    'sync_state',
  ]),
].sort();

export const CALL_READS = {
  ...personnel.reads,
  ...courses.reads,
  ...participations.reads,
  ...hours.reads,
  ...calendars.reads,
  ...notifications.reads,
  'reference.get': ['companies', 'course_types', 'singletons', 'steuersaetze', 'uvts'],
  'forms.list': ['formulare'],
  'forms.all': ['courses', 'formulare', 'users'],
  'feed.events': ['feed_events'],
  search: ['clients', 'courses', 'helferstunden_anlaesse', 'participations', 'users'],
  'sync.status': STATUS_TABLES,
  'sync.quarantine': ['quarantine'],
  'sync.areas': ['replica_meta', 'sync_state'],
  'outbox.list': ['outbox'],
  'conflicts.list': ['conflicts'],
  'feed.get': ['feed_events', 'replica_meta'],
} as const satisfies Record<string, readonly string[]>;

/** A call that only reads the replica: what a screen may load and keep live. */
export type ReadCallName = keyof typeof CALL_READS;
