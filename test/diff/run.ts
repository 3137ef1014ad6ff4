// One differential run: the sandbox (in this process, with its admin interface) and a replica per
// profile; a seeded sequence of changes on the service interleaved with budgeted syncs, the
// clocks of both sides advanced together; after every sync the replica is compared with the
// service read directly (./oracle, ./compare). The first divergence ends the run; its sequence
// is then shortened to one that still shows a divergence (./shrink).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { runSync } from '../../sync/pull/engine';
import { DEFAULT_SYNC_OPTIONS } from '../../sync/pull/options';
import { compareReplica, type Divergence } from './compare';
import { AdminClient, ServiceClient } from './hands';
import { ChangeTimes } from './journal';
import { readServiceView, type Profile, type ViewOptions } from './oracle';
import {
  nextStep,
  Random,
  worldOf,
  type Change,
  type PagedList,
  type Step,
  type World,
  type Schedule,
} from './steps';

export interface DiffOptions {
  seed: number;
  /** Steps to generate (a replay takes its steps instead). */
  steps: number;
  /** Stop generating after this much wall-clock time. */
  wallClockMs?: number;
  /** How the clocks move between steps (see Schedule); default mixed. */
  schedule?: Schedule;
  /** Replay these steps instead of generating. */
  replay?: readonly Step[];
  log?: (line: string) => void;
}

export interface FirstDivergence {
  /** The index of the sync step that showed it. */
  step: number;
  profile: Profile;
  divergences: Divergence[];
  sequence: Step[];
}

export interface DiffResult {
  steps: number;
  syncs: number;
  compared: number;
  divergences: number;
  /** Stale records the bounds allowed, summed over the comparisons. */
  allowed: number;
  /** Changes that landed between two pages of a sync's answers. */
  betweenPages: number;
  /** Syncs that left work for later (their budget ran out): stale past a bound was lag then. */
  catchingUp: number;
  /** Requests the service refused (a target removed since the world was read, a rule of the service). */
  refused: number;
  byLabel: Record<string, number>;
  first?: FirstDivergence;
  seconds: number;
}

/** The demo data's day, fixed for a run so a replay starts from the same service. */
export const ANCHOR = new Date().toISOString().slice(0, 10);

