// A local write (DESIGN rule 1): the replica change and its outbox entry in one SQLite
// transaction, with no network. The row shows the change at once (local truth), marked by its
// local_state as not yet sent. A record created here gets a temporary id, `local-<uuid>`.
import { randomUUID } from 'node:crypto';
import type { Sqlite } from '../db/sqlite';
import { isLocalId, WRITE_COMMANDS, type WriteCommandName, type WriteReceipt } from '../contract';
import { invalid, notAllowed, notFound } from '../core-error';
import { upsertRow } from '../db/upsert';
import { serviceIdOf } from '../db/id-map';
import { prepared } from '../db/statements';
import { writableResource } from '../resources';
import { EMPTY_BASE, refreshRecord } from './local-truth';
import { enqueue, type WriteArgs } from './operations';
import { TEMPORARY_IDS_IN_TEXT, typeLabel, writableType } from './records';

export interface WriteClock {
  now?: () => Date;
}

function missing(type: string, id: string) {
  const label = typeLabel(type);
  return notFound(
    `${label.de} ${id} ist nicht in der lokalen Kopie (oder lokal gelöscht).`,
    `No ${label.en} ${id} in the replica (or it was deleted locally).`,
  );
}

/** Temporary ids that already have their service id are translated (a screen may still hold one). */
function translateIds(sqlite: Sqlite, args: WriteArgs): WriteArgs {
  const text = JSON.stringify(args);
  const translated = text.replace(TEMPORARY_IDS_IN_TEXT, (id) => serviceIdOf(sqlite, id) ?? id);
  return translated === text ? args : (JSON.parse(translated) as WriteArgs);
}

function liveRow(sqlite: Sqlite, type: string, id: string) {
  const { table } = writableType(type);
  const row = prepared(sqlite, `SELECT * FROM ${table} WHERE id = ?`).get(id) as
    Record<string, unknown> | undefined;
  return row && row.local_state !== 'deleted' ? row : undefined;
}

function requireRow(sqlite: Sqlite, type: string, id: string) {
  const row = liveRow(sqlite, type, id);
  if (!row) throw missing(type, id);
  return row;
}

const relatedId = (args: WriteArgs, name: string): string | undefined => {
  const data = (args.relationships?.[name] as { data?: { id?: string } | null } | undefined)?.data;
  return data && typeof data.id === 'string' ? data.id : undefined;
};

/** Applies one write command locally and queues it; the caller has validated the arguments. */
export function applyWrite(
  sqlite: Sqlite,
  command: WriteCommandName,
  parsed: WriteArgs,
  clock: WriteClock = {},
): WriteReceipt {
  const spec = WRITE_COMMANDS[command];
  const now = (clock.now?.() ?? new Date()).toISOString();
  return sqlite
    .transaction(() => {
      const args = translateIds(sqlite, parsed);
      const { recordId, template } = locate(sqlite, command, spec.type, spec.verb, args);
      const queued = enqueue(sqlite, { command, type: spec.type, recordId, args, now });
      if (command === 'course.create') writeLocalCourseParts(sqlite, recordId, args);
      refreshRecord(sqlite, spec.type, recordId, template);
      if (command === 'course.create') refreshRecord(sqlite, spec.type, recordId, template);
      return { type: spec.type, id: recordId, operation: queued.operation, state: queued.state };
      // IMMEDIATE: the write lock first, so folding into a queued operation cannot race a push.
    })
    .immediate();
}

