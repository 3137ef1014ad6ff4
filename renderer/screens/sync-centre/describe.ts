// An outbox entry or a conflict in words: what was done to which record ("Teilnahme von Max
// Muster abgesagt"), what it waits for ("wartet auf Verbindung") and values as people read them
// (dates in Europe/Berlin, ja/nein, "–").
import type { useTranslation } from 'react-i18next';
import type { ConflictEntry, OutboxEntry, SchedulerState } from '../../contract';
import { formatDate, formatHours, formatTime, relativeTime } from '../../format';

type T = ReturnType<typeof useTranslation>['t'];
export type Subject = NonNullable<OutboxEntry['subject']>;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isDateTimeText = (value: unknown): value is string =>
  typeof value === 'string' && DATE_TIME.test(value);
export const isDateText = (value: unknown): value is string =>
  typeof value === 'string' && DATE.test(value);

/** The record's name for a sentence: its label, else "ohne Namen (id)". */
function nameOf(t: T, subject: Subject | null, recordId: string): string {
  return subject?.label ?? t('syncCentre.unnamed', { id: recordId });
}

/** "am 23.11.2026 (4 Std.)" for hours; the occasion follows as a detail. */
function hoursWhat(t: T, subject: Subject | null, language: string): string {
  if (!subject?.day) return '';
  if (subject.hours === null || subject.hours === undefined)
    return t('syncCentre.hoursDay', { day: formatDate(subject.day, language) });
  return t('syncCentre.hoursWhat', {
    day: formatDate(subject.day, language),
    hours: formatHours(subject.hours, language),
  });
}

/** Only attendance changed (attended, status): said as "Anwesenheit erfasst". */
function isAttendance(entry: Pick<OutboxEntry, 'arguments'>): boolean {
  const attributes = (entry.arguments as { attributes?: Record<string, unknown> } | null)
    ?.attributes;
  if (!attributes) return false;
  const keys = Object.keys(attributes);
  return keys.length > 0 && keys.every((key) => key === 'attended' || key === 'status');
}

/** A notification marked read or unread (what its update can change). */
function readMark(entry: Pick<OutboxEntry, 'arguments'>): 'read' | 'unread' | 'update' {
  const read = (entry.arguments as { attributes?: { gelesen?: unknown } } | null)?.attributes
    ?.gelesen;
  return read === true ? 'read' : read === false ? 'unread' : 'update';
}

/**
 * The fields a change of a person names, as words ("Mobil und E-Mail"); null when it names one
 * the words do not know (then the sentence says only that the person changed).
 */
function personFields(
  t: T,
  entry: Pick<OutboxEntry, 'command' | 'arguments'>,
  language: string,
): string | null {
  if (entry.command !== 'user.update') return null;
  const attributes = (entry.arguments as { attributes?: Record<string, unknown> } | null)
    ?.attributes;
  const words = Object.keys(attributes ?? {}).map((key) =>
    t(`personnel.form.field.${key}`, {
      defaultValue: key === 'qualifikationen' ? t('syncCentre.qualifications') : '',
    }),
  );
  if (!words.length || words.some((word) => !word)) return null;
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(words);
}

/** What the operation did, in one sentence: "Teilnahme von Max Muster abgesagt". */
export function operationText(
  t: T,
  entry: Pick<OutboxEntry, 'command' | 'recordId' | 'subject' | 'arguments'>,
  language: string,
): string {
  const name = nameOf(t, entry.subject, entry.recordId);
  const key =
    entry.command === 'participation.update' && isAttendance(entry)
      ? 'participation.attendance'
      : entry.command === 'benachrichtigung.update'
        ? `benachrichtigung.${readMark(entry)}`
        : entry.command;
  const fields = personFields(t, entry, language);
  if (fields) return t('syncCentre.op.user.fields', { name, fields });
  const what = hoursWhat(t, entry.subject, language);
  return t(`syncCentre.op.${key}`, {
    name,
    what: what || name,
    command: entry.command,
    defaultValue: t('syncCentre.op.other', { command: entry.command, name }),
  }).replace(/\s+/g, ' ');
}

