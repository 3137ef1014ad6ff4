// One sync: every collection of the profile, in an order where parents come before children.
import { format } from 'date-fns';
import type { ApiClient } from '../api';
import type { Replica } from '../db/open';
import {
  baseOf,
  benachrichtigungRow,
  clientParticipantRow,
  clientRow,
  courseTypeRow,
  helferstundenTypRow,
  kalenderRow,
  steuersatzRow,
  uvtRow,
} from '../db/rows';
import { ReplicaWriter } from '../db/writer';
import type { CollectionResult, PullContext } from './context';
import { forEachLimited, isPeriodicFullRun, PER_ITEM_CONCURRENCY, runCollection } from './context';
import { pullCourses, pullCustomfields, pullParticipations } from './collections/courses';
import { pullHours } from './collections/hours';
import { pullPersonDetails } from './collections/person-details';
import { pullPersonal } from './collections/personal';
import { pullSingleton, pullWhole, replaceChildren } from './collections/whole';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions, type SyncProgress } from './options';
import { setMeta } from './state';

export interface SyncSummary {
  ok: boolean;
  profile: SyncOptions['profile'];
  collections: Record<string, CollectionResult>;
  records: number;
  requests: number;
  seconds: number;
  startedAt: string;
  finishedAt: string;
}

export interface RunSyncInput {
  api: ApiClient;
  replica: Replica;
  options: Partial<SyncOptions> & Pick<SyncOptions, 'profile'>;
  /** Counts requests sent so far (wired to the api client's onRequest). */
  requestCount: () => number;
  onProgress?: (event: SyncProgress) => void;
  signal?: AbortSignal;
}

const COURSE_MODULE = [
  'course_types',
  'uvts',
  'clients',
  'courses',
  'participations',
  'customfields',
  'client_participants',
  'formulare',
];

export async function runSync(input: RunSyncInput): Promise<SyncSummary> {
  const started = Date.now();
  const options: SyncOptions = { ...DEFAULT_SYNC_OPTIONS, ...input.options };
  const ctx: PullContext = {
    api: input.api,
    replica: input.replica,
    writer: new ReplicaWriter(input.replica.sqlite),
    options,
    signal: input.signal,
    syncedAt: new Date(started).toISOString(),
    selfId: null,
    requestCount: input.requestCount,
    progress: input.onProgress ?? (() => {}),
    results: new Map(),
    writtenRelated: new Map(),
  };
  const requestsBefore = input.requestCount();
  // Many short transactions would each trigger a WAL checkpoint that rewrites the same hot index
  // pages; checkpoint once at the end instead.
  const checkpointEvery = input.replica.sqlite.pragma('wal_autocheckpoint', {
    simple: true,
  }) as number;
  input.replica.sqlite.pragma('wal_autocheckpoint = 0');
  try {
    return await pullEverything(ctx, input, started, requestsBefore);
  } finally {
    input.replica.sqlite.pragma(`wal_autocheckpoint = ${checkpointEvery}`);
    input.replica.sqlite.pragma('wal_checkpoint(PASSIVE)');
  }
}

async function pullEverything(
  ctx: PullContext,
  input: RunSyncInput,
  started: number,
  requestsBefore: number,
): Promise<SyncSummary> {
  const { options } = ctx;
  const office = options.profile === 'office';
  await pullSingleton(ctx, 'userinfo', async (signal) => {
    const info = await ctx.api.getUserInfo({ signal });
    ctx.selfId = info.sub;
    return { type: 'userinfo', id: info.sub, base: JSON.stringify(info) };
  });
  await pullSingleton(ctx, 'orga', async (signal) => {
    const { data } = await ctx.api.getOrganisation({ signal });
    return { type: data.type, id: data.id, base: baseOf(data) };
  });
  await pullPersonal(ctx);
  await pullPersonDetails(ctx);
  await pullWhole(ctx, {
    collection: 'kalender',
    table: 'kalender',
    fetch: (signal) => ctx.api.listKalender({ signal }),
    toRow: kalenderRow,
  });
  await pullWhole(ctx, {
    collection: 'benachrichtigungen',
    table: 'benachrichtigungen',
    fetch: (signal) => ctx.api.listBenachrichtigungen({ signal }),
    toRow: benachrichtigungRow,
  });
  await pullSingleton(ctx, 'helferstunden_einstellungen', async (signal) => {
    const { data, included } = await ctx.api.getHelferstundenEinstellungen({ signal });
    const types = included.filter((r) => r.type === 'helferstunden_typ');
    ctx.writer.transaction(() =>
      ctx.writer.upsert(
        'helferstunden_typen',
        types.map((t) => helferstundenTypRow(t, ctx.syncedAt)),
      ),
    );
    return { type: data.type, id: data.id, base: baseOf(data), included };
  });
  await pullWhole(ctx, {
    collection: 'steuersaetze',
    table: 'steuersaetze',
    fetch: (signal) => ctx.api.listSteuersaetze({ signal }),
    toRow: steuersatzRow,
  });

  await pullWhole(ctx, {
    collection: 'course_types',
    table: 'course_types',
    fetch: (signal) => ctx.api.listCourseTypes({ signal }),
    toRow: courseTypeRow,
  });
  if (ctx.results.get('course_types')?.skipped === 'unlicensed') {
    // The organisation has no course module (423): skip it, without failing the sync.
    for (const collection of COURSE_MODULE.slice(1))
      ctx.results.set(collection, {
        records: 0,
        deleted: 0,
        requests: 0,
        seconds: 0,
        skipped: 'unlicensed',
      });
  } else {
    await pullWhole(ctx, {
      collection: 'uvts',
      table: 'uvts',
      fetch: (signal) => ctx.api.listUvts({ signal }),
      toRow: uvtRow,
    });
    if (office)
      await pullWhole(ctx, {
        collection: 'clients',
        table: 'clients',
        fetch: (signal) => ctx.api.listClients({ signal }),
        toRow: clientRow,
      });
    await pullCourses(ctx);
    await pullParticipations(ctx);
    await pullCustomfields(ctx);
    if (office) await pullClientParticipants(ctx);
    await pullForms(ctx);
  }
  await pullHours(ctx);

  const finished = Date.now();
  const collections = Object.fromEntries(ctx.results);
  const summary: SyncSummary = {
    ok: Object.values(collections).every((r) => !r.error),
    profile: options.profile,
    collections,
    records: Object.values(collections).reduce((sum, r) => sum + r.records, 0),
    requests: input.requestCount() - requestsBefore,
    seconds: (finished - started) / 1000,
    startedAt: ctx.syncedAt,
    finishedAt: new Date(finished).toISOString(),
  };
  setMeta(input.replica.sqlite, 'profile', options.profile);
  if (ctx.selfId) setMeta(input.replica.sqlite, 'self_id', ctx.selfId);
  setMeta(
    input.replica.sqlite,
    'last_sync',
    JSON.stringify({ at: summary.finishedAt, ok: summary.ok, seconds: summary.seconds }),
  );
  if (summary.ok) setMeta(input.replica.sqlite, 'last_successful_sync_at', summary.finishedAt);
  refreshQueryPlannerStatistics(input.replica);
  return summary;
}

