// A service restored from a backup (DESIGN rule 8). A restore rolls back the data, not the
// clock: no watermark goes backwards, incremental pulls come back empty, and the replica keeps
// what the service no longer has. So it is noticed by content: a record the replica saw with
// the change time (`updated_at`) T that the service now shows older than T. The writer compares
// the change times of every record whose base changed (sync/db/upsert.ts, one place for every
// collection); what comes every sync anyway gives it records to compare: the course list, the
// near window's participants, the own record's trainings, the incremental hours, which reach
// back to the newest hour entry held (the anchor: no request more, see HoursAnchor).
//
// A restore noticed is answered with a resync: every watermark cleared, every confirmation
// forgotten, the id scans due. The next syncs read everything again as a first sync does, within
// their budget and in its order (the own and recent data first), the rotations taking every
// item not yet read again as far as the budget goes, and the scans remove what the service no
// longer has. The restore is recorded (replica_meta `restore`) and shown by every sync's summary
// and by the status until the resync is complete.
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { ApiError, type ApiClient, type Page } from '../api';
import { AREAS, type RestoreEvidence, type RestoreStatus } from '../contract';
import { baseOf, helferstunden, type ServiceResource } from '../resources';
import type { OlderVersion } from '../db/upsert';
import type { ReplicaWriter } from '../db/writer';
import { endsTheItemLoop, isGone, type PullContext } from './context';
import { unconfirmedItems } from './freshness';
import type { SyncProfile } from './options';
import { setMeta } from './state';

const RESTORE_KEY = 'restore';
const ANCHOR_KEY = 'hours_anchor';

/** A restore as replica_meta keeps it. */
export interface RestoreRecord {
  detectedAt: string;
  /** The detecting sync's synced_at: versions written since were read from the restored service. */
  syncedAt: string;
  evidence: RestoreEvidence;
  /** Set once everything was read again; until then a resync is under way. */
  completedAt: string | null;
}

/** A sync's word on the restore: present when it noticed one, or a resync was under way. */
export interface RestoreNotice extends RestoreStatus {
  /** This sync noticed it (the resync begins with the next sync). */
  noticedNow: boolean;
  /** This sync completed the resync: the replica holds what the service holds again. */
  complete: boolean;
}

export function readRestore(sqlite: Sqlite): RestoreRecord | null {
  const value = prepared(sqlite, 'SELECT value FROM replica_meta WHERE key = ?')
    .pluck()
    .get(RESTORE_KEY) as string | undefined;
  if (value === undefined) return null;
  try {
    return JSON.parse(value) as RestoreRecord;
  } catch {
    return null;
  }
}

/** The restore whose resync is under way, if any. */
export function pendingResync(sqlite: Sqlite): RestoreRecord | null {
  const restore = readRestore(sqlite);
  return restore && restore.completedAt === null ? restore : null;
}

/**
 * Clears what lets a sync skip anything, in one transaction: every watermark and last success
 * (the incremental collections read whole, the reference lists due at once, every "as of" shown
 * as not yet confirmed), the id scans' rhythm and the hours' scan cycle under way, every
 * confirmation and rotation credit (every item due), the digests of answers applied (nothing is
 * skipped as known), and the hours' anchor.
 */
export function startResync(sqlite: Sqlite, restore: RestoreRecord): void {
  sqlite.transaction(() => {
    prepared(
      sqlite,
      `UPDATE sync_state SET watermark = NULL, last_success_at = NULL, last_full_scan_at = NULL,
           syncs_since_full_scan = 0, progress = NULL`,
    ).run();
    prepared(
      sqlite,
      `UPDATE users SET details_watermark = NULL, trainings_watermark = NULL
         WHERE details_watermark IS NOT NULL OR trainings_watermark IS NOT NULL`,
    ).run();
    for (const table of ['confirmations', 'rotations', 'answer_digests', 'scan_seen'])
      sqlite.prepare(`DELETE FROM ${table}`).run();
    prepared(sqlite, 'DELETE FROM replica_meta WHERE key = ?').run(ANCHOR_KEY);
    setMeta(sqlite, RESTORE_KEY, JSON.stringify(restore));
  })();
}

