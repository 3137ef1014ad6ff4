// `vorort call`: any query or command of the contract, and the host calls that need the replica
// alone (sync/host/replica-calls.ts), through the same dispatcher that IPC and browser mode use,
// its answer printed as JSON. Works offline: writes are queued for `vorort sync`.
import { z } from 'zod';
import type { Command } from 'commander';
import { hostCalls, type HostCallName } from '../contract';
import { openReplica } from '../db/open';
import { createDispatcher, SCHEMAS, type Dispatcher } from '../dispatch';
import { REPLICA_HOST_CALLS, replicaHostCalls } from '../host/replica-calls';
import { CliInputError, EXIT, describeFailure, exitCodeFor } from './exit-codes';
import { processInputs } from './sync-setup';

export function registerCallCommand(program: Command): void {
  program
    .command('call')
    .description(
      'Run one query, command or host call of the contract on the replica and print its answer as JSON',
    )
    .requiredOption('--db <file>', 'the replica (SQLite file)')
    .argument('<name>', 'a query or command, e.g. personnel.list or helferstunden.create')
    .argument(
      '[arguments]',
      "its arguments as one JSON object, or - to read them from standard input (for a secret, e.g. feed.set's url: on the command line every user of this computer sees it through ps)",
      '{}',
    )
    .addHelpText('after', () => `\n${namesHelp()}\n\n${CALL_EXIT_HELP}`)
    .action(async (name: string, text: string, options: { db: string }) => {
      process.exitCode = await callCommand(name, text, options.db);
    });
}

const CALL_EXIT_HELP = `Exit codes: 0 answered (the answer on stdout as JSON); 2 unknown name, bad
arguments (the validation message on stderr, the error as JSON on stdout), a record
that is not in the replica, a call of the app, or --db not a replica; 1 an internal error.
Writes work offline: they are applied to the replica at once and queued; \`vorort sync\`
sends them (\`vorort queue\` shows the queue). A write answers its receipt and the
record as the replica now holds it ("record", as the screens' reads give it).
export.create answers the file as base64 (\`vorort export\` writes files); feed.set
stores the address, the next \`vorort sync\` fetches it.`;

/** The app's own calls, left out here: they need its user data folder, sign-in, scheduler or window. */
const APP_ONLY: readonly HostCallName[] = (Object.keys(hostCalls) as HostCallName[]).filter(
  (name) => !(REPLICA_HOST_CALLS as readonly string[]).includes(name),
);

/** Every name with its arguments (required ones without "?"), from the contract's schemas. */
function namesHelp(): string {
  const lines = ['Names and their arguments:'];
  const served = [
    ...Object.entries(SCHEMAS),
    ...REPLICA_HOST_CALLS.map((name) => [name, hostCalls[name]] as const),
  ];
  for (const [name, schema] of served) {
    lines.push(`  ${name.padEnd(28)} ${describeArguments(schema)}`);
  }
  lines.push(
    '',
    "Not here (the desktop app's or browser mode's own: its user data folder, sign-in,",
    'scheduler or window; `vorort sync` and `vorort status` do their part):',
    ...wrapped(APP_ONLY.join(', '), 86).map((line) => `  ${line}`),
  );
  return lines.join('\n');
}

function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

function describeArguments(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as {
    properties?: Record<string, unknown>;
    required?: string[];
    oneOf?: { properties?: Record<string, { const?: unknown }> }[];
  };
  if (json.oneOf) {
    return json.oneOf
      .map((variant) => `{ ${Object.keys(variant.properties ?? {}).join(', ')} }`)
      .join(' | ');
  }
  const names = Object.keys(json.properties ?? {});
  if (names.length === 0) return '{}';
  const required = new Set(json.required ?? []);
  return `{ ${names.map((n) => (required.has(n) ? n : `${n}?`)).join(', ')} }`;
}

async function callCommand(name: string, given: string, db: string): Promise<number> {
  let args: unknown;
  try {
    const text = given === '-' ? processInputs.stdin() : given;
    args = JSON.parse(text);
  } catch (error) {
    if (error instanceof CliInputError) {
      process.stderr.write(`vorort call: ${error.message}\n`);
      return EXIT.badInput;
    }
    process.stderr.write(
      `vorort call: the arguments are not JSON (${(error as Error).message}); give one object, e.g. '{"id":"17"}'\n`,
    );
    return EXIT.badInput;
  }
  let dispatcher: Dispatcher;
  let close: () => Promise<void>;
  try {
    const replica = openReplica(db, { mode: 'existing' });
    dispatcher = createDispatcher(replica, { host: await replicaHostCalls(replica) });
    close = () => replica.close();
  } catch (error) {
    process.stderr.write(`vorort call: ${describeFailure(error)}\n`);
    return exitCodeFor(error);
  }
  try {
    const outcome = await dispatcher.call(name, args);
    process.stdout.write(
      `${JSON.stringify(outcome.ok ? outcome.value : { error: outcome.error }, null, 2)}\n`,
    );
    if (outcome.ok) return EXIT.ok;
    process.stderr.write(`vorort call: ${outcome.error.message.en}\n`);
    return outcome.error.code === 'internal' ? EXIT.partial : EXIT.badInput;
  } finally {
    await close();
  }
}
