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

/**
 * The people listed, one page of them in order (those with something due first, then with
 * :unread the never read, each by name), with the counts of all: one pass over the people.
 */
const PAGE = `
  WITH due AS (${DUE}),
  due_people AS MATERIALIZED (SELECT DISTINCT user_id FROM due),
  listed AS (
    SELECT u.rowid AS rid, u.sort_name, u.id NOT IN due_people AS unread_only FROM users u
    WHERE u.id IN due_people OR (:unread AND NOT EXISTS (SELECT 1 FROM confirmations c
      WHERE c.scope = 'person' AND c.id = u.id AND c.confirmed_at IS NOT NULL))),
  page AS (
    SELECT rid, unread_only, sort_name, count(*) OVER () AS total,
      count(*) FILTER (WHERE unread_only = 0) OVER () AS withDue
    FROM listed ORDER BY unread_only, sort_name, rid LIMIT :limit OFFSET :offset)
  SELECT page.total, page.withDue, u.id, u.vorname, u.nachname, u.mitgliednr, u.status,
    (SELECT c.confirmed_at FROM confirmations c WHERE c.scope = 'person' AND c.id = u.id)
      AS checksConfirmedAt
  FROM page JOIN users u ON u.rowid = page.rid
  ORDER BY page.unread_only, page.sort_name, page.rid`;

/** The counts alone: for a page past the end, which has no rows to carry them. */
const COUNTS = `
  WITH due AS (${DUE}),
  due_people AS MATERIALIZED (SELECT DISTINCT user_id FROM due)
  SELECT count(*) AS total, count(*) FILTER (WHERE u.id IN due_people) AS withDue FROM users u
  WHERE u.id IN due_people OR (:unread AND NOT EXISTS (SELECT 1 FROM confirmations c
    WHERE c.scope = 'person' AND c.id = u.id AND c.confirmed_at IS NOT NULL))`;

type PageRow = Omit<DuePerson, 'entries'> & { total: number; withDue: number };

export function listDue(sqlite: Sqlite, request: DueRequest): QueryResults['personnel.due'] {
  const today = request.today ?? serviceDay();
  const params = { until: request.until, unread: request.unread ? 1 : 0 };
  const rows = prepared(sqlite, PAGE).all({
    ...params,
    limit: request.limit,
    offset: request.offset,
  }) as PageRow[];
  const counts =
    rows[0] ?? (prepared(sqlite, COUNTS).get(params) as Pick<PageRow, 'total' | 'withDue'>);
  const people = rows.map(({ total: _total, withDue: _withDue, ...person }) => person);
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
