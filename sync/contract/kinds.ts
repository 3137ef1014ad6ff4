// What each call of the contract is. `read`: reads the replica and changes nothing (a screen may
// keep it live: CALL_READS names its tables). `write`: changes the replica or the outbox here,
// without the network (CALL_WRITES names its tables, from the areas' RECORD_TABLES; the session
// wakes the sync after it). `host`: the app session's own (the account and login, the service,
// the scheduler, settings, files and the window). ../contract.ts composes CALL_KINDS;
// sync/contract/kinds.test.ts keeps every name declared.
// Imports the contract only: the renderer imports this file through sync/contract.ts.
import { RECORD_TABLES, WRITE_COMMANDS, type CommandName, type WriteCommandName } from './commands';
import { hostCalls, type HostCallName } from './host';

export const CALL_KIND_NAMES = ['read', 'write', 'host'] as const;
export type CallKind = (typeof CALL_KIND_NAMES)[number];

/** Every write queues (or folds into) an operation and keeps its record's conflicts true. */
const QUEUE = ['outbox', 'conflicts'] as const;

/** An operation on any record (edited, discarded, a conflict resolved). */
const ANY_RECORD = [...new Set([...Object.values(RECORD_TABLES).flat(), ...QUEUE])].sort();

/** A value for each name of a table of the contract. */
function byName<N extends string, V>(names: Record<N, unknown>, value: (name: N) => V) {
  const keys = Object.keys(names) as N[];
  return Object.fromEntries(keys.map((name) => [name, value(name)])) as Record<N, V>;
}

const writeTables = byName(WRITE_COMMANDS, (name): readonly string[] =>
  [...RECORD_TABLES[WRITE_COMMANDS[name].type], ...QUEUE].sort(),
);

/** The tables each write may change (data.changed names those it did change). */
export const CALL_WRITES = {
  ...writeTables,
  'outbox.retry': ['outbox'],
  'outbox.edit': ANY_RECORD,
  'outbox.discard': ANY_RECORD,
  'conflicts.resolve': ANY_RECORD,
} as const satisfies Record<WriteCommandName, readonly string[]> &
  Record<'outbox.retry' | 'outbox.edit' | 'outbox.discard' | 'conflicts.resolve', unknown>;

export type WriteCallName = keyof typeof CALL_WRITES;

export const kindOf = <N extends string, K extends CallKind>(names: Record<N, unknown>, kind: K) =>
  byName(names, () => kind);

/** The kinds of the commands and the host calls (../contract adds the queries: all reads). */
export const COMMAND_AND_HOST_KINDS: Readonly<Record<CommandName | HostCallName, CallKind>> = {
  ...kindOf(WRITE_COMMANDS, 'write'),
  ...kindOf(hostCalls, 'host'),
  'outbox.list': 'read',
  'outbox.retry': 'write',
  'outbox.edit': 'write',
  'outbox.discard': 'write',
  'conflicts.list': 'read',
  'conflicts.resolve': 'write',
  // Fetches from the service (the session's connection), outside the local writes.
  'sync.refresh': 'host',
  // The feed's state as the replica holds it (the session serves it, as the other feed call).
  'feed.get': 'read',
};
