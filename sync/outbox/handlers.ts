// The contract's commands, handled: the record writes go through applyWrite (one transaction
// each) and answer their receipt (the dispatcher adds the record as the screens read it), the
// outbox's own commands through the queue's functions.
import {
  WRITE_COMMANDS,
  type CommandName,
  type CommandResults,
  type ParsedCommandArgs,
  type WriteCommandName,
  type WriteReceipt,
} from '../contract';
import type { Replica } from '../db/open';
import { listConflicts, resolveConflict } from './conflicts';
import type { WriteArgs } from './operations';
import { discardOperation, editOperation, listOutbox, retryOperation } from './queue-commands';
import { applyWrite, type WriteClock } from './write';

/** The commands that change the replica or the outbox (sync.refresh needs the service: sync/pull/refresh). */
export type LocalCommandName = Exclude<CommandName, 'sync.refresh'>;

type CommandHandlers = {
  [N in LocalCommandName]: (
    args: ParsedCommandArgs<N>,
  ) => N extends WriteCommandName ? WriteReceipt : CommandResults[N];
};

export function commandHandlers(replica: Replica, clock: WriteClock = {}): CommandHandlers {
  const { sqlite } = replica;
  const now = () => (clock.now?.() ?? new Date()).toISOString();
  const writes = {} as Record<WriteCommandName, (args: WriteArgs) => WriteReceipt>;
  for (const name of Object.keys(WRITE_COMMANDS) as WriteCommandName[]) {
    writes[name] = (args) => applyWrite(sqlite, name, args, clock);
  }
  return {
    ...(writes as unknown as Pick<CommandHandlers, WriteCommandName>),
    'outbox.list': (args) => listOutbox(sqlite, args.states),
    'outbox.retry': (args) => retryOperation(sqlite, args.id, now()),
    'outbox.edit': (args) => editOperation(sqlite, args.id, args.arguments, now()),
    'outbox.discard': (args) => discardOperation(sqlite, args.id),
    'conflicts.list': () => listConflicts(sqlite),
    'conflicts.resolve': (args) => resolveConflict(sqlite, args.id, args.take, now()),
  };
}
