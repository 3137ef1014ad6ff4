// `vorort queue`: the outbox of local writes, what is not done yet, and its conflicts; retry or
// discard an operation. The same outbox commands as the UI's, through the dispatcher.
import type { Command } from 'commander';
import type { ConflictEntry, OutboxEntry } from '../contract';
import { openReplica } from '../db/open';
import { createDispatcher } from '../dispatch';
import { EXIT, CliInputError, describeFailure, exitCodeFor } from './exit-codes';

interface QueueOptions {
  db: string;
  json?: boolean;
}

export function registerQueueCommand(program: Command): void {
  program
    .command('queue')
    .description('Show the outbox (writes not yet accepted by the service), retry or discard one')
    .requiredOption('--db <file>', 'the replica (SQLite file)')
    .argument('[action]', 'list (default), retry, discard or conflicts', 'list')
    .argument('[id]', 'the operation (retry, discard)')
    .option('--json', 'one JSON value')
    .addHelpText(
      'after',
      `
list       the operations not yet done: id, command, state, attempts, error
           (states: pending, in_flight, retrying, parked, unknown)
retry ID   send a parked or retrying operation again at the next sync
discard ID drop an operation; the record shows the service's version again
conflicts  fields changed here and on the service (vorort call conflicts.resolve)

Exit codes: 0 shown or done; 2 bad arguments, no such operation, or --db not a replica.`,
    )
    .action(async (action: string, id: string | undefined, options: QueueOptions) => {
      process.exitCode = await queueCommand(action, id, options);
    });
}

async function queueCommand(action: string, id: string | undefined, options: QueueOptions) {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const call = callFor(action, id);
    const replica = openReplica(options.db, { mode: 'existing' });
    try {
      const outcome = await createDispatcher(replica).call(call.name, call.args);
      if (!outcome.ok) {
        process.stderr.write(`vorort queue: ${outcome.error.message.en}\n`);
        return EXIT.badInput;
      }
      if (options.json) print(JSON.stringify(jsonOf(action, outcome.value)));
      else for (const line of linesOf(action, outcome.value)) print(line);
      return EXIT.ok;
    } finally {
      await replica.close();
    }
  } catch (error) {
    process.stderr.write(`vorort queue: ${describeFailure(error)}\n`);
    return exitCodeFor(error);
  }
}

function callFor(action: string, id: string | undefined): { name: string; args: unknown } {
  if (action === 'list') return { name: 'outbox.list', args: {} };
  if (action === 'conflicts') return { name: 'conflicts.list', args: {} };
  if (action === 'retry' || action === 'discard') {
    if (!id || !/^\d+$/.test(id))
      throw new CliInputError(
        `queue ${action} needs the operation's id (a number, see queue list)`,
      );
    return { name: `outbox.${action}`, args: { id: Number(id) } };
  }
  throw new CliInputError(`unknown queue action "${action}": list, retry, discard or conflicts`);
}

function jsonOf(action: string, value: unknown): unknown {
  if (action !== 'list') return value;
  return (value as OutboxEntry[]).map((entry) => ({
    id: entry.id,
    command: entry.command,
    state: entry.state,
    attempts: entry.attempts,
    error: entry.error?.message.en ?? null,
    recordId: entry.recordId,
    waitingFor: entry.waitingFor,
    nextAttemptAt: entry.nextAttemptAt,
  }));
}

function linesOf(action: string, value: unknown): string[] {
  if (action === 'list') {
    const entries = value as OutboxEntry[];
    if (entries.length === 0) return ['The outbox is empty: everything is with the service.'];
    return entries.map((entry) => {
      const waiting = entry.waitingFor ? `, waits for ${entry.waitingFor}` : '';
      const error = entry.error ? `: ${entry.error.message.en}` : '';
      return `${String(entry.id).padStart(5)}  ${entry.command.padEnd(28)} ${entry.recordId}  ${entry.state} (attempts ${entry.attempts}${waiting})${error}`;
    });
  }
  if (action === 'conflicts') {
    const conflicts = value as ConflictEntry[];
    if (conflicts.length === 0) return ['No conflicts.'];
    return conflicts.map((c) =>
      c.kind === 'deleted'
        ? `${String(c.id).padStart(5)}  ${c.recordType} ${c.recordId}: deleted on the service, changed here`
        : `${String(c.id).padStart(5)}  ${c.recordType} ${c.recordId} ${c.field}: mine ${JSON.stringify(c.mine)}, theirs ${JSON.stringify(c.theirs)} (base ${JSON.stringify(c.base)})`,
    );
  }
  return [action === 'discard' ? 'Discarded.' : 'Queued to be sent again at the next sync.'];
}
