// One dispatcher for every transport (Electron IPC, the WebSocket of browser mode, the CLI): a
// name, arguments validated by the contract's schema, then the handler; the answer is a value,
// `{ ok: true, value }` or `{ ok: false, error }` with a code and words in German and English,
// never a stack trace. As Actual Budget merges its handler sets into one `app`, the query and
// command handlers are merged here into one typed table; the host calls are served by the
// handlers the caller gives (the app session all of them, `vorort call` those that need only the
// replica), and refused in words where none is given.
import type { z } from 'zod';
import {
  commands,
  hostCalls,
  isHostCallName,
  isWriteCall,
  isWriteCommand,
  queries,
  type CommandName,
  type CommandResults,
  type CoreError,
  type HostCallName,
  type HostCallResults,
  type ParsedCommandArgs,
  type ParsedHostCallArgs,
  type QueryName,
  type QueryResults,
  type WriteCallName,
  type WriteReceipt,
} from '../contract';
import { CoreFailure, refusedArguments, toCoreError } from '../core-error';
import type { Replica } from '../db/open';
import { tableChangesOf } from '../db/table-changes';
import { commandHandlers } from '../outbox/handlers';
import type { Refresher } from '../pull/refresh';
import { queryHandlers } from '../queries';
import { writtenRecord } from '../queries/written';

export type CallName = QueryName | CommandName;
export type CallResults = QueryResults & CommandResults;
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: CoreError };

export interface Dispatcher {
  call<N extends CallName>(name: N, args: unknown): Promise<Outcome<CallResults[N]>>;
  call(name: string, args: unknown): Promise<Outcome<unknown>>;
}

export interface DispatcherOptions {
  /** The clock of local writes (tests). */
  now?: () => Date;
  /**
   * After every command that changed the replica or the outbox (the session wakes the
   * scheduler, rule 12), with the tables it changed (and any other change of this connection not yet told).
   */
  onCommand?: (name: WriteCallName, tables: string[]) => void;
  /** sync.refresh: fetches from the service (sync/pull/refresh); without it the command answers offline. */
  refresher?: Refresher;
  /** The host calls served here; one not given is refused (not_allowed) in words. */
  host?: HostHandlers;
}

/** Handlers of host calls, each answering its contract's result. */
export type HostHandlers = {
  [N in HostCallName]?: (args: ParsedHostCallArgs<N>) => Promise<HostCallResults[N]>;
};

/** Every name the contract knows, with its schema. */
export const SCHEMAS: Readonly<Record<CallName, z.ZodType>> = { ...queries, ...commands };

export function isCallName(name: string): name is CallName {
  return Object.hasOwn(SCHEMAS, name);
}

export function createDispatcher(replica: Replica, options: DispatcherOptions = {}): Dispatcher {
  const handlers: Record<string, (args: never) => unknown> = {
    ...queryHandlers(replica, options.now),
    ...commandHandlers(replica, options),
    'sync.refresh': (args: ParsedCommandArgs<'sync.refresh'>) => {
      if (!options.refresher)
        throw new CoreFailure('offline', {
          de: 'Keine Verbindung zum Dienst eingerichtet: es gilt der Stand der letzten Synchronisierung.',
          en: 'No connection to the service is set up: the data is as of the last sync.',
        });
      return options.refresher(args);
    },
  };
  return {
    async call(name: string, args: unknown): Promise<Outcome<unknown>> {
      if (isHostCallName(name)) return callHost(name, args);
      if (!isCallName(name)) {
        return failure({
          code: 'unknown_name',
          message: {
            de: `Unbekannter Aufruf „${name}“ (vorort call --help listet alle).`,
            en: `Unknown call "${name}" (vorort call --help lists them all).`,
          },
        });
      }
      return run(name, SCHEMAS[name], args, async (parsed) => {
        const handler = handlers[name] as (a: unknown) => unknown;
        let value = await handler(parsed);
        // A record write answers the record too, as the screen's read gives it (its local truth).
        if (isWriteCommand(name)) value = await withRecord(replica, value as WriteReceipt);
        // The contract declares which calls write (CALL_KINDS): after one, the session wakes the sync.
        if (isWriteCall(name))
          options.onCommand?.(name, tableChangesOf(replica.sqlite)?.take() ?? []);
        return value;
      });
    },
  } as Dispatcher;

  function callHost(name: HostCallName, args: unknown): Promise<Outcome<unknown>> {
    const handler = options.host?.[name] as ((a: unknown) => Promise<unknown>) | undefined;
    if (!handler)
      return Promise.resolve(
        failure({
          code: 'not_allowed',
          message: {
            de: `„${name}“ gehört zur App (ihr Konto, ihre Anmeldung, ihr Fenster): hier nicht verfügbar (vorort call --help nennt, was es hier gibt).`,
            en: `"${name}" belongs to the app (its account, sign-in or window): not available here (vorort call --help says what is).`,
          },
        }),
      );
    return run(name, hostCalls[name], args, handler);
  }
}

/** Validates the arguments, runs the handler; every failure an answer, never a throw. */
async function run(
  name: string,
  schema: z.ZodType,
  args: unknown,
  handler: (parsed: unknown) => Promise<unknown>,
): Promise<Outcome<unknown>> {
  try {
    // Inside the try: a schema's own refinement that throws on odd input is an answer too.
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success)
      return failure(toCoreError(refusedArguments(name, schema, args ?? {}, parsed.error)));
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    if (error instanceof CoreFailure) return failure(toCoreError(error));
    const text = error instanceof Error ? error.message : String(error);
    return failure({
      code: 'internal',
      message: { de: `Interner Fehler: ${text}`, en: `Internal error: ${text}` },
    });
  }
}

async function withRecord(replica: Replica, receipt: WriteReceipt) {
  const record = await writtenRecord(replica.db, replica.sqlite, receipt.type, receipt.id);
  return { ...receipt, record };
}

const failure = (error: CoreError): { ok: false; error: CoreError } => ({ ok: false, error });

/** For typed callers in one process (tests, benches): the value, or a thrown CallFailed. */
export class CallFailed extends Error {
  override name = 'CallFailed';
  constructor(readonly error: CoreError) {
    super(error.message.en);
  }
}

export async function callOrThrow<N extends CallName>(
  dispatcher: Dispatcher,
  name: N,
  args: unknown,
): Promise<CallResults[N]> {
  const outcome = await dispatcher.call(name, args);
  if (!outcome.ok) throw new CallFailed(outcome.error);
  return outcome.value;
}

export type CallArgs<N extends CallName> = z.input<(typeof SCHEMAS)[N]>;

/** Typed calls that throw CallFailed: for one process that knows its names (tests, benches). */
export interface TypedCaller {
  query<N extends CallName>(name: N, args: CallArgs<N>): Promise<CallResults[N]>;
}

export function typedCaller(dispatcher: Dispatcher): TypedCaller {
  return { query: (name, args) => callOrThrow(dispatcher, name, args) };
}