/** The collections a sync keeps (every area's, and the hours' history windows). */
const COLLECTIONS: readonly string[] = [...Object.values(AREAS).flat(), 'helferstunden_history'];

/**
 * What the resync has not read again yet: the collections not synced since (their id scans,
 * where they have one, not complete: the people's list, the hours' windows) and the rotations'
 * items not confirmed since. Areas the account may not read do not count.
 */
export function resyncOutstanding(
  sqlite: Sqlite,
  profile: SyncProfile,
): RestoreStatus['outstanding'] {
  const names = COLLECTIONS.filter((c) => pulledFor(profile, c));
  const states = sqlite
    .prepare(
      `SELECT collection, last_success_at, last_full_scan_at FROM sync_state
       WHERE collection IN (${names.map(() => '?').join(', ')}) AND unavailable IS NULL
       ORDER BY collection`,
    )
    .all(...names) as {
    collection: string;
    last_success_at: string | null;
    last_full_scan_at: string | null;
  }[];
  const scanned = (collection: string) =>
    states.some((s) => s.collection === collection && s.last_full_scan_at !== null);
  const waiting = states.flatMap(({ collection, last_success_at }) => {
    if (last_success_at === null) return [collection];
    // The id scans: the people's list whole; the hours' cycle of windows complete (the first
    // load may complete it, else the history windows do).
    if (collection === 'personal' && !scanned('personal')) return [collection];
    if (
      collection === 'helferstunden' &&
      !scanned('helferstunden') &&
      !scanned('helferstunden_history')
    )
      return [collection];
    return [];
  });
  return { collections: waiting, items: unconfirmedItems(sqlite, profile) };
}

/** Collections only the office profile syncs. */
const OFFICE_ONLY: ReadonlySet<string> = new Set(['clients', 'client_participants']);

/** Whether a sync with this profile reads the collection (no profile yet: any may). */
export function pulledFor(profile: SyncProfile | null, collection: string): boolean {
  return profile !== 'trainer' || !OFFICE_ONLY.has(collection);
}

/**
 * One sync's watch for a restore: the older versions its writer finds, and the hours' anchor.
 * `conclude` at the end of the sync records a restore noticed and starts the resync, or checks
 * whether the resync under way is complete.
 */
export class RestoreWatch {
  private readonly older: OlderVersion[] = [];
  private readonly anchor: HoursAnchor;
  private concluded = false;

  constructor(
    private readonly sqlite: Sqlite,
    overlapSeconds: number,
  ) {
    this.anchor = new HoursAnchor(sqlite, overlapSeconds * 1000);
  }

  /** Hears of the older versions the sync's writer finds. */
  listen(writer: ReplicaWriter): void {
    writer.onOlderVersion((older) => this.older.push(older));
  }

  /** The client the sync pulls through: the hours' incremental pulls reach back to the anchor. */
  api(api: ApiClient): ApiClient {
    return this.anchor.api(api);
  }

  /** After the hours' pull (see HoursAnchor.probe). */
  probeHours(ctx: PullContext): Promise<void> {
    return this.anchor.probe(ctx);
  }

