// `vorort sync`: one sync of a replica file against a service.
import type { Command } from 'commander';
import { ApiError, createApiClient, staticToken } from '../api';
import { openReplica } from '../db/open';
import { runSync, type SyncSummary } from '../pull/engine';
import { EXIT, CliInputError, exitCodeFor } from './exit-codes';
import { jsonLinesProgress, terminalProgress } from './progress';
import { parseHttpUrl, parsePositiveInt } from './parse';

interface SyncCommandOptions {
  server: string;
  oauthUrl?: string;
  token: string;
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
    .description('Run one sync: pull the service into the replica file')
    .requiredOption(
      '--server <url>',
      'base URL of the service interface (may carry a path, e.g. https://api.hiorg-server.de/core/v1)',
    )
    .option(
      '--oauth-url <url>',
      'base URL of the OAuth server, where userinfo lives (default: <origin of --server>/oauth/v1)',
    )
    .requiredOption('--token <token>', 'access token (Bearer)')
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
    .option('--requests-per-minute <n>', 'client-side request rate limit')
    .option('--max-in-flight <n>', 'requests in flight at most', '4')
    .option('--json', 'progress as JSON lines; the summary as one JSON object on the last line')
    .action(async (options: SyncCommandOptions) => {
      process.exitCode = await syncCommand(options);
    });
}

async function syncCommand(options: SyncCommandOptions): Promise<number> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let summary: SyncSummary;
  try {
    const baseUrl = parseHttpUrl(options.server, '--server');
    const oauthUrl = options.oauthUrl ? parseHttpUrl(options.oauthUrl, '--oauth-url') : undefined;
    if (options.profile !== 'office' && options.profile !== 'trainer') {
      throw new CliInputError(`--profile must be office or trainer, not "${options.profile}"`);
    }
    if (!options.token.trim()) throw new CliInputError('--token must not be empty');
    const requestsPerMinute = options.requestsPerMinute
      ? parsePositiveInt(options.requestsPerMinute, '--requests-per-minute')
      : undefined;
    const maxInFlight = parsePositiveInt(options.maxInFlight, '--max-in-flight');

    const api = createApiClient({
      baseUrl,
      ...(oauthUrl ? { oauthUrl } : {}),
      tokens: staticToken(options.token.trim()),
      maxInFlight,
      ...(requestsPerMinute ? { requestsPerMinute } : {}),
    });
    const replica = openReplica(options.db);
    const progress = options.json ? jsonLinesProgress(print) : terminalProgress(process.stderr);
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    try {
      summary = await runSync({
        api,
        replica,
        options: { profile: options.profile, full: options.full ?? false },
        onProgress: (event) => progress.update(event),
        signal: abort.signal,
      });
    } finally {
      progress.stop();
      process.off('SIGINT', onSignal);
      await replica.close();
    }
  } catch (error) {
    const message =
      error instanceof ApiError && error.kind === 'cancelled'
        ? 'cancelled. What was synced so far is kept; the next sync completes it.'
        : error instanceof Error
          ? error.message
          : String(error);
    if (options.json)
      print(JSON.stringify({ ok: false, error: message, exitCode: exitCodeFor(error) }));
    else process.stderr.write(`vorort sync: ${message}\n`);
    return exitCodeFor(error);
  }
  if (options.json) print(JSON.stringify(summary));
  else printSummary(summary, print);
  return summary.ok ? EXIT.ok : EXIT.partial;
}

function printSummary(summary: SyncSummary, print: (line: string) => void): void {
  print(
    `Sync (${summary.profile}) ${summary.ok ? 'finished' : 'finished with errors'}: ${summary.records} records, ${summary.requests} requests, ${summary.seconds.toFixed(1)} s`,
  );
  for (const [collection, result] of Object.entries(summary.collections)) {
    const note = result.skipped
      ? `skipped (${result.skipped})`
      : result.error
        ? `FAILED: ${result.error}`
        : `${result.records} records, ${result.deleted} deleted`;
    print(
      `  ${collection.padEnd(28)} ${note}, ${result.requests} requests, ${result.seconds.toFixed(1)} s`,
    );
  }
}
