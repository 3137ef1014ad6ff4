// The contract's commands: every write the UI may send (one per write operation of the service,
// named `<resource type>.<verb>`) and the outbox's own, each with a zod schema for its
// arguments, plus the types of their results and errors. A write's arguments are JSON:API-style
// (`attributes`, `relationships`, `included`) and hold the service's input rules (the seed and
// sandbox/RESOURCES.md), so a command the schema accepts is one the service should accept too:
// a mistake is refused at once, on screen, instead of parking in the outbox hours later.
// Each area's file (personnel.ts, calendars.ts, hours.ts, notifications.ts, courses.ts,
// participations.ts, customfields.ts, outbox.ts) declares its commands and where their writes
// go (resource, method, path), built with schema-kit.ts; this file merges them, in that order,
// into `commands` and WRITE_COMMANDS.
// Imports zod and the contract only: the renderer (a browser) imports this file through
// sync/contract.ts.
import type { z } from 'zod';
import * as calendars from './calendars';
import * as courses from './courses';
import * as customfields from './customfields';
import * as hours from './hours';
import * as notifications from './notifications';
import * as outbox from './outbox';
import type { ConflictEntry, OutboxEntry, RefreshResult, WriteAnswer } from './outbox';
import * as participations from './participations';
import * as personnel from './personnel';
import type { WriteResourceType, WriteSpec } from './schema-kit';

export { isDate, isDateTime, isLocalId, isNewId, type WriteResourceType } from './schema-kit';
export { qualificationEdit, USER_RIGHTS } from './personnel';
export { ANLASS_TYPES } from './hours';
export { PARTICIPATION_STATUSES } from './participations';
export { FIELD_TYPES } from './customfields';
export {
  OUTBOX_STATES,
  type ConflictEntry,
  type OutboxEntry,
  type OutboxState,
  type OutboxSubject,
  type RefreshResult,
  type WriteAnswer,
  type WriteReceipt,
} from './outbox';

// ---------------------------------------------------------------------------------------------
// The commands, in the order of the areas

export const commands = {
  ...personnel.commands,
  ...calendars.commands,
  ...hours.commands,
  ...notifications.commands,
  ...courses.commands,
  ...participations.commands,
  ...customfields.commands,
  ...outbox.commands,
} as const;

export type CommandName = keyof typeof commands;
export type CommandArgs<N extends CommandName> = z.input<(typeof commands)[N]>;
export type ParsedCommandArgs<N extends CommandName> = z.output<(typeof commands)[N]>;
/** The 20 record writes; the rest are the outbox's own commands. */
export type WriteCommandName = Exclude<
  CommandName,
  `outbox.${string}` | `conflicts.${string}` | `sync.${string}`
>;

export function isWriteCommand(name: string): name is WriteCommandName {
  return Object.hasOwn(WRITE_COMMANDS, name);
}

// ---------------------------------------------------------------------------------------------
// Where each write goes: resource type, method and path, declared by each area

export type WriteCommandSpec<N extends WriteCommandName> = WriteSpec<ParsedCommandArgs<N>>;

/**
 * The tables a write of a record of each type changes, declared by the areas: the writable
 * resource types are its keys (WriteResourceType).
 */
export const RECORD_TABLES = {
  ...personnel.recordTables,
  ...calendars.recordTables,
  ...hours.recordTables,
  ...notifications.recordTables,
  ...courses.recordTables,
  ...participations.recordTables,
  ...customfields.recordTables,
} as const;

export const WRITE_COMMANDS: { readonly [N in WriteCommandName]: WriteCommandSpec<N> } = {
  ...personnel.writes,
  ...calendars.writes,
  ...hours.writes,
  ...notifications.writes,
  ...courses.writes,
  ...participations.writes,
  ...customfields.writes,
};

// ---------------------------------------------------------------------------------------------
// Results and errors

/**
 * A written record as the screen's read gives it (each area declares its types': a person as
 * personnel.get, a calendar as a calendars.list item, a course as courses.get, ...).
 */
export interface WrittenRecords
  extends
    personnel.Written,
    calendars.Written,
    hours.Written,
    notifications.Written,
    courses.Written,
    participations.Written,
    customfields.Written {}

/** The resource type a write command changes, from its name (`<resource type>.<verb>`). */
export type WrittenType<N extends WriteCommandName> = N extends `${infer T}.${string}`
  ? T extends WriteResourceType
    ? T
    : never
  : never;

/** What each record write answers: its receipt and its record as the screen's read gives it. */
export type WriteAnswers = { [N in WriteCommandName]: WriteAnswer<WrittenRecords[WrittenType<N>]> };

/**
 * Results per command. A record write answers its receipt and the record (WriteAnswer).
 * outbox.retry and outbox.edit answer the entry as it is afterwards (so a
 * screen can show its new state); outbox.discard answers only the id, as the entry is gone.
 */
export interface CommandResults extends WriteAnswers {
  'outbox.list': OutboxEntry[];
  'outbox.retry': OutboxEntry;
  'outbox.edit': OutboxEntry;
  'outbox.discard': { id: number; state: 'discarded' };
  'conflicts.list': ConflictEntry[];
  'conflicts.resolve': { id: number; resolved: true; sent: boolean };
  'sync.refresh': RefreshResult;
}

export const CORE_ERROR_CODES = [
  'invalid_arguments',
  'unknown_name',
  'not_found',
  'not_allowed',
  /** The service could not be reached (or no connection is set up): try again when online. */
  'offline',
  /** The service answered with an error; its words are in the message. */
  'service_error',
  'internal',
  /** The login did not succeed (the service refused it, or its answer was wrong); words say why. */
  'login_failed',
  /** The person cancelled (closed the login, or it timed out). */
  'cancelled',
  /** The call needs a signed-in account. */
  'not_signed_in',
] as const;
export type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/** A failed call as a value (never a stack trace): a code and a message in both languages. */
export interface CoreError {
  code: CoreErrorCode;
  message: { de: string; en: string };
  /** For invalid_arguments: each refused member, path dotted (`attributes.vorname`). */
  issues?: { path: string; message: string }[];
}