export async function runDiff(options: DiffOptions): Promise<DiffResult> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const dir = mkdtempSync(join(tmpdir(), 'vorort-diff-'));
  const sandbox = await startSandbox({
    port: 0,
    scale: 'small',
    seed: options.seed,
    anchorDate: ANCHOR,
    admin: true,
  });
  const result: DiffResult = {
    steps: 0,
    syncs: 0,
    compared: 0,
    divergences: 0,
    allowed: 0,
    refused: 0,
    betweenPages: 0,
    catchingUp: 0,
    byLabel: {},
    seconds: 0,
  };
  try {
    const run = new Run(sandbox, dir);
    await run.start();
    const random = new Random(options.seed);
    const total = options.replay?.length ?? options.steps;
    const done: Step[] = [];
    for (let index = 0; index < total; index += 1) {
      if (!options.replay && options.wallClockMs && Date.now() - started > options.wallClockMs) {
        log(`wall-clock cap reached after ${index} steps`);
        break;
      }
      const step =
        options.replay?.[index] ?? nextStep(await run.world(), random, index, options.schedule);
      done.push(step);
      result.steps += 1;
      const outcome = await run.apply(step);
      if (outcome.refused) result.refused += 1;
      const label = step.kind === 'write' || step.kind === 'admin' ? step.label : step.kind;
      result.byLabel[label] = (result.byLabel[label] ?? 0) + 1;
      if (!outcome.comparison) continue;
      result.syncs += 1;
      result.compared += outcome.comparison.compared;
      if (outcome.betweenPages) result.betweenPages += 1;
      if (outcome.catchingUp) result.catchingUp += 1;
      result.allowed += outcome.comparison.allowed;
      if (outcome.comparison.divergences.length) {
        result.divergences = outcome.comparison.divergences.length;
        result.first = {
          step: index,
          profile: (step as { profile: Profile }).profile,
          divergences: outcome.comparison.divergences,
          sequence: done,
        };
        break;
      }
      if (result.syncs % 25 === 0)
        log(`step ${index + 1}: ${result.syncs} syncs, ${result.compared} records compared`);
    }
    await run.close();
  } finally {
    await sandbox.close();
    // DIFF_KEEP=1 keeps the replicas of a run to look into.
    if (process.env.DIFF_KEEP) log(`the replicas are kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

interface Outcome {
  refused: boolean;
  betweenPages?: boolean;
  catchingUp?: boolean;
  comparison?: ReturnType<typeof compareReplica>;
}

/** The state of one run: clocks, replicas, the journal, the world and the backups' ids. */
class Run {
  private readonly admin: AdminClient;
  private readonly office: ServiceClient;
  private readonly changes = new ChangeTimes();
  private readonly replicas = new Map<Profile, Replica>();
  private readonly firstSeen = new Map<Profile, Map<string, number>>();
  private readonly syncTimes = new Map<Profile, number[]>();
  private readonly lastCatchingUpAt = new Map<Profile, number>();
  private readonly backups = new Map<number, string>();
  private readonly forms: string[] = [];
  private offsetMs = 0;
  private cachedWorld: World | undefined;
  private readonly officeUser;
  private readonly trainerUser;

  constructor(
    private readonly sandbox: RunningSandbox,
    private readonly dir: string,
  ) {
    if (!sandbox.admin) throw new Error('the sandbox runs without its admin interface');
    this.admin = new AdminClient(sandbox.admin.url, sandbox.admin.token);
    this.officeUser = sandbox.users.find((u) => u.role === 'office')!;
    this.trainerUser = sandbox.users.find((u) => u.role === 'trainer')!;
    this.office = new ServiceClient(sandbox.baseUrl, this.officeUser.accessToken);
  }

  async start(): Promise<void> {
    for (const profile of ['office', 'trainer'] as const)
      this.replicas.set(profile, openReplica(join(this.dir, `${profile}.sqlite`)));
  }

  async close(): Promise<void> {
    for (const replica of this.replicas.values()) await replica.close();
  }

  /** The client's clock: the sandbox's, moved by the same amount. */
  private now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  private viewOptions(profile: Profile): ViewOptions {
    return {
      profile,
      today: this.now(),
      selfId: profile === 'office' ? this.officeUser.id : this.trainerUser.id,
      hoursHistoryStart: DEFAULT_SYNC_OPTIONS.hoursHistoryStart,
      courseMonthsBack: DEFAULT_SYNC_OPTIONS.courseMonthsBack,
      courseMonthsAhead: DEFAULT_SYNC_OPTIONS.courseMonthsAhead,
    };
  }

  async world(): Promise<World> {
    if (this.cachedWorld) {
      this.cachedWorld.now = this.now().getTime();
      return this.cachedWorld;
    }
    const view = await readServiceView(this.target('office'), this.viewOptions('office'));
    this.cachedWorld = worldOf(view, {
      officeId: this.officeUser.id,
      trainerId: this.trainerUser.id,
      now: this.now().getTime(),
      forms: this.forms,
      backups: this.backups.size,
    });
    return this.cachedWorld;
  }

  private target(profile: Profile) {
    const user = profile === 'office' ? this.officeUser : this.trainerUser;
    return { baseUrl: this.sandbox.baseUrl, token: user.accessToken };
  }

  async apply(step: Step): Promise<Outcome> {
    switch (step.kind) {
      case 'advance': {
        const { offsetMs } = (await this.admin.call('POST', '/clock', { advanceMs: step.ms })) as {
          offsetMs: number;
        };
        this.offsetMs = offsetMs;
        return { refused: false };
      }
      case 'backup': {
        const { id } = (await this.admin.call('POST', '/backups')) as { id: string };
        this.backups.set(step.name, id);
        if (this.cachedWorld) this.cachedWorld.backups = this.backups.size;
        return { refused: false };
      }
      case 'restore': {
        const id = this.backups.get(step.name);
        if (id === undefined) return { refused: true };
        await this.admin.call('POST', `/backups/${id}/restore`);
        this.cachedWorld = undefined;
        return { refused: false };
      }
      case 'write':
      case 'admin': {
        const answer =
          step.kind === 'write'
            ? await this.office.write(step.method, step.path, step.body)
            : await this.admin.request(step.method, step.path, step.body);
        if (answer.status >= 500)
          throw new Error(
            `${step.method} ${step.path}: ${answer.status} ${JSON.stringify(answer.body)}`,
          );
        const refused = answer.status >= 300;
        if (!refused) {
          const id = (answer.body as { id?: unknown } | null)?.id;
          if (step.kind === 'admin' && step.path === '/formulare' && id !== undefined)
            this.forms.push(String(id));
          // What changed is read again at the next look, except the forms, which no list shows.
          this.cachedWorld = undefined;
        }
        return { refused };
      }
      case 'sync':
        return { refused: false, ...(await this.sync(step)) };
    }
  }

  /** Another user takes a record of the list off the service: a person merged, an entry or a course deleted. */
  private removal(list: PagedList, id: string): Change | undefined {
    switch (list) {
      case 'personal':
        // The signed-in users stay (merged away, their tokens would end the run).
        if (id === this.officeUser.id || id === this.trainerUser.id) return undefined;
        return {
          kind: 'admin',
          label: 'person merged',
          method: 'POST',
          path: `/personal/${id}/merge`,
          body: { into: this.officeUser.id },
        };
      case 'helferstunden':
        return {
          kind: 'write',
          label: 'hours deleted',
          method: 'DELETE',
          path: `/helferstunden/${id}`,
        };
      case 'courses':
        return { kind: 'admin', label: 'course deleted', method: 'DELETE', path: `/courses/${id}` };
    }
  }

  private async sync(step: Extract<Step, { kind: 'sync' }>) {
    const { profile, during } = step;
    const replica = this.replicas.get(profile)!;
    const user = profile === 'office' ? this.officeUser : this.trainerUser;
    let landed = false;
    // The sync's own fetch: the change lands between two pages of a list, as another user's would.
    const fetchAnswers: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const first = during && !landed ? await firstOfPage(during.list, input, response) : null;
      if (during && first !== null) {
        landed = true;
        const change =
          during.change === 'remove' ? this.removal(during.list, first) : during.change;
        if (change) await this.apply(change);
      }
      return response;
    };
    const api = createApiClient({
      baseUrl: this.sandbox.baseUrl,
      tokens: staticToken(user.accessToken),
      fetch: fetchAnswers,
    });
    const now = () => this.now();
    const startedAt = now().getTime();
    const summary = await runSync({ api, replica, options: { profile, now, today: now } });
    const betweenPages = landed;
    // DIFF_VERBOSE=1: each sync's budget and hours' cycle, to follow a divergence.
    if (process.env.DIFF_VERBOSE)
      console.error(
        `diff: ${profile} sync at ${now().toISOString()}: budget ${JSON.stringify(summary.budget)}, hours history ${JSON.stringify(summary.collections.helferstunden_history ?? null)}, restore ${JSON.stringify(summary.restore ?? null)}`,
      );
    if (during && !landed && during.change !== 'remove') await this.apply(during.change);
    if (!summary.ok)
      return {
        comparison: {
          compared: 0,
          allowed: 0,
          divergences: [
            {
              table: '(sync)',
              id: '',
              kind: 'differs' as const,
              why: `the sync failed: ${JSON.stringify(
                Object.fromEntries(
                  Object.entries(summary.collections).filter(([, c]) => c.error || c.failedItems),
                ),
              )}`,
            },
          ],
        },
      };
    await this.changes.update(this.admin);
    const seen = this.firstSeen.get(profile) ?? new Map<string, number>();
    this.firstSeen.set(profile, seen);
    const at = now().getTime();
    const syncTimes = this.syncTimes.get(profile) ?? [];
    this.syncTimes.set(profile, [...syncTimes, at]);
    // Since when each parent has been in the replica without a break (one that left and came
    // back, a course the trainer was assigned to again, is new).
    const present = new Set<string>();
    for (const table of ['courses', 'users', 'clients'])
      for (const id of replica.sqlite.prepare(`SELECT id FROM ${table}`).pluck().all() as string[])
        present.add(`${table}:${id}`);
    for (const key of seen.keys()) if (!present.has(key)) seen.delete(key);
    for (const key of present) if (!seen.has(key)) seen.set(key, at);
    const view = await readServiceView(this.target(profile), this.viewOptions(profile));
    const catchingUp =
      summary.budget.stoppedEarly !== null ||
      Object.keys(summary.budget.deferred).length > 0 ||
      (summary.restore !== undefined && !summary.restore.complete);
    if (catchingUp) this.lastCatchingUpAt.set(profile, at);
    const comparison = compareReplica({
      sqlite: replica.sqlite,
      view,
      changes: this.changes,
      bounds: DEFAULT_SYNC_OPTIONS.freshnessHours,
      now: at,
      firstSeen: seen,
      syncStartedAt: startedAt,
      bornAt: this.syncTimes.get(profile)![0]!,
      syncTimes: this.syncTimes.get(profile)!,
      lastCatchingUpAt: this.lastCatchingUpAt.get(profile) ?? 0,
    });
    return { comparison, catchingUp, betweenPages };
  }
}

/**
 * The id of the first record of an answer that is a page of the list (its path ends so) with
 * more pages to come; null for any other answer.
 */
async function firstOfPage(
  list: PagedList,
  input: unknown,
  response: Response,
): Promise<string | null> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (!url.pathname.endsWith(`/${list}`) || !response.ok) return null;
  const body = (await response.clone().json()) as {
    data?: { id?: unknown }[];
    links?: { next?: unknown };
  };
  const id = Array.isArray(body.data) ? body.data[0]?.id : undefined;
  return typeof body.links?.next === 'string' && id !== undefined ? String(id) : null;
}
