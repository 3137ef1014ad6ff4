// The screens' way to the data: queries that read again when a table they read changes (the
// contract's CALL_READS against data.changed's tables), whose answers asked together are laid in
// together (one render), and commands checked with the contract's own schemas before they are
// sent, so a mistake shows next to its field and nothing is queued.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import {
  CALL_READS,
  commands,
  type CallArgs,
  type CallResults,
  type CommandArgs,
  type CommandName,
  type CommandResults,
  type CoreError,
  type ReadCallName,
} from './contract';
import { currentLanguage } from './i18n';
import { asCoreError, useApp, useTablesVersion } from './stores';

export interface QueryState<T, A = unknown> {
  /** The last answer (kept while the next one loads, so lists never flash empty). */
  data: T | undefined;
  /** The arguments `data` answers (the last ones asked for may not have come yet). */
  shownArgs: A | undefined;
  error: CoreError | null;
  loading: boolean;
  reload(): void;
  /**
   * Shows a change of the answer at once (a write's answered record laid into it) until the read
   * answers again, as it does when the core says the tables changed.
   */
  update(change: (data: T) => T): void;
}

/**
 * Runs a read of the contract and again whenever its arguments change or a table it reads does.
 * `enabled: false` holds it (a detail without an id).
 */
export function useQuery<N extends ReadCallName>(
  name: N,
  args: CallArgs<N>,
  options: { enabled?: boolean } = {},
): QueryState<CallResults[N], CallArgs<N>> {
  const bridge = useApp((store) => store.bridge);
  const tablesVersion = useTablesVersion(CALL_READS[name]);
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<
    Omit<QueryState<CallResults[N], CallArgs<N>>, 'reload' | 'update'>
  >({ data: undefined, shownArgs: undefined, error: null, loading: true });
  const key = JSON.stringify(args);
  const latest = useRef(0);
  const enabled = options.enabled ?? true;
  useEffect(() => {
    if (!bridge || !enabled) return;
    const run = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    const asked = JSON.parse(key) as CallArgs<N>;
    readTogether(bridge.call(name, asked)).then(
      (data) => {
        if (run === latest.current)
          setState({ data, shownArgs: asked, error: null, loading: false });
      },
      (error: unknown) => {
        if (run === latest.current)
          setState((previous) => ({ ...previous, error: asCoreError(error), loading: false }));
      },
    );
  }, [bridge, name, key, tablesVersion, tick, enabled]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const update = useCallback(
    (change: (data: CallResults[N]) => CallResults[N]) =>
      setState((previous) =>
        previous.data === undefined ? previous : { ...previous, data: change(previous.data) },
      ),
    [],
  );
  return { ...state, reload, update };
}

/** How long an answer waits at most for the others asked with it. */
export const TOGETHER_MS = 50;

interface Wave {
  pending: number;
  held: (() => void)[];
  timer: ReturnType<typeof setTimeout> | null;
}

let asking: Wave | null = null;

function release(wave: Wave): void {
  if (wave.timer !== null) clearTimeout(wave.timer);
  wave.timer = null;
  for (const settle of wave.held.splice(0)) settle();
}

/**
 * Reads asked in the same task (a view's list and its totals, after one filter change) answer
 * together: each answer waits for the others (up to TOGETHER_MS), then all settle in one task, so
 * the screen renders, lays out and paints once instead of once per answer.
 */
export function readTogether<T>(answer: Promise<T>): Promise<T> {
  if (!asking) {
    const wave: Wave = { pending: 0, held: [], timer: null };
    asking = wave;
    queueMicrotask(() => {
      if (asking === wave) asking = null;
    });
  }
  const wave = asking;
  wave.pending += 1;
  return new Promise<T>((resolve, reject) => {
    const hold = (settle: () => void) => {
      wave.pending -= 1;
      wave.held.push(settle);
      if (wave.pending === 0) release(wave);
      else wave.timer ??= setTimeout(() => release(wave), TOGETHER_MS);
    };
    answer.then(
      (value) => hold(() => resolve(value)),
      (error: unknown) => hold(() => reject(error)),
    );
  });
}

/** A refused field: its dotted path (`attributes.first_name`) and the words in the language in use. */
export type FieldErrors = Record<string, string>;

const germanIssues = z.locales.de().localeError;

/**
 * The contract's verdict on a command's arguments, before anything is sent: null when valid,
 * else the words per field (German from the schema's own `params.de` or zod's German locale).
 */
export function checkCommand<N extends CommandName>(
  name: N,
  args: CommandArgs<N>,
): FieldErrors | null {
  const schema = commands[name] as z.ZodType;
  const german = currentLanguage() === 'de';
  const result = schema.safeParse(args, german ? { error: germanIssues } : undefined);
  if (result.success) return null;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const words = german
      ? ((issue as { params?: { de?: string } }).params?.de ?? issue.message)
      : issue.message;
    errors[path] ??= words;
  }
  return errors;
}

