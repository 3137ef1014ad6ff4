// `vorort sync`: one sync of a replica file against a service.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { ApiError, createApiClient, staticToken, type TokenSource } from '../api';
import { openReplica, ReplicaError, type Replica } from '../db/open';
import { acquireSyncLock, type SyncLock } from '../db/sync-lock';
import { tokenFileSource } from '../auth/token-file';
import { pushOutbox, type PushSummary } from '../outbox/replay';
import { runSync, type SyncSummary } from '../pull/engine';
import { COURSE_MODULE_COLLECTIONS, collectionLabel } from './collections';
import { EXIT, EXIT_CODES_HELP, CliInputError, describeFailure, exitCodeFor } from './exit-codes';
import { parseHttpUrl, parsePositiveInt } from './parse';
import { jsonLinesProgress, sayWaits, terminalProgress } from './progress';

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
  json?: boolean;
  requestsPerMinute?: string;
  maxInFlight: string;
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
      'full id scan of every collection (finds deletions) and refresh of every person',
    )
    .option(
      '--requests-per-minute <n>',
      'client-side request rate limit (waits are said: "waiting 2 s (own pace)")',
    )
    .option('--max-in-flight <n>', 'requests in flight at most', '4')
    .option(
      '--json',
      'progress and waits as JSON lines; the summary as one JSON object on the last line',
    )
    .addHelpText(
      'after',
      `
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
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      onSecond();
      process.stderr.write(`vorort sync: ${signal} again, stopping at once\n`);
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.cancelled);
    }
    received = signal;
    abort.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: abort.signal,
    received: () => received,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

async function syncCommand(options: SyncCommandOptions): Promise<number> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let lock: SyncLock | undefined;
  const signals = cancelOnSignals(() => lock?.release());
  let summary: SyncSummary & { outbox?: PushSummary };
  let outbox: PushSummary | undefined;
  try {
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
    const tokens = tokenSourceOf(options, baseUrl);
    const requestsPerMinute = options.requestsPerMinute
      ? parsePositiveInt(options.requestsPerMinute, '--requests-per-minute')
      : undefined;
    const maxInFlight = parsePositiveInt(options.maxInFlight, '--max-in-flight');
    const folder = dirname(resolve(options.db));
    if (!existsSync(folder))
      throw new ReplicaError(
        `Cannot create the replica ${options.db}: the folder ${folder} does not exist`,
        'missing-folder',
      );

    const progress = options.json ? jsonLinesProgress(print) : terminalProgress(process.stderr);
    const api = createApiClient({
      baseUrl,
      ...(oauthUrl ? { oauthUrl } : {}),
      versionedPathsAt: options.versionedPaths,
      tokens,
      maxInFlight,
      ...(requestsPerMinute ? { requestsPerMinute } : {}),
      onWait: sayWaits((event) => progress.waiting(event)),
    });
    // The lock before the file is opened: a second sync must not even upgrade its schema.
    lock = acquireSyncLock(options.db);
    let replica: Replica | undefined;
    try {
      replica = openReplica(options.db);
      const startedAt = new Date();
      // Local changes first (DESIGN rule 15): the pull then rebases on what is still queued.
      outbox = await pushOutbox({
        api,
        sqlite: replica.sqlite,
        signal: signals.signal,
        // At a throttled service's pace a long queue takes minutes: shown like a collection.
        onProgress: (event) => progress.update({ collection: 'outbox', ...event }),
      });
      summary = options.pushOnly
        ? pushOnlySummary(options.profile, outbox, startedAt)
        : await runSync({
            api,
            replica,
            options: { profile: options.profile, full: options.full ?? false },
            onProgress: (event) => progress.update(event),
            signal: signals.signal,
          });
      summary = {
        ...summary,
        outbox,
        ok: summary.ok && outbox.parked === 0 && !outbox.pausedForLogin,
      };
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
  if (options.json) print(JSON.stringify(summary));
  else printSummary(summary, print);
  return summary.ok ? EXIT.ok : EXIT.partial;
}

const count = (n: number) => n.toLocaleString('en-US');

/** What is not in the replica after this sync, in words: the summary's last lines. */
export function missingLines(summary: SyncSummary): string[] {
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

/** --token or --token-file, exactly one. */
function tokenSourceOf(options: SyncCommandOptions, baseUrl: string): TokenSource {
  if (options.token !== undefined && options.tokenFile !== undefined)
    throw new CliInputError('give --token or --token-file, not both');
  if (options.tokenFile !== undefined) return tokenFileSource(options.tokenFile, baseUrl);
  if (!options.token?.trim())
    throw new CliInputError('--token (or --token-file) is required and must not be empty');
  return staticToken(options.token.trim());
}

function pushOnlySummary(
  profile: SyncSummary['profile'],
  outbox: PushSummary,
  startedAt: Date,
): SyncSummary {
  const finishedAt = new Date();
  return {
    ok: true,
    profile,
    collections: {},
    quarantined: 0,
    unavailable: [],
    records: 0,
    requests: outbox.requests,
    seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
  };
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
  const state = !summary.ok
    ? 'finished with errors'
    : missing.length > 0
      ? 'done, but not everything is in the replica yet'
      : 'finished';
  print(
    `Sync (${summary.profile}) ${state}: ${count(summary.records)} records, ${count(summary.requests)} requests, ${summary.seconds.toFixed(1)} s`,
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
  if (missing.length > 0) {
    print('Still missing:');
    for (const line of missing) print(`  ${line}`);
  }
}
