// `vorort sync`: one sync of a replica file against a service.
import { existsSync, unwatchFile, watchFile } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  ApiError,
  createApiClient,
  staticToken,
  type ApiClient,
  type Pace,
  type TokenSource,
  type WaitEvent,
} from '../api';
import { tokenFileSource } from '../auth/token-file';
import type { SchedulerState } from '../contract';
import { openReplica, ReplicaError, type Replica } from '../db/open';
import { acquireSyncLock, type SyncLock } from '../db/sync-lock';
import { CoreFailure } from '../core-error';
import { checkFeedUrl, setFeedUrl } from '../pull/feed';
import type { PushSummary } from '../outbox/replay';
import type { SyncSummary } from '../pull/engine';
import type { SyncProfile } from '../pull/options';
import { refusedPeople } from '../pull/profile';
import { replicaScheduler, syncOnce, type SyncOnceSummary } from '../scheduler';
import type { SyncRunOutcome, SyncScheduler } from '../scheduler/scheduler';
import { COURSE_MODULE_COLLECTIONS, collectionLabel } from './collections';
import { EXIT, EXIT_CODES_HELP, CliInputError, describeFailure, exitCodeFor } from './exit-codes';
import { PACE_OPTION_HELP, parseHttpUrl, parsePace, parsePositiveInt } from './parse';
import { restoreWords } from './status-command';
import { jsonLinesProgress, sayWaits, terminalProgress, type ProgressReporter } from './progress';

interface SyncCommandOptions {
  server: string;
  oauthUrl?: string;
  versionedPaths: string;
  token?: string;
  tokenFile?: string;
  pushOnly?: boolean;
  db: string;
  profile: string;
  full?: boolean;
  budget?: string;
  json?: boolean;
  requestsPerMinute?: string;
  pace?: string;
  maxInFlight: string;
  watch?: boolean;
  interval: string;
  feedUrl?: string;
}

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description(
      'Run one sync: send the outbox of local writes, then pull the service into the replica file',
    )
    .requiredOption(
      '--server <url>',
      'base URL of the service interface (may carry a path, e.g. https://api.hiorg-server.de/core/v1)',
    )
    .option(
      '--oauth-url <url>',
      'base URL of the OAuth server, where userinfo lives (default: <origin of --server>/oauth/v1)',
    )
    .option(
      '--versioned-paths <where>',
      'where /formulare/v1 lives: base (below --server, as the seed writes it) or origin (the host root)',
      'base',
    )
    .option('--token <token>', 'access token (Bearer)')
    .option(
      '--token-file <file>',
      'JSON with access_token, and refresh_token + client_id (+ oauth_url) to refresh on a 401; written back after a refresh',
    )
    .option('--push-only', 'send the outbox (local writes) and do not pull')
    .requiredOption('--db <file>', 'the replica (SQLite file; created when missing)')
    .option(
      '--profile <profile>',
      'office (everything the token may read) or trainer (own courses, own hours)',
      'office',
    )
    .option(
      '--full',
      'everything at once, outside the budget: every collection whole, every person and course (finds deletions at once)',
    )
    .option(
      '--budget <requests>',
      'requests one sync may send, the outbox first (default: 150, a service paced at 30 a minute synced every 5 minutes); the rest waits for the next sync',
    )
    .option('--pace <rate>', PACE_OPTION_HELP)
    .option('--requests-per-minute <n>', 'the same as --pace N (kept for scripts)')
    .option('--max-in-flight <n>', 'requests in flight at most', '4')
    .option(
      '--watch',
      'keep syncing until Ctrl+C: at once, every --interval, a few seconds after a local write; offline only a cheap check whether the service is back',
    )
    .option('--interval <minutes>', 'with --watch: minutes between syncs', '5')
    .option(
      '--feed-url <url>',
      'the private calendar feed (https://…/ical/v1/veranstaltungen/private-…/….ics): kept in the replica and fetched by every sync from now on; "none" forgets it. Its secret path is never printed',
    )
    .option(
      '--json',
      'progress and waits as JSON lines; the summary as one JSON object on the last line',
    )
    .addHelpText(
      'after',
      `
With --watch a line per finished sync ("synced: 57 requests, 3 records; next at
14:05") and per change of state in words (offline, login needed, service error,
clock); with --json a JSON line for each ({"type":"state","state":{...}},
{"type":"synced",...}, {"type":"failed",...}) besides the progress lines. Ctrl+C
stops it (exit 130), keeping what was synced.

One sync at a time per replica: a second one exits with 5 and names the first
(a lock file beside the replica, <db>.lock; a lock left by a process that is gone
is taken over). Ctrl+C or SIGTERM stops the sync; what was synced is kept and
the next sync completes it (a second signal stops at once).

${EXIT_CODES_HELP}`,
    )
    .action(async (options: SyncCommandOptions) => {
      process.exitCode = await syncCommand(options);
    });
}

