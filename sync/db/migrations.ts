// Numbered migrations of the replica, one file each under migrations/, applied on open in this
// order (PRAGMA user_version counts them). Append only: a released migration never changes, a
// new one follows it in a file of its own.
//
// Every table of service data keeps: query columns (what screens sort and filter by), `base`
// (the server's last version as JSON: { attributes, relationships }) and `pending` (JSON of
// locally changed fields, NULL when none; the outbox of a later issue rebases them on `base`) and
// `synced_at` (when the base was last written: an unchanged record is not rewritten).
import m001 from './migrations/001-replica';
import m002 from './migrations/002-quarantine-and-progress';
import m003 from './migrations/003-outbox';
import m004 from './migrations/004-freshness';
import m005 from './migrations/005-export-and-feed';
import m006 from './migrations/006-sync-log';
import m007 from './migrations/007-personnel-search';
import m008 from './migrations/008-due-dates';
import m009 from './migrations/009-hours-totals';
import m010 from './migrations/010-people-by-status';
import m011 from './migrations/011-feed-recurrence';
import m012 from './migrations/012-outbox-temporary-ids';

export const MIGRATIONS: readonly string[] = [
  m001, // the replica of every collection the service returns
  m002, // what a sync could not apply, and the progress of work that spans several syncs
  m003, // the outbox of local writes (DESIGN rules 1-7)
  m004, // freshness (DESIGN rule 15)
  m005, // export (.ics SEQUENCE) and the private calendar feed (issue 13)
  m006, // the sync's own log apart from replica_meta (issue 20)
  m007, // the personnel workspace's search (trigrams) and groups (issue 22)
  m008, // the due list's trainings and checks by their day (issue 22)
  m009, // everyone's hours summed by person and type over a period (issue 23)
  m010, // how many people have each status, kept by triggers (issue 25)
  m011, // repeating events of the private calendar feed expanded when asked (issue 23)
  m012, // the open operations that name a temporary id (issue 25)
];
