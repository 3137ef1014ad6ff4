// The background scheduler wired to a replica and a service: what the desktop host, browser mode
// and `vorort sync --watch` start. Each attempt is one syncOnce; offline, only the probe is sent.
import type { ApiClient } from '../api';
import type { Replica } from '../db/open';
import type { SyncOptions, SyncProfile, SyncProgress } from '../pull/options';
import { replicaCounts } from './counts';
import { reachable } from './probe';
import { SyncScheduler, type SyncSchedulerOptions } from './scheduler';
import { syncOnce, type SyncOnceSummary } from './sync-once';

export { replicaCounts, type ReplicaCounts } from './counts';
export { reachable } from './probe';
export {
  SyncScheduler,
  REAL_TIMERS,
  type SchedulerTimers,
  type SyncRunOutcome,
  type SyncSchedulerOptions,
} from './scheduler';
export { syncOnce, type SyncOnceInput, type SyncOnceSummary } from './sync-once';

export interface ReplicaSchedulerOptions extends Omit<
  SyncSchedulerOptions<SyncOnceSummary>,
  'runOnce' | 'probe' | 'readCounts'
> {
  api: ApiClient;
  replica: Replica;
  profile: SyncProfile;
  /** The service's base URL, for the reachability probe. */
  baseUrl: string;
  /** More of the pull's options; intervalSeconds defaults to the scheduler's interval. */
  syncOptions?: Partial<Omit<SyncOptions, 'profile' | 'full'>>;
  /** The client's pace for the slot of each sync; default the API client's own (api.pace). */
  paceRequestsPerMinute?: number;
  /** Each sync's progress, besides the state's (a CLI draws bars from it). */
  onProgress?: (event: SyncProgress) => void;
  /** How long a push waits for retries within one sync. Default 10 s: later ones wait for the next sync. */
  pushMaxWaitMs?: number;
  probeTimeoutMs?: number;
}

export function replicaScheduler(options: ReplicaSchedulerOptions): SyncScheduler<SyncOnceSummary> {
  const {
    api,
    replica,
    profile,
    baseUrl,
    syncOptions,
    paceRequestsPerMinute,
    onProgress,
    pushMaxWaitMs,
    probeTimeoutMs,
    ...schedulerOptions
  } = options;
  const pace = paceRequestsPerMinute ?? api.pace;
  const intervalSeconds = (schedulerOptions.intervalMs ?? 5 * 60_000) / 1000;
  return new SyncScheduler<SyncOnceSummary>({
    ...schedulerOptions,
    runOnce: (signal, progress, asked) =>
      syncOnce({
        api,
        replica,
        profile,
        options: { intervalSeconds, ...syncOptions, asked },
        signal,
        pushMaxWaitMs: pushMaxWaitMs ?? 10_000,
        ...(pace === undefined ? {} : { paceRequestsPerMinute: pace }),
        onProgress: (event) => {
          progress(event);
          onProgress?.(event);
        },
      }),
    probe: (signal) => reachable(baseUrl, { signal, timeoutMs: probeTimeoutMs ?? 10_000 }),
    readCounts: () => replicaCounts(replica.sqlite),
  });
}