export type SendResult<N extends CommandName> =
  { ok: true; value: CommandResults[N] } | { ok: false; error: CoreError; fields: FieldErrors };

/**
 * Checks a command with the contract, then sends it. Never throws: a refusal comes back with
 * the words per field (the core's own issues when it refused), so a form keeps what was typed.
 */
export async function sendCommand<N extends CommandName>(
  name: N,
  args: CommandArgs<N>,
): Promise<SendResult<N>> {
  const fields = checkCommand(name, args);
  if (fields) {
    const words = Object.values(fields).join('; ');
    return {
      ok: false,
      fields,
      error: { code: 'invalid_arguments', message: { de: words, en: words } },
    };
  }
  const bridge = useApp.getState().bridge;
  if (!bridge)
    return {
      ok: false,
      fields: {},
      error: {
        code: 'offline',
        message: { de: 'Keine Verbindung zur App.', en: 'No connection to the app.' },
      },
    };
  try {
    return { ok: true, value: (await bridge.call(name, args as CallArgs<N>)) as CommandResults[N] };
  } catch (error) {
    const core = asCoreError(error);
    const refused: FieldErrors = {};
    for (const issue of core.issues ?? []) refused[issue.path] ??= issue.message;
    return { ok: false, error: core, fields: refused };
  }
}

/** A read that answers a page of a long list: its items, how many there are, and what else. */
type PagedCallName = {
  [N in ReadCallName]: CallResults[N] extends { items: unknown[]; total: number } ? N : never;
}[ReadCallName];
type ItemOf<N extends PagedCallName> = CallResults[N] extends { items: (infer T)[] } ? T : never;

export interface WindowedState<N extends PagedCallName> {
  /** The item at an index, once its block came (undefined: a placeholder row). */
  itemAt(index: number): ItemOf<N> | undefined;
  /** The last answer's list-wide fields (total, counts); undefined before the first. */
  head: CallResults[N] | undefined;
  /** The arguments of the rows shown (the last ones asked for may not have come yet). */
  shownArgs: Omit<CallArgs<N>, 'limit' | 'offset'> | undefined;
  error: CoreError | null;
}

const BLOCK = 100;

/** The blocks a windowed list shows: of which arguments (`key` with the tables' version), its answer's list-wide fields. */
interface ShownBlocks<N extends PagedCallName> {
  key: string;
  blocks: ReadonlyMap<number, ItemOf<N>[]>;
  head: CallResults[N] | undefined;
  args: Omit<CallArgs<N>, 'limit' | 'offset'> | undefined;
  error: CoreError | null;
}

/**
 * Whether new arguments only narrow the old ones (a search typed further): the test an item of
 * the old answer must pass to be in the new one, or null when they do not only narrow.
 */
export type Narrowing<N extends PagedCallName> = (
  before: Omit<CallArgs<N>, 'limit' | 'offset'>,
  after: Omit<CallArgs<N>, 'limit' | 'offset'>,
) => ((item: ItemOf<N>) => boolean) | null;

/**
 * A long list read in blocks of 100 around what is in view (the 10,000th person without reading
 * the 9,999 before): `wanted` is the index range the list shows. New arguments, or a change of a
 * table the read reads, read the blocks in view again; the old rows stay until the first new
 * block came, so the list never flashes empty. With `narrowing`, arguments that only narrow an
 * answer the page holds whole show its rows that pass at once (a search typed further paints in
 * the key's own frame, not after a round trip to the core); the core's answer then replaces them.
 */
