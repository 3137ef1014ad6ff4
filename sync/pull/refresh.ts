// On-demand refresh (DESIGN rule 15): a screen that opens a course, a person or a client asks for
// that parent's per-parent collections now (a course's forms among them), ahead of the rotation and outside the sync's budget;
// at most once a minute per item, and one request set at a time per item.
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { RefreshResult } from '../contract';
import { CoreFailure } from '../core-error';
import type { Replica } from '../db/open';
import { prepared } from '../db/statements';
import { RequestBudget } from './budget';
import { refreshClientParticipants } from './collections/client-participants';
import { refreshCustomfields, refreshParticipations } from './collections/courses';
import { formOwnerKey, refreshForms, type FormOwner } from './collections/forms';
import { refreshPersonDetails } from './collections/person-details';
import { refreshEndpointTrainings } from './collections/personal';
import {
  countingOwnRequests,
  createPullContext,
  isGone,
  isSkip,
  type PullContext,
} from './context';
import { removeGoneParent } from './parents';
import { confirm, confirmedAt, type RotationScope } from './freshness';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions } from './options';

export type RefreshKind = RefreshResult['kind'];
export type Refresher = (
  /** `forPush`: the outbox's check before sending (a course's forms are not asked for then). */
  args: { kind: RefreshKind; id: string; forPush?: boolean },
  signal?: AbortSignal,
) => Promise<RefreshResult>;

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
  return ({ kind, id, forPush = false }, signal) => {
    const key = `${kind}:${id}`;
    let refresh = running.get(key);
    if (!refresh) {
      refresh = refreshOnce(
        input.api,
        input.replica,
        options,
        { kind, id, forPush },
        signal,
      ).finally(() => running.delete(key));
      running.set(key, refresh);
    }
    return refresh;
  };
}

async function refreshOnce(
  api: ApiClient,
  replica: Replica,
  options: SyncOptions,
  { kind, id, forPush }: { kind: RefreshKind; id: string; forPush: boolean },
  signal?: AbortSignal,
): Promise<RefreshResult> {
  const scope = SCOPE[kind];
  const now = options.now();
  const last = confirmedAt(replica.sqlite, scope, id);
  const result = { kind, id, gone: false, requests: 0 };
  if (last !== null && now.getTime() - Date.parse(last) < REFRESH_MIN_AGE_MS)
    return { ...result, refreshed: false, confirmedAt: last };
  const budget = new RequestBudget({ limit: null });
  const ctx = createPullContext({
    api,
    replica,
    options,
    syncedAt: now.toISOString(),
    budget,
    ...(signal ? { signal } : {}),
  });
  try {
    const present = await countingOwnRequests(
      api,
      () => budget.observe(),
      () => fetchParent(ctx, kind, id, forPush),
    );
    const at = now.toISOString();
    if (present) confirm(replica.sqlite, scope, [id], at);
    return {
      ...result,
      refreshed: true,
      gone: !present,
      confirmedAt: present ? confirmedAt(replica.sqlite, scope, id) : null,
      requests: budget.report().spent,
    };
  } catch (error) {
    throw failureOf(error);
  }
}

/**
 * Fetches and applies one parent's collections; false when the service no longer has the parent
 * (it is removed here too). A collection the account may not read (403) or the organisation has
 * not licensed (423) is left out; the others still come.
 */
async function fetchParent(
  ctx: PullContext,
  kind: RefreshKind,
  id: string,
  forPush: boolean,
): Promise<boolean> {
  const lists: (() => Promise<unknown>)[] =
    kind === 'course'
      ? [
          () => refreshParticipations(ctx, id, true),
          () => refreshCustomfields(ctx, id, true),
          // The course's forms, which its view shows: else they wait for the forms' rotation.
          // Not before a push: its check is about the participants and fields being sent.
          ...(forPush ? [] : [() => refreshOwnForms(ctx, { typ: 'k', id })]),
        ]
      : kind === 'client'
        ? [() => refreshClientParticipants(ctx, id, true)]
        : [
            () => refreshPersonDetails(ctx, id, true),
            // A person's forms, which their view shows: the rotation reads only the signed-in
            // person's (an office has thousands of people), so another's come when opened.
            () => refreshOwnForms(ctx, { typ: 'u', id }),
            ...(trainingsFromEndpoint(ctx, id)
              ? [
                  () =>
                    refreshEndpointTrainings(ctx, id).then(() =>
                      confirm(ctx.replica.sqlite, 'trainings', [id], ctx.syncedAt),
                    ),
                ]
              : []),
          ];
  const outcomes = await Promise.allSettled(lists.map((list) => list()));
  const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failures.some(isGone)) {
    removeGoneParent(
      ctx,
      kind === 'course' ? 'courses' : kind === 'client' ? 'clients' : 'users',
      id,
    );
    return false;
  }
  const failure = failures.find((error) => !isSkip(error));
  if (failure !== undefined) throw failure;
  if (failures.length === outcomes.length) throw failures[0];
  return true;
}

/** The forms of one object, confirmed for the forms' rotation. */
async function refreshOwnForms(ctx: PullContext, owner: FormOwner): Promise<void> {
  await refreshForms(ctx, owner, true);
  confirm(ctx.replica.sqlite, 'forms', [formOwnerKey(owner)], ctx.syncedAt);
}

function trainingsFromEndpoint(ctx: PullContext, id: string): boolean {
  return (
    prepared(ctx.replica.sqlite, 'SELECT trainings_from_endpoint FROM users WHERE id = ?')
      .pluck()
      .get(id) === 1
  );
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

/** At most this many courses are asked for before one push (each is one request set). */
const COURSES_BEFORE_PUSH = 10;

/**
 * Before a push, the courses whose participations or custom fields have changes waiting, changed
 * or tried since the course was last confirmed, are asked for again (DESIGN rule 2), the least
 * recently confirmed first: a change the office made meanwhile then meets the queued one as a
 * conflict, which waits for a person, instead of being overwritten by it unseen. The first
 * refresh that fails ends them (offline, throttled or refused: the push finds the same and says
 * so). Returns the requests spent, failed ones included (they come off the sync's budget).
 */
export async function refreshBeforePush(input: {
  api: ApiClient;
  refresher: Refresher;
  sqlite: Replica['sqlite'];
  signal?: AbortSignal;
}): Promise<number> {
  const courses = prepared(
    input.sqlite,
    `SELECT coalesce(p.course_id, f.course_id) AS course_id FROM outbox o
         LEFT JOIN participations p ON o.record_type = 'participation' AND p.id = o.record_id
         LEFT JOIN customfields f ON o.record_type = 'customfield' AND f.id = o.record_id
         LEFT JOIN confirmations c ON c.scope = 'course'
           AND c.id = coalesce(p.course_id, f.course_id)
       WHERE o.state IN ('pending', 'retrying', 'unknown')
         AND o.command IN ('participation.update', 'participation.cancel', 'customfield.update')
         AND coalesce(p.course_id, f.course_id) NOT LIKE 'local-%'
         AND (c.confirmed_at IS NULL OR c.confirmed_at < o.updated_at)
       GROUP BY 1 ORDER BY min(coalesce(c.confirmed_at, '')) LIMIT ?`,
  )
    .pluck()
    .all(COURSES_BEFORE_PUSH) as string[];
  let requests = 0;
  const stopCounting = input.api.observeRequests(() => {
    requests += 1;
  });
  try {
    for (const id of courses) {
      if (input.signal?.aborted) break;
      try {
        await input.refresher({ kind: 'course', id, forPush: true }, input.signal);
      } catch {
        break;
      }
    }
  } finally {
    stopCounting();
  }
  return requests;
}