/** Which record the write is about, and what must hold for it to make sense offline. */
function locate(
  sqlite: Sqlite,
  command: WriteCommandName,
  type: string,
  verb: string,
  args: WriteArgs,
): { recordId: string; template: Record<string, unknown> } {
  const resource = writableResource(type);
  if (verb === 'create') {
    const template: Record<string, unknown> = {};
    const parent = resource?.createdUnder;
    if (parent) {
      requireRow(sqlite, parent.type, args[parent.argument] ?? '');
      template[parent.column] = args[parent.argument];
    }
    if (command === 'helferstunden.create') checkHourRelations(sqlite, args);
    return { recordId: `local-${randomUUID()}`, template };
  }
  if (verb === 'upsert') return { recordId: locateUpsert(sqlite, args), template: {} };
  const id = args.id ?? '';
  const row = requireRow(sqlite, type, id);
  if (args.courseId !== undefined && row.course_id !== args.courseId) throw missing(type, id);
  if (args.userId !== undefined && row.user_id !== args.userId) throw missing(type, id);
  const refusal = resource?.refusesChange?.(row, id);
  if (refusal) throw notAllowed(refusal.de, refusal.en);
  if (command === 'helferstunden.update') checkHourRelations(sqlite, args);
  return { recordId: id, template: {} };
}

function checkHourRelations(sqlite: Sqlite, args: WriteArgs): void {
  const anlass = relatedId(args, 'anlass');
  if (anlass && isLocalId(anlass)) requireRow(sqlite, 'helferstunden_anlass', anlass);
  const typ = relatedId(args, 'typ');
  if (typ) {
    const known = prepared(sqlite, 'SELECT aktiv FROM helferstunden_typen WHERE id = ?').get(
      typ,
    ) as { aktiv: number | null } | undefined;
    if (known && known.aktiv === 0) {
      throw invalid(
        `Der Stundentyp ${typ} ist nicht aktiv; neue Einträge brauchen einen aktiven Typ.`,
        `Hour type ${typ} is not active; entries need an active type.`,
        'relationships.typ',
      );
    }
  }
  const user = relatedId(args, 'user');
  if (user && isLocalId(user)) requireRow(sqlite, 'user', user);
}

/** PUT by user_id or mitgliednr: the record it names, or a new one (which needs both names). */
function locateUpsert(sqlite: Sqlite, args: WriteArgs): string {
  const value = args.identifierValue ?? '';
  const existing =
    args.identifierName === 'user_id'
      ? liveRow(sqlite, 'user', value)
      : (prepared(
          sqlite,
          "SELECT * FROM users WHERE mitgliednr = ? AND local_state IS NOT 'deleted'",
        ).get(value) as Record<string, unknown> | undefined);
  if (existing) return String(existing.id);
  const attributes = args.attributes ?? {};
  for (const name of ['vorname', 'nachname']) {
    if (typeof attributes[name] !== 'string' || attributes[name] === '') {
      throw invalid(
        `Keine Person mit ${args.identifierName} ${value} in der lokalen Kopie: zum Anlegen sind vorname und nachname nötig.`,
        `No person with ${args.identifierName} ${value} in the replica: creating one needs vorname and nachname.`,
        `attributes.${name}`,
      );
    }
  }
  return args.identifierName === 'user_id' ? value : `local-${randomUUID()}`;
}

/** A course created offline: its dates and trainers as rows, so lists show and sort it. */
function writeLocalCourseParts(sqlite: Sqlite, courseId: string, args: WriteArgs): void {
  refreshRecord(sqlite, 'course', courseId);
  for (const item of args.included ?? []) {
    if (item.type !== 'course_date') continue;
    const attributes = item.attributes ?? {};
    upsertRow(sqlite, 'course_dates', ['id'], {
      id: `${courseId}/${item.id}`,
      course_id: courseId,
      date_from: typeof attributes.from === 'string' ? attributes.from : null,
      date_to: typeof attributes.to === 'string' ? attributes.to : null,
      base: EMPTY_BASE,
      synced_at: '',
    });
  }
  const trainers = (args.relationships?.trainers as { data?: { id: string }[] } | undefined)?.data;
  for (const trainer of trainers ?? []) {
    upsertRow(sqlite, 'course_trainers', ['course_id', 'user_id'], {
      course_id: courseId,
      user_id: trainer.id,
    });
  }
}
