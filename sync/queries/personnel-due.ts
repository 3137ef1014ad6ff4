// The due list (Fällig, issue 22): across everyone, the trainings whose validity ends and the
// checks whose next date is on or before a day, by person, as the office prints it before the
// yearly refresher courses. A person whose checks the service never gave here is listed too
// (after those with something due), so an unknown does not look clear. One query for the screen
// and the export (sync/export reads it whole).
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { serviceDay, type DueEntry, type DuePerson, type QueryResults } from '../contract';

export interface DueRequest {
  until: string;
  /** Default: the service's day now. */
  today?: string;
  /** The people whose checks were never read, after the others. */
  unread: boolean;
  limit: number;
  offset: number;
}

/**
 * What falls due by `until` (both kinds; a training deleted here is gone), by the dates'
 * indexes (migration 8).
 */
const DUE = `
  SELECT 'training' AS kind, id, user_id, bezeichnung, gueltig_bis AS due FROM ausbildungen
    WHERE gueltig_bis <= :until AND local_state IS NOT 'deleted'
  UNION ALL
  SELECT 'check', id, user_id, bezeichnung, naechste_pruefung FROM ueberpruefungen
    WHERE naechste_pruefung <= :until`;

/** The people listed: those with something due first, then (with :unread) the never read. */
const LISTED = `
  WITH due AS (${DUE}),
  listed AS (
    SELECT u.rowid AS rid, 0 AS unread_only FROM users u
      WHERE u.id IN (SELECT user_id FROM due)
    UNION ALL
    SELECT u.rowid, 1 FROM users u
      WHERE :unread AND u.id NOT IN (SELECT user_id FROM due WHERE user_id IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM confirmations c
          WHERE c.scope = 'person' AND c.id = u.id AND c.confirmed_at IS NOT NULL))`;

export function listDue(sqlite: Sqlite, request: DueRequest): QueryResults['personnel.due'] {
  const today = request.today ?? serviceDay();
  const params = { until: request.until, unread: request.unread ? 1 : 0 };
  const counts = prepared(
    sqlite,
    `${LISTED} SELECT count(*) AS total, count(*) FILTER (WHERE unread_only = 0) AS withDue FROM listed`,
  ).get(params) as { total: number; withDue: number };
  const people = prepared(
    sqlite,
    `${LISTED}
     SELECT u.id, u.vorname, u.nachname, u.mitgliednr, u.status,
       (SELECT c.confirmed_at FROM confirmations c WHERE c.scope = 'person' AND c.id = u.id)
         AS checksConfirmedAt
     FROM listed JOIN users u ON u.rowid = listed.rid
     ORDER BY listed.unread_only, u.sort_name, u.rowid
     LIMIT :limit OFFSET :offset`,
  ).all({ ...params, limit: request.limit, offset: request.offset }) as Omit<
    DuePerson,
    'entries'
  >[];
  const entries = entriesOf(
    sqlite,
    people.map((person) => person.id),
    request.until,
    today,
  );
  return {
    total: counts.total,
    withDue: counts.withDue,
    today,
    items: people.map((person) => ({ ...person, entries: entries.get(person.id) ?? [] })),
  };
}

/** The entries due of these people, earliest first, by person. */
function entriesOf(
  sqlite: Sqlite,
  ids: readonly string[],
  until: string,
  today: string,
): Map<string, DueEntry[]> {
  const byPerson = new Map<string, DueEntry[]>();
  if (ids.length === 0) return byPerson;
  const rows = prepared(
    sqlite,
    `WITH due AS (${DUE})
     SELECT kind, id, user_id AS userId, bezeichnung, due FROM due
     WHERE user_id IN (SELECT value FROM json_each(:ids))
     ORDER BY due, kind DESC, bezeichnung, id`,
  ).all({ until, ids: JSON.stringify(ids) }) as (Omit<DueEntry, 'expired'> & { userId: string })[];
  for (const { userId, ...entry } of rows) {
    const list = byPerson.get(userId) ?? [];
    list.push({ ...entry, expired: entry.due < today });
    byPerson.set(userId, list);
  }
  return byPerson;
}