/** The first SIGINT or SIGTERM cancels the sync; a second one ends the process at once. */
function cancelOnSignals(onSecond: () => void) {
  const abort = new AbortController();
  let received: NodeJS.Signals | undefined;
  let resolveFirst: (signal: NodeJS.Signals) => void = () => {};
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      onSecond();
      process.stderr.write(`vorort sync: ${signal} again, stopping at once\n`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled);
    }
    received = signal;
    abort.abort();
    resolveFirst(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: abort.signal,
    /** The first signal (`vorort sync --watch` waits for it). */
    first,
    received: () => received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function syncCommand(options: SyncCommandOptions): Promise<number> {
  if (options.watch) return watchCommand(options);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let lock: SyncLock | undefined;
  const signals = cancelOnSignals(() => lock?.release());
  let summary: SyncOnceSummary;
  try {
    const setup = checkedSetup(options);
    const feedUrl = feedUrlOption(options.feedUrl);
    const progress = options.json ? jsonLinesProgress(print) : terminalProgress(process.stderr);
    const api = apiOf(
      setup,
      sayWaits((event) => progress.waiting(event)),
    );
    // The lock before the file is opened: a second sync must not even upgrade its schema.
    lock = acquireSyncLock(options.db);
    let replica: Replica | undefined;
    try {
      replica = openReplica(options.db);
      if (feedUrl !== undefined) setFeedUrl(replica, feedUrl);
      summary = await syncOnce({
        api,
        replica,
        profile: setup.profile,
        full: options.full ?? false,
        pushOnly: options.pushOnly ?? false,
        options: budgetOption(options),
        onProgress: (event) => progress.update(event),
        signal: signals.signal,
      });
    } finally {
      progress.stop();
      await replica?.close();
    }
  } catch (error) {
    const stoppedBy = signals.received();
    const cancelled =
      (error instanceof ApiError && error.kind === 'cancelled') ||
      (stoppedBy !== undefined && error instanceof Error && error.name === 'AbortError');
    const code =
      cancelled && stoppedBy === 'SIGTERM'
        ? EXIT.terminated
        : cancelled
          ? EXIT.cancelled
          : exitCodeFor(error);
    const message = cancelled
      ? `cancelled (${stoppedBy === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C'}). What was synced so far is kept; the next sync completes it.`
      : describeFailure(error);
    if (options.json) print(JSON.stringify({ ok: false, error: message, exitCode: code }));
    else process.stderr.write(`vorort sync: ${message}\n`);
    return code;
  } finally {
    lock?.release();
    signals.dispose();
  }
  // The office profile without the staff: a trainer's token, said with the option that fits it.
  const hint = refusedPeople(summary) ? TRAINER_HINT : undefined;
  if (options.json) print(JSON.stringify(hint ? { ...summary, hint } : summary));
  else {
    printSummary(summary, print);
    if (hint) process.stderr.write(`vorort sync: ${hint}\n`);
  }
  return summary.ok && !hint ? EXIT.ok : EXIT.partial;
}

const TRAINER_HINT =
  'this account may not read the staff, as a trainer’s: sync with --profile trainer (the own courses with their participants, the own hours).';

/** What every sync of the command needs, its options checked (bad ones fail before anything is sent). */
interface Setup {
  baseUrl: string;
  oauthUrl?: string;
  versionedPathsAt: 'base' | 'origin';
  profile: SyncProfile;
  tokens: TokenSource;
  /** --pace, or --requests-per-minute; absent: the client's default (none on loopback). */
  pace?: Pace;
  maxInFlight: number;
}

function checkedSetup(options: SyncCommandOptions, tokens?: TokenSource): Setup {
  const baseUrl = parseHttpUrl(options.server, '--server');
  const oauthUrl = options.oauthUrl ? parseHttpUrl(options.oauthUrl, '--oauth-url') : undefined;
  if (options.versionedPaths !== 'base' && options.versionedPaths !== 'origin') {
    throw new CliInputError(
      `--versioned-paths must be base or origin, not "${options.versionedPaths}"`,
    );
  }
  if (options.profile !== 'office' && options.profile !== 'trainer') {
    throw new CliInputError(`--profile must be office or trainer, not "${options.profile}"`);
  }
  const profile: SyncProfile = options.profile;
  const source = tokens ?? tokenSourceOf(options, baseUrl);
  if (options.pace !== undefined && options.requestsPerMinute !== undefined)
    throw new CliInputError('give --pace or --requests-per-minute, not both');
  const pace =
    options.pace !== undefined
      ? parsePace(options.pace, '--pace')
      : options.requestsPerMinute
        ? parsePositiveInt(options.requestsPerMinute, '--requests-per-minute')
        : undefined;
  const maxInFlight = parsePositiveInt(options.maxInFlight, '--max-in-flight');
  const folder = dirname(resolve(options.db));
  if (!existsSync(folder))
    throw new ReplicaError(
      `Cannot create the replica ${options.db}: the folder ${folder} does not exist`,
      'missing-folder',
    );
  return {
    baseUrl,
    ...(oauthUrl ? { oauthUrl } : {}),
    versionedPathsAt: options.versionedPaths,
    profile,
    tokens: source,
    ...(pace === undefined ? {} : { pace }),
    maxInFlight,
  };
}

function apiOf(setup: Setup, onWait: (event: WaitEvent) => void): ApiClient {
  return createApiClient({
    baseUrl: setup.baseUrl,
    ...(setup.oauthUrl ? { oauthUrl: setup.oauthUrl } : {}),
    versionedPathsAt: setup.versionedPathsAt,
    tokens: setup.tokens,
    maxInFlight: setup.maxInFlight,
    ...(setup.pace === undefined ? {} : { pace: setup.pace }),
    onWait,
  });
}

/**
 * `vorort sync --watch`: the background scheduler in the terminal until Ctrl+C or SIGTERM. The same
 * progress as one sync, a line per finished sync and per change of state in words; with --json a
 * JSON line for each (`{"type":"state","state":...}`, `{"type":"synced",...}`, `{"type":"failed",...}`).
 */
async function watchCommand(options: SyncCommandOptions): Promise<number> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let lock: SyncLock | undefined;
  let replica: Replica | undefined;
  let scheduler: SyncScheduler<SyncOnceSummary> | undefined;
  const cleanups: (() => void)[] = [];
  const stopRequested = cancelOnSignals(() => lock?.release());
  try {
    if (options.pushOnly) throw new CliInputError('--watch and --push-only do not go together');
    if (options.full)
      throw new CliInputError(
        '--watch and --full do not go together (run vorort sync --full once, then --watch)',
      );
    const intervalMinutes = parsePositiveInt(options.interval, '--interval');
    // A token file is read again when it changes while a login is needed (new tokens written into it).
    let tokenSource: TokenSource | undefined;
    const tokens: TokenSource = {
      getAccessToken: () => tokenSource!.getAccessToken(),
      refreshAccessToken: () => tokenSource!.refreshAccessToken?.() ?? Promise.resolve(null),
    };
    const baseUrl = parseHttpUrl(options.server, '--server');
    tokenSource = tokenSourceOf(options, baseUrl);
    const setup = checkedSetup(options, tokens);
    let progress: ProgressReporter | undefined;
    const api = apiOf(
      setup,
      sayWaits((event) => progress?.waiting(event)),
    );
    const feedUrl = feedUrlOption(options.feedUrl);
    lock = acquireSyncLock(options.db, { command: 'vorort sync --watch' });
    replica = openReplica(options.db);
    if (feedUrl !== undefined) setFeedUrl(replica, feedUrl);
    const sqlite = replica.sqlite;
    const report = watchReport(
      options.json ?? false,
      print,
      options.tokenFile === undefined
        ? 'Start again with a new --token.'
        : `Write new tokens into ${options.tokenFile}: it is read again when it changes.`,
    );
    const running = replicaScheduler({
      api,
      replica,
      profile: setup.profile,
      baseUrl: setup.baseUrl,
      intervalMs: intervalMinutes * 60_000,
      syncOptions: budgetOption(options),
      onProgress: (event) => progress?.update(event),
      onState: (state) => {
        if (state.phase === 'syncing')
          progress ??= options.json ? jsonLinesProgress(print) : terminalProgress(process.stderr);
        else {
          progress?.stop();
          progress = undefined;
        }
        report.state(state);
      },
      onRun: (outcome, state) => report.finished(outcome, state),
    });
    scheduler = running;
    // Writes of other processes (vorort call, the desktop app) reach the outbox in the file.
    const newestOperation = () =>
      (sqlite.prepare('SELECT max(id) FROM outbox').pluck().get() as number | null) ?? 0;
    let seenOperation = newestOperation();
    const poll = setInterval(() => {
      try {
        const newest = newestOperation();
        if (newest > seenOperation) running.localWrite();
        seenOperation = newest;
      } catch {
        // The file is busy: looked at again next time.
      }
    }, 2_000);
    cleanups.push(() => clearInterval(poll));
    if (options.tokenFile !== undefined) {
      const file = options.tokenFile;
      const onChange = () => {
        if (running.state.phase !== 'login-needed') return;
        try {
          tokenSource = tokenFileSource(file, setup.baseUrl);
          running.loginChanged();
        } catch {
          // Half written: the next change is read again.
        }
      };
      watchFile(file, { interval: 2_000 }, onChange);
      cleanups.push(() => unwatchFile(file, onChange));
    }
    running.start();
    const signal = await stopRequested.first;
    await running.stop();
    progress?.stop();
    const how = signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl+C';
    if (options.json) print(JSON.stringify({ type: 'stopped', signal: how }));
    else process.stderr.write(`vorort sync: stopped (${how}). What was synced is kept.\n`);
    return signal === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled;
  } catch (error) {
    await scheduler?.stop();
    const code = exitCodeFor(error);
    const message = describeFailure(error);
    if (options.json) print(JSON.stringify({ ok: false, error: message, exitCode: code }));
    else process.stderr.write(`vorort sync: ${message}\n`);
    return code;
  } finally {
    for (const cleanup of cleanups) cleanup();
    await replica?.close();
    lock?.release();
    stopRequested.dispose();
  }
}

