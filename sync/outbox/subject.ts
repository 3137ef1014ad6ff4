// What record an outbox operation concerns, in words a person recognises ("Max Muster", "hours on
// 23.11.2026, 4 h, Erste Hilfe"), so a sync centre can say "Teilnahme von Max Muster abgesagt"
// instead of "participation local-3f2…". Read from the replica (its local truth, so a name
// changed offline shows as changed), else from the operation's own arguments (a record the
// replica no longer holds), else null.
import type { Sqlite } from '../db/sqlite';
import type { OutboxSubject } from '../contract';
import type { WriteArgs } from './operations';
import { prepared } from './statements';

type Row = Record<string, unknown>;

const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** "Max Muster" from a first and a last name, either of them missing. */
function fullName(first: unknown, last: unknown): string | null {
  const words = [textOf(first), textOf(last)].filter((word) => word !== null);
  return words.length > 0 ? words.join(' ') : null;
}

function rowOf(sqlite: Sqlite, sql: string, id: string | undefined): Row | null {
  if (!id) return null;
  return (prepared(sqlite, sql).get(id) as Row | undefined) ?? null;
}

const courseTitle = (sqlite: Sqlite, id: unknown) =>
  typeof id === 'string'
    ? textOf(rowOf(sqlite, 'SELECT title FROM courses WHERE id = ?', id)?.title)
    : null;

const personName = (sqlite: Sqlite, id: unknown) => {
  if (typeof id !== 'string') return null;
  const person = rowOf(sqlite, 'SELECT vorname, nachname FROM users WHERE id = ?', id);
  return person ? fullName(person.vorname, person.nachname) : null;
};

/** The id a relationship names (`{ data: { type, id } }`), if it names one. */
function relatedId(relationships: Record<string, unknown> | undefined, name: string) {
  const data = (relationships?.[name] as { data?: { id?: unknown } | null } | undefined)?.data;
  return typeof data?.id === 'string' ? data.id : undefined;
}

/** The service's own day of a date-time it wrote (`2026-11-23T08:00:00+01:00` → 2026-11-23). */
const dayOf = (value: unknown): string | null =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;

/** Who or what an operation on `recordType` / `recordId` concerns; null when nothing is known. */
export function outboxSubject(
  sqlite: Sqlite,
  recordType: string,
  recordId: string,
  args: WriteArgs,
): OutboxSubject | null {
  const given = args.attributes ?? {};
  switch (recordType) {
    case 'participation': {
      const row = rowOf(
        sqlite,
        'SELECT first_name, last_name, course_id FROM participations WHERE id = ?',
        recordId,
      );
      const label =
        fullName(row?.first_name, row?.last_name) ?? fullName(given.first_name, given.last_name);
      const course = courseTitle(sqlite, row?.course_id ?? args.courseId);
      return label || course ? { kind: 'participation', label, context: course } : null;
    }
    case 'helferstunden': {
      const row = rowOf(
        sqlite,
        'SELECT von, stunden, anlass_id FROM helferstunden WHERE id = ?',
        recordId,
      );
      const anlassId =
        (row?.anlass_id as string | null | undefined) ?? relatedId(args.relationships, 'anlass');
      const anlass = rowOf(
        sqlite,
        'SELECT beschreibung FROM helferstunden_anlaesse WHERE id = ?',
        anlassId ?? undefined,
      );
      const day = dayOf(row?.von) ?? dayOf(given.von);
      const hours = numberOf(row?.stunden) ?? numberOf(given.stunden);
      const label = textOf(anlass?.beschreibung);
      return day || hours !== null || label ? { kind: 'helferstunden', label, day, hours } : null;
    }
    case 'helferstunden_anlass': {
      const row = rowOf(
        sqlite,
        'SELECT beschreibung, datum FROM helferstunden_anlaesse WHERE id = ?',
        recordId,
      );
      const label = textOf(row?.beschreibung) ?? textOf(given.beschreibung);
      const day = dayOf(row?.datum) ?? dayOf(given.datum);
      return label || day ? { kind: 'helferstunden_anlass', label, day } : null;
    }
    case 'customfield': {
      const row = rowOf(sqlite, 'SELECT name, course_id FROM customfields WHERE id = ?', recordId);
      const label = textOf(row?.name) ?? textOf(given.name);
      const course = courseTitle(sqlite, row?.course_id ?? args.courseId);
      return label || course ? { kind: 'customfield', label, context: course } : null;
    }
    case 'course': {
      const row = rowOf(sqlite, 'SELECT title, course_number FROM courses WHERE id = ?', recordId);
      const label = textOf(row?.title) ?? textOf(given.title);
      return label ? { kind: 'course', label, context: textOf(row?.course_number) } : null;
    }
    case 'user': {
      const label = personName(sqlite, recordId) ?? fullName(given.vorname, given.nachname);
      return label ? { kind: 'user', label } : null;
    }
    case 'ausbildung': {
      const row = rowOf(
        sqlite,
        'SELECT bezeichnung, user_id FROM ausbildungen WHERE id = ?',
        recordId,
      );
      const label = textOf(row?.bezeichnung);
      const person = personName(sqlite, row?.user_id ?? args.userId);
      return label || person ? { kind: 'ausbildung', label, context: person } : null;
    }
    case 'kalender': {
      const row = rowOf(sqlite, 'SELECT name FROM kalender WHERE id = ?', recordId);
      const label = textOf(row?.name) ?? textOf(given.name);
      return label ? { kind: 'kalender', label } : null;
    }
    case 'benachrichtigung': {
      const row = rowOf(sqlite, 'SELECT titel FROM benachrichtigungen WHERE id = ?', recordId);
      const label = textOf(row?.titel);
      return label ? { kind: 'benachrichtigung', label } : null;
    }
    default:
      return null;
  }
}