  /**
   * At the end of a sync (nothing runs any more), also of one that failed (what it noticed is not
   * noticed again: the older version is written): a restore noticed starts the resync; a resync
   * under way is checked for completion. Answers the summary's word on it, if any.
   */
  conclude(ctx: PullContext): RestoreNotice | undefined {
    if (this.concluded) return undefined;
    this.concluded = true;
    this.anchor.save();
    const pending = pendingResync(this.sqlite);
    const profile = ctx.options.profile;
    // During a resync, records read again are expected to be older than the replica had them;
    // only a version read from the restored service (since the restore was noticed) that goes
    // back again is a new restore.
    const older = this.older.find((o) => !pending || o.seenSyncedAt >= pending.syncedAt);
    if (older) {
      const restore: RestoreRecord = {
        detectedAt: ctx.options.now().toISOString(),
        syncedAt: ctx.syncedAt,
        evidence: {
          kind: 'older-version',
          table: older.table,
          id: older.id,
          seenUpdatedAt: older.seenUpdatedAt,
          shownUpdatedAt: older.shownUpdatedAt,
        },
        completedAt: null,
      };
      startResync(this.sqlite, restore);
      return {
        ...statusOf(restore, resyncOutstanding(this.sqlite, profile)),
        noticedNow: true,
        complete: false,
      };
    }
    if (!pending) return undefined;
    const outstanding = resyncOutstanding(this.sqlite, profile);
    const complete = outstanding.collections.length === 0 && outstanding.items === 0;
    if (complete)
      setMeta(
        this.sqlite,
        RESTORE_KEY,
        JSON.stringify({ ...pending, completedAt: ctx.options.now().toISOString() }),
      );
    return { ...statusOf(pending, outstanding), noticedNow: false, complete };
  }
}

export function statusOf(
  restore: RestoreRecord,
  outstanding: RestoreStatus['outstanding'],
): RestoreStatus {
  return { detectedAt: restore.detectedAt, evidence: restore.evidence, outstanding };
}

/** The hours' probe: this many entries asked for by id at most per sync. */
const MAX_PROBES = 3;

/**
 * The hours give every sync a record to compare at no cost: the incremental pull asks for the
 * entries changed since the watermark or since just before the newest entry held (the anchor),
 * whichever is earlier, so its answer holds the anchor again (an unchanged record is not
 * rewritten). When the anchor is missing from that answer, the service dropped it or shows it
 * older than the replica had it: one request for it by id tells which, through the writer (an
 * older version is noticed there; gone, it is removed as any record the service answers 404
 * for, and the next newest entry is asked for).
 */
class HoursAnchor {
  private anchor: { id: string; updatedAt: string; ms: number } | null = null;
  /** replica_meta has an anchor entry (possibly "none"): no scan for one is needed. */
  private known = false;
  private asked = false;
  private came = false;
  private newest: { id: string; updatedAt: string; ms: number } | null = null;
  /** The anchor as replica_meta holds it: written again only when it moved (a write per sync costs). */
  private saved: string | undefined;

  constructor(
    private readonly sqlite: Sqlite,
    private readonly overlapMs: number,
  ) {
    const value = prepared(sqlite, 'SELECT value FROM replica_meta WHERE key = ?')
      .pluck()
      .get(ANCHOR_KEY) as string | undefined;
    if (value === undefined) return;
    this.saved = value;
    this.known = true;
    try {
      const stored = JSON.parse(value) as { id: string; updatedAt: string } | null;
      if (stored) this.anchor = withTime(stored.id, stored.updatedAt);
    } catch {
      // unreadable: found again by a scan
      this.known = false;
    }
  }

  api(api: ApiClient): ApiClient {
    return {
      ...api,
      listHelferstunden: (options = {}) => {
        if (options.changedSince === undefined) return this.watch(api.listHelferstunden(options));
        this.asked = true;
        const since =
          typeof options.changedSince === 'string'
            ? Date.parse(options.changedSince)
            : options.changedSince.getTime();
        const reach = this.anchor ? this.anchor.ms - this.overlapMs : Infinity;
        if (!(reach < since)) return this.watch(api.listHelferstunden(options), 'incremental');
        return this.watch(
          api.listHelferstunden({ ...options, changedSince: new Date(reach) }),
          'reached back',
        );
      },
    };
  }

