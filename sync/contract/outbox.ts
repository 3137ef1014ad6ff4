// The outbox's own commands (outbox.*: list, retry, edit, discard; conflicts.*: list, resolve)
// and the on-demand refresh (sync.refresh), with the outbox's states and the results the
// commands answer: a write's receipt, an outbox entry, a conflict, a refresh.
// Imports zod and the contract only: the renderer (a browser) imports it through sync/contract.ts.
import { z } from 'zod';
import { ids, rowId, type WriteResourceType } from './schema-kit';

// ---------------------------------------------------------------------------------------------
// The outbox

export const OUTBOX_STATES = [
  'pending',
  'in_flight',
  'retrying',
  'parked',
  'unknown',
  'done',
] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

// ---------------------------------------------------------------------------------------------
// The commands

export const commands = {
  /** The operations not yet done (or those in `states`), oldest first. */
  'outbox.list': z.strictObject({ states: z.array(z.enum(OUTBOX_STATES)).optional() }),
  /** Sends a parked (or retrying) operation again now. */
  'outbox.retry': z.strictObject({ id: rowId }),
  /**
   * Replaces a parked operation's arguments. They are checked here only as an object: the
   * handler validates them with `commands[entry.command]`, like a new command.
   */
  'outbox.edit': z.strictObject({ id: rowId, arguments: z.record(z.string(), z.unknown()) }),
  /** Drops an operation that was not sent and restores the record's base in the replica. */
  'outbox.discard': z.strictObject({ id: rowId }),
  'conflicts.list': z.strictObject({}),
  /** One conflict is one field of one record: keep mine (sent as a PATCH) or take theirs. */
  'conflicts.resolve': z.strictObject({ id: rowId, take: z.enum(['mine', 'theirs']) }),

  /**
   * Fetches one parent's per-parent collections now, ahead of the rotation and outside the
   * sync's budget (a screen that opens a course or a person): at most once a minute per item.
   */
  'sync.refresh': z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('course'), id: ids.service }),
    z.strictObject({ kind: z.literal('person'), id: ids.serviceUser }),
    z.strictObject({ kind: z.literal('client'), id: ids.service }),
  ]),
} as const;

// ---------------------------------------------------------------------------------------------
// Results: a write's receipt (and answer), the outbox's entries and conflicts, a refresh

/** What every record write answers, at once and without network. */
export interface WriteReceipt {
  type: WriteResourceType;
  /** `local-<uuid>` for a record created offline, else the record's id. */
  id: string;
  /** The outbox entry's id; null when coalescing left nothing to send. */
  operation: number | null;
  state: OutboxState | 'nothing to send';
}

/**
 * What a record write answers: its receipt and the record as the replica now holds it (its
 * local truth), in the shape the screen's read gives it, so a screen shows the result at once;
 * null when that read no longer shows the record (deleted here, or created and dropped again).
 */
export interface WriteAnswer<Record> extends WriteReceipt {
  record: Record | null;
}

export interface OutboxEntry {
  id: number;
  command: string;
  recordType: string;
  recordId: string;
  state: OutboxState;
  attempts: number;
  /** When a retrying entry is tried next (ISO 8601). */
  nextAttemptAt: string | null;
  /** The last failure: the service's status (null: no answer) and its error text. */
  error: { status: number | null; message: { de: string; en: string } } | null;
  createdAt: string;
  arguments: unknown;
  /** The record created offline this entry waits for (a `local-` id), if any. */
  waitingFor: string | null;
  /** Held back: its record has a conflict not yet resolved (DESIGN rule 2), sent once it is. */
  inConflict: boolean;
  /** What record the operation concerns, in words from the replica; null when unknown. */
  subject: OutboxSubject | null;
}

/**
 * The record an outbox operation concerns, so a screen can say it in words ("Teilnahme von Max
 * Muster abgesagt"). `label` names it: a participant's or a person's first and last name, a
 * course's title, a custom field's or a calendar's name, an occasion's description, a
 * notification's title; for hours entries their occasion's description.
 */
export interface OutboxSubject {
  kind: WriteResourceType;
  label: string | null;
  /** What it belongs to: the course's title (participations, custom fields), the person's name (trainings), the course number (courses). */
  context?: string | null;
  /** Hours entries and occasions: their day (YYYY-MM-DD, as the service means it). */
  day?: string | null;
  /** Hours entries: the hours. */
  hours?: number | null;
}

export interface ConflictEntry {
  id: number;
  recordType: string;
  recordId: string;
  field: string;
  /** changed: both sides changed the field; deleted: the service deleted the record. */
  kind: 'changed' | 'deleted';
  base: unknown;
  mine: unknown;
  theirs: unknown;
  detectedAt: string;
  /** The record in words, as an outbox entry's subject. */
  subject: OutboxSubject | null;
}

/**
 * An on-demand refresh. refreshed false: the item was confirmed less than a minute ago and was
 * not asked for again. gone: the service no longer has it (it is removed here too).
 */
export interface RefreshResult {
  kind: 'course' | 'person' | 'client';
  id: string;
  refreshed: boolean;
  gone: boolean;
  /** When the service last confirmed the item's collections (the screen's "as of"). */
  confirmedAt: string | null;
  requests: number;
}