/**
 * Lets SQLite's planner see the data's shape (e.g. that most people are 'aktiv', so a name range
 * beats the status index). A bounded ANALYZE: milliseconds even on a large replica.
 */
function refreshQueryPlannerStatistics(replica: Replica): void {
  replica.sqlite.pragma('analysis_limit = 1000');
  replica.sqlite.pragma('optimize = 0x10002');
}

/** Participants of each client (they may belong to courses outside the window), replaced per client. */
function pullClientParticipants(ctx: PullContext) {
  return runCollection(ctx, 'client_participants', async (state) => {
    const fullScan = isPeriodicFullRun(ctx, state);
    const clientIds = ctx.replica.sqlite
      .prepare('SELECT id FROM clients ORDER BY id')
      .pluck()
      .all() as string[];
    let records = 0;
    let deleted = 0;
    await forEachLimited(clientIds, PER_ITEM_CONCURRENCY, async (clientId) => {
      const outcome = await replaceChildren(
        ctx,
        {
          collection: 'client_participants',
          table: 'client_participants',
          toRow: (r, syncedAt) => clientParticipantRow(r, clientId, syncedAt),
          parent: { column: 'client_id', id: clientId },
          useDigests: !fullScan,
        },
        (knownDigest) =>
          ctx.api.listClientParticipants(clientId, {
            signal: ctx.signal,
            ...(knownDigest ? { knownDigest } : {}),
          }),
      );
      records += outcome.records;
      deleted += outcome.deleted;
    });
    const orphans = ctx.writer.transaction(
      () =>
        ctx.replica.sqlite
          .prepare(
            'DELETE FROM client_participants WHERE client_id NOT IN (SELECT id FROM clients)',
          )
          .run().changes,
    );
    return { records, deleted: deleted + orphans, fullScan };
  });
}

/** Forms of the own person and of every course that has not ended, replaced per object. */
function pullForms(ctx: PullContext) {
  return runCollection(ctx, 'formulare', async () => {
    const today = format(ctx.options.today(), 'yyyy-MM-dd');
    const courseIds = ctx.replica.sqlite
      .prepare('SELECT id FROM courses WHERE last_date >= ? ORDER BY id')
      .pluck()
      .all(today) as string[];
    const objects: { typ: 'u' | 'k'; id: string }[] = [
      ...(ctx.selfId ? [{ typ: 'u' as const, id: ctx.selfId }] : []),
      ...courseIds.map((id) => ({ typ: 'k' as const, id })),
    ];
    let records = 0;
    await forEachLimited(objects, PER_ITEM_CONCURRENCY, async (object) => {
      const forms = await ctx.api.listFormulare(object.typ, object.id, { signal: ctx.signal });
      ctx.writer.transaction(() => {
        ctx.writer
          .statement('DELETE FROM formulare WHERE objekt_typ = ? AND objekt_id = ?')
          .run(object.typ, object.id);
        ctx.writer.upsert(
          'formulare',
          forms.map((form, position) => ({
            objekt_typ: object.typ,
            objekt_id: object.id,
            position,
            titel: form.titel,
            aktion: JSON.stringify(form.aktion ?? null),
            synced_at: ctx.syncedAt,
          })),
        );
      });
      records += forms.length;
    });
    return { records, deleted: 0, fullScan: true };
  });
}
