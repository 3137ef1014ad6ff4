// `vorort sync`: one sync of a replica file against a service.
import type { Command } from 'commander';
import { ApiError } from '../api';
import { openReplica, type Replica } from '../db/open';
import { acquireSyncLock, type SyncLock } from '../db/sync-lock';
import { setFeedUrl } from '../pull/feed';
import { syncOnce, type SyncOnceSummary } from '../scheduler';
import { EXIT, EXIT_CODES_HELP, describeFailure, exitCodeFor } from './exit-codes';
import { ALLOW_INSECURE_HTTP_HELP, PACE_OPTION_HELP } from './parse';
import { jsonLinesProgress, sayWaits, terminalProgress } from './progress';
import { cancelOnSignals } from './stop-signals';
import {
  apiOf,
  budgetOption,
  checkedSetup,
  FEED_URL_ENV,
  feedUrlOption,
  TOKEN_ENV,
  type SyncCommandOptions,
} from './sync-setup';
import { refusedPeople } from '../pull/profile';
import { printSummary, TRAINER_HINT } from './sync-summary';
import { watchCommand } from './sync-watch';

export { missingLines } from './sync-summary';

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
    .option('--allow-insecure-http', ALLOW_INSECURE_HTTP_HELP)
    .option(
      '--versioned-paths <where>',
      'where /formulare/v1 lives: base (below --server, as the seed writes it) or origin (the host root)',
      'base',
    )
    .option(
      '--token-file <file>',
      'JSON with access_token, and refresh_token + client_id (+ oauth_url) to refresh on a 401; written back after a refresh. ' +
        '"-" reads standard input: the JSON, or the access token alone (a refresh is not written back)',
    )
    .option(
      '--token <token>',
      `access token (Bearer); visible to every user of this computer (ps): use ${TOKEN_ENV} or --token-file instead`,
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
      '--feed-url-file <file>',
      `the private calendar feed's address (https://…/ical/v1/veranstaltungen/private-…/….ics) from a file, "-" for standard input, or from ${FEED_URL_ENV}: kept in the replica and fetched by every sync from now on; "none" forgets it. Its secret path is never printed`,
    )
    .option(
      '--feed-url <url>',
      `the same as --feed-url-file, the address given here; visible to every user of this computer (ps): use ${FEED_URL_ENV} or --feed-url-file instead`,
    )
    .option(
      '--json',
      'progress and waits as JSON lines; the summary as one JSON object on the last line',
    )
    .addHelpText(
      'after',
      `
The token and the feed's address are secrets: given on the command line they
are readable by every user of this computer (ps). Give them as
  ${TOKEN_ENV}=… vorort sync …             (the environment)
  vorort sync --token-file tokens.json …  (a file, 0600)
  pass show vorort | vorort sync --token-file - …   (standard input)
and the feed's address likewise (${FEED_URL_ENV}, --feed-url-file FILE or -).

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

async function syncCommand(options: SyncCommandOptions): Promise<number> {
  if (options.watch) return watchCommand(options);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let lock: SyncLock | undefined;
  const signals = cancelOnSignals(() => lock?.release());
  let summary: SyncOnceSummary;
  try {
    const setup = checkedSetup(options);
    const feedUrl = feedUrlOption(options);
    const progress = options.json ? jsonLinesProgress(print) : terminalProgress(process.stderr);
    const api = apiOf(
      setup,
      sayWaits((event) => progress.waiting(event)),
    );
    // The lock before the file is opened: a second sync must not even upgrade its schema.
    lock = acquireSyncLock(options.db);
    let replica: Replica | undefined;
    try {
      replica = openReplica(options.db, { use: 'sync' });
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