  /**
   * Notes the newest entry of every answer and whether an incremental answer held the anchor.
   * An answer that reached back hands on only the entries that differ from the replica's: the
   * anchor (and what changed just before it) is read again to be compared, not as a change.
   */
  private async *watch<R extends ServiceResource>(
    pages: AsyncGenerator<Page<R>>,
    kind: 'whole' | 'incremental' | 'reached back' = 'whole',
  ): AsyncGenerator<Page<R>> {
    for await (const page of pages) {
      for (const entry of page.data) this.note(entry);
      if (kind !== 'whole' && this.anchor) {
        const { id } = this.anchor;
        // An unreadable copy of it came too: nothing to ask for.
        if ([...page.data, ...page.quarantined].some((entry) => entry.id === id)) this.came = true;
      }
      if (kind !== 'reached back') {
        yield page;
        continue;
      }
      const held = prepared(this.sqlite, 'SELECT base FROM helferstunden WHERE id = ?').pluck();
      const changed = page.data.filter((entry) => held.get(entry.id) !== baseOf(entry));
      yield changed.length === page.data.length ? page : { ...page, data: changed };
    }
  }

  private note(entry: ServiceResource): void {
    const updatedAt = entry.attributes?.updated_at;
    if (typeof updatedAt !== 'string') return;
    const candidate = withTime(entry.id, updatedAt);
    if (candidate && (!this.newest || candidate.ms > this.newest.ms)) this.newest = candidate;
  }

  /**
   * After the hours' pull: when it was incremental and its answer lacked the anchor, the anchor
   * is asked for by id (tier 2: within the budget; the next sync asks when this one cannot).
   */
  async probe(ctx: PullContext): Promise<void> {
    const result = ctx.results.get('helferstunden');
    if (!this.asked || this.came || !result || result.error || result.skipped) return;
    for (let probes = 0; probes < MAX_PROBES && this.anchor; probes += 1) {
      if (!ctx.budget.take(1, 'helferstunden')) return;
      const { id } = this.anchor;
      try {
        const answer = await ctx.api.getHelferstunden(id, { signal: ctx.signal });
        ctx.writer.transaction(() =>
          ctx.writer.upsert('helferstunden', [helferstunden.row(answer.data, ctx.syncedAt)]),
        );
        // Not older (else the writer noticed it): there, but out of the incremental pull's reach
        // (its change time and the service's own disagree). Not asked for again: the next
        // anchor is the newest entry an answer brings.
        this.anchor = null;
        return;
      } catch (error) {
        // Gone, or no longer ours to read (an entry moved to another person): not in this
        // replica any more either, and the next newest is the anchor.
        const notOurs = isGone(error) || (error instanceof ApiError && error.kind === 'forbidden');
        if (!notOurs && endsTheItemLoop(ctx, error)) throw error;
        // This one request failed: the next sync asks again.
        if (!notOurs) return;
        ctx.writer.transaction(() => ctx.writer.deleteWhereIn('helferstunden', 'id', [id]));
        this.anchor = this.newestHeld();
        this.known = true;
      }
    }
  }

  /**
   * The anchor for the next sync: the newest of the anchor and the entries this sync's answers
   * brought; without either, the newest entry held (a scan: once, or after the anchor was gone).
   */
  save(): void {
    const candidates = [this.anchor, this.newest].filter(
      (a): a is NonNullable<typeof a> => a !== null,
    );
    let next = candidates.sort((a, b) => b.ms - a.ms)[0] ?? null;
    if (!next && !this.known) next = this.newestHeld();
    const value = JSON.stringify(next && { id: next.id, updatedAt: next.updatedAt });
    if (value === this.saved) return;
    setMeta(this.sqlite, ANCHOR_KEY, value);
    this.saved = value;
  }

  /** The entry held with the newest change time (no local changes): a scan of the table. */
  private newestHeld() {
    const rows = this.sqlite
      .prepare(
        `SELECT id, json_extract(base, '$.attributes.updated_at') FROM helferstunden
         WHERE local_state IS NULL AND json_valid(base)`,
      )
      .raw()
      .all() as [string, unknown][];
    let best: { id: string; updatedAt: string; ms: number } | null = null;
    for (const [id, updatedAt] of rows) {
      const candidate = typeof updatedAt === 'string' ? withTime(id, updatedAt) : null;
      if (candidate && (!best || candidate.ms > best.ms)) best = candidate;
    }
    return best;
  }
}

function withTime(id: string, updatedAt: string) {
  const ms = Date.parse(updatedAt);
  return Number.isFinite(ms) ? { id, updatedAt, ms } : null;
}