const clock = (iso: string | null, seconds = false) =>
  iso === null
    ? 'later'
    : new Date(iso).toLocaleTimeString('en-GB', {
        hour: '2-digit',
        minute: '2-digit',
        ...(seconds ? { second: '2-digit' } : {}),
      });

/** What --watch says: state changes in words (or JSON lines) and a line per finished sync. */
function watchReport(json: boolean, print: (line: string) => void, loginHint: string) {
  let said = '';
  let lastJson: SchedulerState | undefined;
  return {
    state(state: SchedulerState) {
      if (json) {
        // Progress alone has its own lines ({"type":"progress"}); every other change is a state line.
        const sameButProgress =
          lastJson !== undefined &&
          JSON.stringify({ ...lastJson, progress: null }) ===
            JSON.stringify({ ...state, progress: null });
        lastJson = state;
        if (!sameButProgress) print(JSON.stringify({ type: 'state', state }));
        return;
      }
      // In words once per phase and problem; the sync lines and the progress say the rest.
      const key = `${state.phase}|${state.problem?.kind ?? ''}|${state.problem?.message.en ?? ''}`;
      if (key === said) return;
      said = key;
      const problem = state.problem?.message.en ?? '';
      if (state.phase === 'offline')
        print(`offline: ${problem} Next try at ${clock(state.nextAttemptAt, true)}.`);
      else if (state.phase === 'login-needed') print(`login needed: ${problem} ${loginHint}`);
      else if (state.phase === 'error')
        print(`error: ${problem} Next attempt at ${clock(state.nextAttemptAt)}.`);
      else if (state.phase === 'idle' && state.problem?.kind === 'clock')
        print(`clock: ${problem}`);
    },
    finished(outcome: SyncRunOutcome<SyncOnceSummary>, state: SchedulerState) {
      if (json) {
        if ('summary' in outcome)
          print(
            JSON.stringify({
              type: 'synced',
              ...outcome.summary,
              nextAttemptAt: state.nextAttemptAt,
            }),
          );
        else
          print(
            JSON.stringify({
              type: 'failed',
              error: describeFailure(outcome.error),
              phase: state.phase,
              nextAttemptAt: state.nextAttemptAt,
            }),
          );
        return;
      }
      if (!('summary' in outcome)) return; // the state's line says why
      print(syncedLine(outcome.summary, state));
      if (refusedPeople(outcome.summary)) print(`hint: ${TRAINER_HINT}`);
    },
  };
}

