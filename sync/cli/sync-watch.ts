// `vorort sync --watch`: the background scheduler in the terminal, with a line per finished sync
// and per change of state, until Ctrl+C or SIGTERM.
import { unwatchFile, watchFile } from 'node:fs';
import type { TokenSource } from '../api';
import { tokenFileSource } from '../auth/token-file';
import type { SchedulerState } from '../contract';
import { openReplica, type Replica } from '../db/open';
import { acquireSyncLock, type SyncLock } from '../db/sync-lock';
import { replicaScheduler, type SyncOnceSummary } from '../scheduler';
import type { SyncRunOutcome, SyncScheduler } from '../scheduler/scheduler';
import { setFeedUrl } from '../pull/feed';
import { refusedPeople } from '../pull/profile';
import { EXIT, CliInputError, describeFailure, exitCodeFor } from './exit-codes';
import { parsePositiveInt } from './parse';
import { jsonLinesProgress, sayWaits, terminalProgress, type ProgressReporter } from './progress';
import { restoreWords } from './status-command';
import { cancelOnSignals } from './stop-signals';
import {
  apiOf,
  budgetOption,
  checkedSetup,
  feedUrlOption,
  serverOption,
  tokenSourceOf,
  type SyncCommandOptions,
} from './sync-setup';
import { count, TRAINER_HINT } from './sync-summary';

/**
 * `vorort sync --watch`: the background scheduler in the terminal until Ctrl+C or SIGTERM. The same
 * progress as one sync, a line per finished sync and per change of state in words; with --json a
 * JSON line for each (`{"type":"state","state":...}`, `{"type":"synced",...}`, `{"type":"failed",...}`).
 */
export async function watchCommand(options: SyncCommandOptions): Promise<number> {
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
    const baseUrl = serverOption(options);
    tokenSource = tokenSourceOf(options, baseUrl);
    const setup = checkedSetup(options, tokens);
    let progress: ProgressReporter | undefined;
    const api = apiOf(
      setup,
      sayWaits((event) => progress?.waiting(event)),
    );
    const feedUrl = feedUrlOption(options);
    lock = acquireSyncLock(options.db, { command: 'vorort sync --watch' });
    replica = openReplica(options.db, { use: 'sync' });
    if (feedUrl !== undefined) setFeedUrl(replica, feedUrl);
    const sqlite = replica.sqlite;
    const report = watchReport(
      options.json ?? false,
      print,
      options.tokenFile === undefined || options.tokenFile === '-'
        ? 'Start again with a new token.'
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
    if (options.tokenFile !== undefined && options.tokenFile !== '-') {
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
