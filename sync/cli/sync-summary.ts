// What one sync says when it ends: the outbox's line, a line per collection, and what is not in
// the replica yet (the next syncs continue, a module not licensed, no right to read).
import type { PushSummary } from '../outbox/replay';
import type { SyncSummary } from '../pull/engine';
import { COURSE_MODULE_COLLECTIONS, collectionLabel } from './collections';
import { restoreWords } from './status-command';

export const count = (n: number) => n.toLocaleString('en-US');

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

function outboxLine(outbox: PushSummary): string {
  const parts = [`${count(outbox.done)} sent`];
  if (outbox.parked) parts.push(`${count(outbox.parked)} parked (vorort queue list)`);
  if (outbox.unknown) parts.push(`${count(outbox.unknown)} of unknown outcome`);
  if (outbox.retrying) parts.push(`${count(outbox.retrying)} to retry`);
  if (outbox.waiting) parts.push(`${count(outbox.waiting)} waiting for a new record`);
  if (outbox.pausedForLogin) parts.push('paused until the next login');
  return `Outbox: ${parts.join(', ')}`;
}

export function printSummary(
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

/** The office profile refused the staff (a trainer's token): said with the option that fits it. */
export const TRAINER_HINT =
  'this account may not read the staff, as a trainer’s: sync with --profile trainer (the own courses with their participants, the own hours).';