/** "synced: 57 requests, 3 records, 1 local change sent; next at 14:05" */
function syncedLine(summary: SyncOnceSummary, state: SchedulerState): string {
  const parts = [
    `${count(summary.requests + summary.outbox.requests)} requests`,
    `${count(summary.records)} ${summary.records === 1 ? 'record' : 'records'}`,
  ];
  const sent = summary.outbox.done;
  if (sent) parts.push(`${count(sent)} local ${sent === 1 ? 'change' : 'changes'} sent`);
  if (state.pending) parts.push(`${count(state.pending)} still to send`);
  if (state.parked) parts.push(`${count(state.parked)} parked (vorort queue list)`);
  if (state.conflicts) parts.push(`${count(state.conflicts)} conflicts`);
  if (summary.budget?.stoppedEarly)
    parts.push(
      summary.budget.stoppedEarly === 'budget'
        ? 'the rest in the next syncs (request budget used up)'
        : 'the rest in the next syncs (the next sync was due)',
    );
  const restore = summary.restore ? ` ${restoreWords(summary.restore)}` : '';
  return `synced: ${parts.join(', ')}; next at ${clock(state.nextAttemptAt)}${restore}`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** What is not in the replica after this sync, in words: the summary's last lines. */
export function missingLines(summary: SyncSummary & { outbox?: PushSummary }): string[] {
  const lines: string[] = [];
  for (const [collection, result] of Object.entries(summary.collections)) {
    if (result.remaining)
      lines.push(
        `${collectionLabel(collection)}: ${count(result.remaining.done)} of ${count(result.remaining.total)} ${result.remaining.what} so far (the next syncs continue)`,
      );
  }
  for (const [collection, result] of Object.entries(summary.collections)) {
    if (result.failedItems)
      lines.push(
        `${collectionLabel(collection)}: ${count(result.failedItems)} ${result.failedItems === 1 ? 'request' : 'requests'} failed (tried again next sync)`,
      );
  }
  const unreadable = Object.values(summary.collections).reduce(
    (sum, result) => sum + (result.quarantined ?? 0),
    0,
  );
  if (unreadable > 0)
    lines.push(
      `${count(unreadable)} unreadable ${unreadable === 1 ? 'record' : 'records'} quarantined and asked for again next sync (vorort status --json counts them per collection)`,
    );
  const budget = budgetWords(summary.budget, summary.outbox?.requests);
  if (budget) lines.push(budget);
  let courseModuleSaid = false;
  for (const area of summary.unavailable) {
    if (area.reason === 'unlicensed' && COURSE_MODULE_COLLECTIONS.has(area.collection)) {
      if (!courseModuleSaid) lines.push('course module not licensed');
      courseModuleSaid = true;
    } else if (area.reason === 'unlicensed') {
      lines.push(`${collectionLabel(area.collection)}: module not licensed`);
    } else {
      lines.push(`no right to read ${collectionLabel(area.collection)}`);
    }
  }
  return lines;
}

const DEFERRED_WORDS: Record<string, string> = {
  course: 'courses',
  forms: 'form lists',
  person: 'people',
  trainings: 'people’s trainings',
  client: 'clients',
  hours_window: 'history windows of the hours',
  reference: 'reference lists',
};

/** "the pull's 150 requests of the budget were spent (--budget to change); left for the next syncs: 12 courses, 3 people". */
export function budgetWords(
  budget: SyncSummary['budget'] | undefined,
  outboxRequests = 0,
): string | undefined {
  if (!budget?.stoppedEarly) return undefined;
  const left = Object.entries(budget.deferred)
    .map(([what, n]) => `${count(n)} ${DEFERRED_WORDS[what] ?? collectionLabel(what)}`)
    .join(', ');
  const why =
    budget.stoppedEarly === 'budget'
      ? `the pull's ${count(budget.limit ?? 0)} requests of the budget were spent${outboxRequests ? ` (the outbox took ${count(outboxRequests)} before)` : ''} (--budget to change)`
      : 'the next sync is due before more could be sent at the client’s pace';
  return `${why}; left for the next syncs: ${left || 'nothing planned'}`;
}

/** --budget as the pull's option (the default stays when it is not given). */
function budgetOption(options: SyncCommandOptions): { requestBudget?: number } {
  return options.budget === undefined
    ? {}
    : { requestBudget: parsePositiveInt(options.budget, '--budget') };
}

/** --feed-url: a checked address, null for "none", undefined when not given (the stored one stays). */
function feedUrlOption(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (/^(none|)$/i.test(value.trim())) return null;
  try {
    return checkFeedUrl(value);
  } catch (error) {
    if (error instanceof CoreFailure) throw new CliInputError(`--feed-url: ${error.messages.en}`);
    throw error;
  }
}

/** --token or --token-file, exactly one. */
function tokenSourceOf(options: SyncCommandOptions, baseUrl: string): TokenSource {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new CliInputError('give --token or --token-file, not both');
  if (options.tokenFile !== undefined) return tokenFileSource(options.tokenFile, baseUrl);
  if (!options.token?.trim())
    throw new CliInputError('--token (or --token-file) is required and must not be empty');
  return staticToken(options.token.trim());
}

function outboxLine(outbox: PushSummary): string {
  const parts = [`${count(outbox.done)} sent`];
  if (outbox.parked) parts.push(`${count(outbox.parked)} parked (vorort queue list)`);
  if (outbox.unknown) parts.push(`${count(outbox.unknown)} of unknown outcome`);
  if (outbox.retrying) parts.push(`${count(outbox.retrying)} to retry`);
  if (outbox.waiting) parts.push(`${count(outbox.waiting)} waiting for a new record`);
  if (outbox.pausedForLogin) parts.push('paused until the next login');
  return `Outbox: ${parts.join(', ')}`;
}

function printSummary(
  summary: SyncSummary & { outbox?: PushSummary },
  print: (line: string) => void,
): void {
  if (summary.outbox) print(outboxLine(summary.outbox));
  const missing = missingLines(summary);
  const reading = summary.restore && !summary.restore.complete;
  const state = !summary.ok
    ? 'finished with errors'
    : missing.length > 0 || reading
      ? 'done, but not everything is in the replica yet'
      : 'finished';
  print(
    `Sync (${summary.profile}) ${state}: ${count(summary.records)} records, ${count(summary.requests + (summary.outbox?.requests ?? 0))} requests, ${summary.seconds.toFixed(1)} s`,
  );
  for (const [collection, result] of Object.entries(summary.collections)) {
    const note = result.skipped
      ? `skipped (${result.skipped === 'forbidden' ? 'no right to read' : 'not licensed'})`
      : result.error
        ? `FAILED: ${result.error}`
        : `${count(result.records)} records, ${count(result.deleted)} deleted`;
    print(
      `  ${collectionLabel(collection).padEnd(28)} ${note}, ${result.requests} requests, ${result.seconds.toFixed(1)} s`,
    );
  }
  if (summary.restore) print(restoreWords(summary.restore));
  if (missing.length > 0) {
    print('Still missing:');
    for (const line of missing) print(`  ${line}`);
  }
}