export function useWindowedQuery<N extends PagedCallName>(
  name: N,
  args: Omit<CallArgs<N>, 'limit' | 'offset'>,
  wanted: { from: number; to: number },
  narrowing?: Narrowing<N>,
): WindowedState<N> {
  const bridge = useApp((store) => store.bridge);
  const tablesVersion = useTablesVersion(CALL_READS[name]);
  const key = `${JSON.stringify(args)}|${tablesVersion}`;
  const [shown, setShown] = useState<ShownBlocks<N>>({
    key: '',
    blocks: new Map(),
    head: undefined,
    args: undefined,
    error: null,
  });
  const asked = useRef(new Set<string>());
  const current = useRef(key);
  current.current = key;
  const firstBlock = Math.floor(Math.max(0, wanted.from) / BLOCK);
  const lastBlock = Math.max(firstBlock, Math.floor(Math.max(0, wanted.to) / BLOCK));

  useEffect(() => {
    if (!bridge) return;
    // Before the first answer for these arguments only the first block in view (its answer says
    // how many there are), then the others in view that the list has.
    const total = (shown.head as { total: number } | undefined)?.total ?? 0;
    const last =
      shown.key === key ? Math.min(lastBlock, Math.floor((total - 1) / BLOCK)) : firstBlock;
    for (let block = firstBlock; block <= last; block += 1) {
      const ask = `${key}#${block}`;
      if (asked.current.has(ask) || (shown.key === key && shown.blocks.has(block))) continue;
      asked.current.add(ask);
      const pageArgs = { ...args, limit: BLOCK, offset: block * BLOCK } as unknown as CallArgs<N>;
      readTogether(bridge.call(name, pageArgs)).then(
        (answer) => {
          asked.current.delete(ask);
          if (current.current !== key) return;
          const items = (answer as unknown as { items: ItemOf<N>[] }).items;
          setShown((previous) => {
            const blocks = new Map(previous.key === key ? previous.blocks : []);
            blocks.set(block, items);
            return { key, blocks, head: answer, args, error: null };
          });
        },
        (error: unknown) => {
          asked.current.delete(ask);
          if (current.current === key)
            setShown((previous) => ({ ...previous, error: asCoreError(error) }));
        },
      );
    }
    // `args` is in `key`; `shown` changes with every block that comes (which may ask the next).
  }, [bridge, name, key, firstBlock, lastBlock, shown]);

  const narrowed = useMemo(
    () => (narrowing && shown.key !== key ? narrowedAnswer(shown, key, args, narrowing) : null),
    // `args` is in `key`.
    [shown, key, narrowing],
  );
  const { blocks, head, error, args: shownArgs } = narrowed ?? shown;
  const itemAt = useCallback(
    (index: number) => blocks.get(Math.floor(index / BLOCK))?.[index % BLOCK],
    [blocks],
  );
  return { itemAt, head, shownArgs, error };
}

/**
 * The rows of the answer shown that pass the narrowing to `args`, as an answer of `key`; null
 * when the answer is not held whole, is of other tables' versions, failed, or `args` do not only
 * narrow it.
 */
export function narrowedAnswer<N extends PagedCallName>(
  shown: ShownBlocks<N>,
  key: string,
  args: Omit<CallArgs<N>, 'limit' | 'offset'>,
  narrowing: Narrowing<N>,
): ShownBlocks<N> | null {
  const version = (of: string) => of.slice(of.lastIndexOf('|'));
  if (!shown.head || !shown.args || shown.error || version(shown.key) !== version(key)) return null;
  const keep = narrowing(shown.args, args);
  if (!keep) return null;
  const { total } = shown.head as { total: number };
  const held: ItemOf<N>[] = [];
  for (let block = 0; block * BLOCK < total; block += 1) {
    const items = shown.blocks.get(block);
    if (!items) return null;
    held.push(...items);
  }
  const kept = held.filter(keep);
  const blocks = new Map<number, ItemOf<N>[]>();
  for (let block = 0; block * BLOCK < kept.length; block += 1)
    blocks.set(block, kept.slice(block * BLOCK, (block + 1) * BLOCK));
  const head = { ...shown.head, total: kept.length, items: kept.slice(0, BLOCK) };
  return { key, blocks, head: head as CallResults[N], args, error: null };
}