/** The second line: what the record belongs to (course, person, occasion). */
export function subjectDetail(t: T, subject: Subject | null): string | null {
  if (!subject) return null;
  if (subject.kind === 'helferstunden')
    return subject.label ? t('syncCentre.occasion', { name: subject.label }) : null;
  if (!subject.context) return null;
  if (subject.kind === 'ausbildung') return t('syncCentre.person', { name: subject.context });
  if (subject.kind === 'course') return t('syncCentre.number', { name: subject.context });
  return t('syncCentre.course', { name: subject.context });
}

/** The record a conflict concerns, for a group's heading: "Teilnahme: Max Muster". */
export function recordText(
  t: T,
  conflict: Pick<ConflictEntry, 'recordType' | 'recordId' | 'subject'>,
  language: string,
): string {
  const kind = t(`syncCentre.record.${conflict.recordType}`, {
    defaultValue: conflict.recordType,
  });
  const subject = conflict.subject;
  if (subject?.kind === 'helferstunden') {
    const what = hoursWhat(t, subject, language);
    return what ? `${kind} ${what}` : `${kind} ${conflict.recordId}`;
  }
  return `${kind}: ${nameOf(t, subject, conflict.recordId)}`;
}

/** Where the operation stands, in words ("wartet auf Verbindung", "vom Dienst abgelehnt: …"). */
export function stateText(
  t: T,
  entry: OutboxEntry,
  scheduler: SchedulerState | null,
  waitingForText: string | null,
  now: number,
  language: string,
): string {
  if (entry.waitingFor && entry.state !== 'parked')
    return waitingForText
      ? t('syncCentre.state.waitingFor', { what: waitingForText })
      : t('syncCentre.state.waitingForUnknown');
  if (entry.inConflict && entry.state !== 'parked') return t('syncCentre.state.inConflict');
  const offline = !scheduler || scheduler.phase === 'offline';
  switch (entry.state) {
    case 'pending':
      return offline ? t('syncCentre.state.waitingConnection') : t('syncCentre.state.sending');
    case 'in_flight':
      return t('syncCentre.state.in_flight');
    case 'retrying':
      if (offline) return t('syncCentre.state.waitingConnection');
      return entry.nextAttemptAt
        ? t('syncCentre.state.retrying', {
            when: relativeTime(entry.nextAttemptAt, now, language),
          })
        : t('syncCentre.state.retryingSoon');
    case 'parked':
      return t('syncCentre.state.parked');
    case 'unknown':
      return t('syncCentre.state.unknown');
    default:
      return entry.state;
  }
}

/** Words in both languages (a refusal's text), in the language in use. */
export function words(message: { de: string; en: string }, language: string): string {
  return language === 'en' ? message.en : message.de;
}

/** A field's name: the service's word in the language in use, or the word itself. */
export function fieldName(t: T, field: string): string {
  const last = field.split('.').pop() ?? field;
  return t(`syncCentre.fields.${last}`, { defaultValue: last });
}

/** A value as people read it: dates in Europe/Berlin, ja/nein, "–" for nothing. */
export function valueText(t: T, value: unknown, language: string): string {
  if (value === null || value === undefined || value === '') return t('syncCentre.values.none');
  if (typeof value === 'boolean')
    return value ? t('syncCentre.values.yes') : t('syncCentre.values.no');
  if (typeof value === 'number') return formatHours(value, language);
  if (isDateTimeText(value))
    return `${formatDate(value, language)}, ${formatTime(value, language)}`;
  if (isDateText(value)) return formatDate(value, language);
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'data' in value) {
    const data = (value as { data: unknown }).data;
    if (data && typeof data === 'object' && 'id' in data)
      return `${String((data as { type?: unknown }).type ?? '')} ${String((data as { id: unknown }).id)}`.trim();
  }
  return JSON.stringify(value);
}
