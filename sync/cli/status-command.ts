// `vorort status`: what the replica holds, without touching the network, and without writing
// anything into a file that is not a replica.
import type { Command } from 'commander';
import type { RestoreStatus, RotationFreshness, SyncStatus } from '../contract';
import { openReplica } from '../db/open';
import { syncLockHolder } from '../db/sync-lock';
import { callOrThrow, createDispatcher } from '../dispatch';
import { collectionLabel } from './collections';
import { EXIT, describeFailure, exitCodeFor } from './exit-codes';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Show what the replica holds: records per type, watermarks, the last sync')
    .requiredOption('--db <file>', 'the replica (SQLite file)')
    .option('--json', 'one JSON object')
    .addHelpText(
      'after',
      `
Exit codes: 0 shown; 2 bad options, or --db is not a replica (missing, a folder,
empty, not SQLite, another program's database, or written by a newer Vorort).`,
    )
    .action(async (options: { db: string; json?: boolean }) => {
      process.exitCode = await statusCommand(options);
    });
}

async function statusCommand(options: { db: string; json?: boolean }): Promise<number> {
  let status: SyncStatus;
  try {
    const replica = openReplica(options.db, { mode: 'existing' });
    try {
      status = await callOrThrow(createDispatcher(replica), 'sync.status', {
        freshness: true,
      });
    } finally {
      await replica.close();
    }
  } catch (error) {
    process.stderr.write(`vorort status: ${describeFailure(error)}\n`);
    return exitCodeFor(error);
  }
  const running = syncLockHolder(options.db);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ ...status, running: running ?? null })}\n`);
    return EXIT.ok;
  }
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print(`Replica ${options.db}, profile ${status.profile ?? '-'}, ${lastSyncWords(status)}`);
  if (running) print(`A sync is running now (pid ${running.pid} since ${running.startedAt})`);
  print(outboxWords(status.outbox));
  for (const [type, n] of Object.entries(status.counts)) print(`  ${type.padEnd(28)} ${n}`);
  for (const c of status.collections) {
    const note = c.unavailable
      ? `unavailable: ${c.unavailable}`
      : c.lastError
        ? `error: ${c.lastError}`
        : `watermark ${c.watermark ?? '-'}`;
    print(`  [${collectionLabel(c.collection)}] ${note}`);
  }
  if (status.restore)
    print(restoreWords({ ...status.restore, noticedNow: false, complete: false }));
  const freshness = status.freshness ?? [];
  if (freshness.length) print('Confirmed by the service (rotations):');
  for (const line of freshness.map(freshnessWords)) print(`  ${line}`);
  return EXIT.ok;
}

const ROTATION_WORDS: Record<RotationFreshness['rotation'], [string, string]> = {
  course: ['participants and custom fields', 'courses'],
  forms: ['forms', 'owners'],
  person: ['checks and honours', 'people'],
  trainings: ['trainings (per person)', 'people'],
  client: ['client participants', 'clients'],
  hours_window: ['volunteer hours (history windows)', 'windows'],
};

/** "checks and honours: 500 of 1,000 people, the oldest 2026-11-20T10:00 (bound 168 h)". */
export function freshnessWords(rotation: RotationFreshness): string {
  const [what, items] = ROTATION_WORDS[rotation.rotation];
  const oldest = rotation.oldestConfirmedAt
    ? `, the oldest ${rotation.oldestConfirmedAt.slice(0, 16)}`
    : '';
  return `${what}: ${rotation.confirmed} of ${rotation.items} ${items}${oldest} (bound ${rotation.boundHours} h)`;
}

/** The outbox in one line: what waits to be sent, and why. */
export function outboxWords(outbox: SyncStatus['outbox']): string {
  if (outbox.open === 0 && outbox.conflicts === 0)
    return 'Outbox: empty (everything is with the service)';
  const states = Object.entries(outbox.byState).map(
    ([state, n]) => `${n} ${state.replace('_', ' ')}`,
  );
  const extra = [
    ...(outbox.conflicts ? [`${outbox.conflicts} conflicts (vorort queue conflicts)`] : []),
    ...(outbox.pausedForLogin ? ['paused until the next login'] : []),
  ];
  return `Outbox: ${outbox.open} not yet sent (${states.join(', ') || 'none'})${extra.length ? `; ${extra.join('; ')}` : ''}`;
}

/**
 * "never synced" only when nothing was: a sync that was stopped or failed leaves collections
 * behind (with data, or with their error), and says so.
 */
export function lastSyncWords(status: SyncStatus): string {
  const lastGood = status.lastSuccessfulSyncAt;
  if (status.lastSync) {
    if (status.lastSync.ok) return `last sync ${status.lastSync.at} (ok)`;
    return `last sync ${status.lastSync.at} (with errors), ${lastGood ? `last successful ${lastGood}` : 'no successful sync yet'}`;
  }
  const records = Object.values(status.counts).reduce((sum, n) => sum + n, 0);
  const anyData = records > 0 || status.collections.some((c) => c.lastSuccessAt !== null);
  if (anyData) return 'synced in part: no sync has finished yet (the next one completes it)';
  if (status.collections.length > 0 || status.selfId !== null || status.profile !== null) {
    const error = status.collections.find((c) => c.lastError)?.lastError;
    return `synced, but no successful sync yet${error ? ` (last error: ${error})` : ''}`;
  }
  return 'never synced';
}

const RECORD_WORDS: Record<string, string> = {
  helferstunden: 'volunteer-hours entry',
  helferstunden_anlaesse: 'occasion',
  participations: 'participation',
  courses: 'course',
  ausbildungen: 'training',
  ueberpruefungen: 'check',
  users: 'person',
  client_participants: 'client participant',
};

/**
 * A restore of the service in one line: as the sync that noticed it says it, while everything is
 * read again (`vorort status`, every sync until then), and once that is complete.
 */
export function restoreWords(
  restore: RestoreStatus & { noticedNow: boolean; complete: boolean },
): string {
  const { evidence } = restore;
  if (restore.noticedNow) {
    const record =
      evidence.table === 'singletons'
        ? `the own account (${evidence.id})`
        : `${RECORD_WORDS[evidence.table] ?? evidence.table} ${evidence.id}`;
    return (
      `The service was apparently restored from a backup: ${record} was changed at ` +
      `${evidence.seenUpdatedAt}, the service now shows it as of ${evidence.shownUpdatedAt}. ` +
      'Everything is read again, from the next sync on.'
    );
  }
  if (restore.complete)
    return 'Everything was read again after the service’s restore from a backup: the replica holds what the service holds.';
  const { collections, items } = restore.outstanding;
  const named = collections.slice(0, 4).map(collectionLabel).join(', ');
  const more = collections.length > 4 ? ` and ${collections.length - 4} more lists` : '';
  const left = [
    ...(collections.length ? [`${named}${more}`] : []),
    ...(items ? [`${items.toLocaleString('en-US')} items of the rotations`] : []),
  ];
  return (
    `Reading everything again since the service was restored from a backup (noticed ` +
    `${restore.detectedAt.slice(0, 16)}); still to read: ${left.join('; ') || 'nothing'}`
  );
}
