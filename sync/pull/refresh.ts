// On-demand refresh (DESIGN rule 15): a screen that opens a course, a person or a client asks for
// that parent's per-parent collections now, ahead of the rotation and outside the sync's budget;
// at most once a minute per item, and one request set at a time per item.
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { RefreshResult } from '../contract';
import { CoreFailure } from '../core-error';
import type { Replica } from '../db/open';
import { RequestBudget } from './budget';
import { refreshClientParticipants } from './collections/client-participants';
import { refreshCustomfields, refreshParticipations } from './collections/courses';
import { refreshPersonDetails } from './collections/person-details';
import { refreshEndpointTrainings } from './collections/personal';
import { createPullContext, isGone, type PullContext } from './context';
import { confirm, confirmedAt, type RotationScope } from './freshness';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions } from './options';

export type RefreshKind = RefreshResult['kind'];
export type Refresher = (args: { kind: RefreshKind; id: string }) => Promise<RefreshResult>;

/** An item confirmed more recently than this is not asked for again. */
export const REFRESH_MIN_AGE_MS = 60_000;

const SCOPE: Record<RefreshKind, RotationScope> = {
  course: 'course',
  person: 'person',
  client: 'client',
};

export function createRefresher(input: {
  api: ApiClient;
  replica: Replica;
  options: Partial<SyncOptions> & Pick<SyncOptions, 'profile'>;
}): Refresher {
  const options: SyncOptions = { ...DEFAULT_SYNC_OPTIONS, ...input.options };
  const running = new Map<string, Promise<RefreshResult>>();
  return ({ kind, id }) => {
    const key = `${kind}:${id}`;
    let refresh = running.get(key);
    if (!refresh) {
      refresh = refreshOnce(input.api, input.replica, options, kind, id).finally(() =>
        running.delete(key),
      );
      running.set(key, refresh);
    }
    return refresh;
  };
}

async function refreshOnce(
  api: ApiClient,
  replica: Replica,
  options: SyncOptions,
  kind: RefreshKind,
  id: string,
): Promise<RefreshResult> {
  const scope = SCOPE[kind];
  const now = options.now();
  const last = confirmedAt(replica.sqlite, scope, id);
  const result = { kind, id, gone: false, requests: 0 };
  if (last !== null && now.getTime() - Date.parse(last) < REFRESH_MIN_AGE_MS)
    return { ...result, refreshed: false, confirmedAt: last };
  const budget = new RequestBudget({ limit: null });
  const stopObserving = api.observeRequests(() => budget.observe());
  const ctx = createPullContext({
    api,
    replica,
    options,
    syncedAt: now.toISOString(),
    budget,
  });
  try {
    const present = await fetchParent(ctx, kind, id);
    if (present) confirm(replica.sqlite, scope, [id], now.toISOString());
    return {
      ...result,
      refreshed: true,
      gone: !present,
      confirmedAt: present ? now.toISOString() : null,
      requests: budget.report().spent,
    };
  } catch (error) {
    throw failureOf(error);
  } finally {
    stopObserving();
  }
}

/** Fetches and applies one parent's collections; false when the service no longer has the parent. */
async function fetchParent(ctx: PullContext, kind: RefreshKind, id: string): Promise<boolean> {
  if (kind === 'person') {
    const fromEndpoint = ctx.replica.sqlite
      .prepare('SELECT trainings_from_endpoint FROM users WHERE id = ?')
      .pluck()
      .get(id);
    const [details] = await Promise.all([
      refreshPersonDetails(ctx, id, true),
      fromEndpoint === 1 ? refreshEndpointTrainings(ctx, id) : undefined,
    ]);
    return details.present;
  }
  try {
    if (kind === 'client') await refreshClientParticipants(ctx, id, true);
    else
      await Promise.all([refreshParticipations(ctx, id, true), refreshCustomfields(ctx, id, true)]);
    return true;
  } catch (error) {
    if (!isGone(error)) throw error;
    const table = kind === 'client' ? 'clients' : 'courses';
    ctx.writer.transaction(() => ctx.writer.deleteWhereIn(table, 'id', [id]));
    return false;
  }
}

/** A failed refresh in words: offline, the service's own error, or what went wrong here. */
function failureOf(error: unknown): CoreFailure {
  if (error instanceof ApiError) {
    if (['network', 'timeout', 'cancelled'].includes(error.kind))
      return new CoreFailure('offline', {
        de: `Der Dienst ist nicht erreichbar; es gilt der Stand der letzten Synchronisierung (${error.message}).`,
        en: `The service cannot be reached; the data is as of the last sync (${error.message}).`,
      });
    return new CoreFailure('service_error', {
      de: `Der Dienst hat die Aktualisierung abgelehnt: ${error.message}`,
      en: `The service refused the refresh: ${error.message}`,
    });
  }
  return new CoreFailure('internal', {
    de: `Die Aktualisierung ist fehlgeschlagen: ${(error as Error).message}`,
    en: `The refresh failed: ${(error as Error).message}`,
  });
}
