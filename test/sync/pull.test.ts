// The replica and the pull against the real sandbox over HTTP, with real SQLite files.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { ApiError, createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { courseWindow } from '../../sync/pull/collections/courses';
import { runSync } from '../../sync/pull/engine';
import {
  DEFAULT_SYNC_OPTIONS,
  type SyncOptions,
  EVERY_ITEM_EVERY_SYNC,
} from '../../sync/pull/options';
import {
  expectOfficeReplica,
  expectReplicaToMatch,
  expectTrainerReplica,
  list,
  officeExpectation,
  type OracleTarget,
} from '../support/service-oracle';
import { dataTables, expectNoDanglingReferences } from '../support/replica-snapshot';
import { temporaryFiles } from '../support/temp-files';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const tempFile = temporaryFiles('pull');

function tokenOf(sandbox: Sandbox, role: 'office' | 'trainer' | 'member') {
  const user = sandbox.users.find((u) => u.role === role);
  if (!user) throw new Error(`no ${role} user`);
  return user;
}

async function syncOnce(
  sandbox: Sandbox,
  replica: Replica,
  options: Partial<SyncOptions> = {},
  token = tokenOf(sandbox, 'office').accessToken,
) {
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    tokens: staticToken(token),
    maxRetries: 1,
  });
  const summary = await runSync({
    api,
    replica,
    options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC, ...options },
  });
  expectNoDanglingReferences(replica.sqlite, summary.profile);
  return summary;
}

const window = courseWindow(DEFAULT_SYNC_OPTIONS);
const hoursFrom = DEFAULT_SYNC_OPTIONS.hoursHistoryStart;

async function write(target: OracleTarget, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.token}`,
      'content-type': 'application/vnd.api+json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : ((await response.json()) as { data: { id: string } });
}

describe.each([
  { label: 'at the root', prefix: '' },
  { label: 'under /core/v1', prefix: '/core/v1' },
])('office sync $label', ({ prefix }) => {
  let sandbox: Sandbox;
  let target: OracleTarget;
  let replica: Replica;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 11, prefix });
    target = { baseUrl: sandbox.baseUrl, token: tokenOf(sandbox, 'office').accessToken };
    replica = openReplica(tempFile('office.sqlite'));
  });
  afterAll(async () => {
    await replica.close();
    await sandbox.close();
  });

  it('holds exactly what the service holds after the first sync', async () => {
    const summary = await syncOnce(sandbox, replica);
    expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
    await expectOfficeReplica(replica.sqlite, target);
  });

  it('transfers no records of incremental collections when nothing changed', async () => {
    // Not the day's id scan of the people, which lists them all.
    const summary = await syncOnce(sandbox, replica, {
      freshnessHours: { ...EVERY_ITEM_EVERY_SYNC.freshnessHours, deletions: 24 },
    });
    expect(summary.ok).toBe(true);
    expect(summary.collections.personal?.records).toBe(0);
    expect(summary.collections.helferstunden?.records).toBe(0);
  });

  it('follows creates, updates and deletes made on the service by someone else', async () => {
    const people = await list(target, '/personal');
    const [changed, removed] = people;
    const trainee = people.find(
      (p) => ((p.attributes.ausbildungen as unknown[]) ?? []).length > 0,
    )!;
    const trainingId = String((trainee.attributes.ausbildungen as { id: string }[])[0]!.id);
    await write(target, 'POST', '/personal', {
      data: { type: 'user', attributes: { vorname: 'Neu', nachname: 'Angelegt' } },
    });
    await write(target, 'PATCH', `/personal/${changed!.id}`, {
      data: { type: 'user', id: changed!.id, attributes: { ort: 'Geändertstadt' } },
    });
    await write(target, 'DELETE', `/personal/${trainee.id}/ausbildungen/${trainingId}`);
    sandbox.store.remove('user', removed!.id);

    // Entries of the person removed above cannot be changed any more (the service checks the user).
    const hours = (
      await list(target, `/helferstunden?filter[eigene]=false&filter[von]=${hoursFrom}`)
    ).filter(
      (entry) =>
        (entry.relationships?.user as { data?: { id?: string } } | undefined)?.data?.id !==
        removed!.id,
    );
    await write(target, 'PATCH', `/helferstunden/${hours[0]!.id}`, {
      data: { type: 'helferstunden', id: hours[0]!.id, attributes: { stunden: 7.5 } },
    });
    await write(target, 'DELETE', `/helferstunden/${hours[1]!.id}`);

    const courses = await list(
      target,
      `/courses?filter[from]=${window.from}&filter[until]=${window.until}`,
    );
    const course = courses.find(
      (c) => c.attributes.status === 'ready' || c.attributes.status === 'draft',
    )!;
    await write(target, 'POST', `/courses/${course.id}/participations`, {
      data: {
        type: 'participation',
        attributes: { first_name: 'Erika', last_name: 'Nachgemeldet' },
      },
      included: [],
    });
    const fields = await list(target, `/courses/${course.id}/customfields`);
    if (fields[0])
      await write(target, 'DELETE', `/courses/${course.id}/customfields/${fields[0].id}`);
    await write(target, 'POST', `/courses/${course.id}/customfields`, {
      data: { type: 'customfield', attributes: { name: 'Parkplatz', field_type: 'checkbox' } },
    });
    sandbox.store.remove('course', courses.find((c) => c.id !== course.id)!.id);
    const calendars = await list(target, '/kalender');
    if (calendars[0]) await write(target, 'DELETE', `/kalender/${calendars[0].id}`);
    const notifications = await list(target, '/benachrichtigungen');
    await write(target, 'PATCH', `/benachrichtigungen/${notifications[0]!.id}`, {
      data: { type: 'benachrichtigung', id: notifications[0]!.id, attributes: { gelesen: true } },
    });

    // An ordinary sync brings creates and updates; deletions of people and hours need the full id scan.
    const incremental = await syncOnce(sandbox, replica);
    expect(incremental.ok, JSON.stringify(incremental.collections)).toBe(true);
    const ort = replica.sqlite
      .prepare('SELECT ort FROM users WHERE id = ?')
      .pluck()
      .get(changed!.id);
    expect(ort).toBe('Geändertstadt');
    expect(
      replica.sqlite
        .prepare('SELECT count(*) FROM ausbildungen WHERE id = ?')
        .pluck()
        .get(trainingId),
    ).toBe(0);
    // Collections replaced per parent are exact after an ordinary sync too, though unchanged
    // answers were skipped by their digest.
    const expected = await officeExpectation(target, window, hoursFrom);
    const perParent = [
      'participations',
      'customfields',
      'ehrungen',
      'ueberpruefungen',
      'kalender',
      'benachrichtigungen',
    ];
    expectReplicaToMatch(replica.sqlite, {
      tables: Object.fromEntries(perParent.map((table) => [table, expected.tables[table]!])),
    });

    const full = await syncOnce(sandbox, replica, { full: true });
    expect(full.ok).toBe(true);
    await expectOfficeReplica(replica.sqlite, target);
  });

  it('applies an unchanged answer again when the rows it gave are gone locally', async () => {
    const courseId = replica.sqlite
      .prepare(
        'SELECT course_id FROM participations GROUP BY course_id ORDER BY count(*) DESC LIMIT 1',
      )
      .pluck()
      .get() as string;
    const before = replica.sqlite
      .prepare('SELECT count(*) FROM participations WHERE course_id = ?')
      .pluck()
      .get(courseId);
    replica.sqlite.prepare('DELETE FROM participations WHERE course_id = ?').run(courseId);
    const summary = await syncOnce(sandbox, replica);
    expect(summary.ok).toBe(true);
    expect(
      replica.sqlite
        .prepare('SELECT count(*) FROM participations WHERE course_id = ?')
        .pluck()
        .get(courseId),
    ).toBe(before);
  });

  it('skips answers identical to the ones applied last time (the near window every sync)', async () => {
    // Every course in the near window: the rotation applies its answers whole on purpose.
    const summary = await syncOnce(sandbox, replica, {
      nearWindowDaysBack: 3650,
      nearWindowDaysAhead: 3650,
    });
    expect(summary.collections.participations?.requests).toBeGreaterThan(0);
    expect(summary.collections.participations?.records).toBe(0);
    expect(summary.collections.customfields?.records).toBe(0);
  });

  it("skips the course window's list when it is the answer applied last time, unless a course row went", async () => {
    await syncOnce(sandbox, replica);
    const again = await syncOnce(sandbox, replica);
    expect(again.collections.courses?.requests).toBe(1);
    expect(again.collections.courses?.records).toBe(0);
    // Nothing written: the screens that read courses, their dates or trainers do not read again.
    expect(again.tables).not.toContain('courses');
    expect(again.tables).not.toContain('course_dates');
    expect(again.tables).not.toContain('course_trainers');

    const courseId = replica.sqlite
      .prepare('SELECT id FROM courses ORDER BY id LIMIT 1')
      .pluck()
      .get() as string;
    replica.sqlite.prepare('DELETE FROM courses WHERE id = ?').run(courseId);
    const healed = await syncOnce(sandbox, replica);
    expect(healed.collections.courses?.records).toBeGreaterThan(0);
    expect(
      replica.sqlite.prepare('SELECT count(*) FROM courses WHERE id = ?').pluck().get(courseId),
    ).toBe(1);
  });
});

describe('trainer sync', () => {
  it('holds the own courses with their participants and the own hours', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 5 });
    const replica = openReplica(tempFile('trainer.sqlite'));
    try {
      const trainer = tokenOf(sandbox, 'trainer');
      const summary = await syncOnce(sandbox, replica, { profile: 'trainer' }, trainer.accessToken);
      expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
      const target = { baseUrl: sandbox.baseUrl, token: trainer.accessToken };
      const courses = await expectTrainerReplica(replica.sqlite, target, trainer.id);
      expect(courses.length).toBeGreaterThan(0);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});

describe('paging', () => {
  it('gives the same replica with links.next paging as without', async () => {
    const dump = async (pageSize?: number) => {
      const sandbox = await startSandbox({
        port: 0,
        scale: 'small',
        seed: 21,
        ...(pageSize ? { pageSize } : {}),
      });
      const replica = openReplica(tempFile(`paging-${pageSize ?? 'off'}.sqlite`));
      try {
        const summary = await syncOnce(sandbox, replica);
        expect(summary.ok).toBe(true);
        return dumpData(replica);
      } finally {
        await replica.close();
        await sandbox.close();
      }
    };
    const [unpaged, paged] = [await dump(), await dump(7)];
    expect(paged).toEqual(unpaged);
  });
});

/** Every table's rows without the columns that record when (not what) was synced, with the sandbox's port masked. */
function dumpData(replica: Replica): Record<string, unknown[]> {
  const maskOrigin = (value: unknown) =>
    typeof value === 'string' ? value.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'ORIGIN') : value;
  const skipped = [
    'sync_state',
    'replica_meta',
    'sync_log',
    'answer_digests',
    'confirmations',
    'rotations',
  ];
  const tables = dataTables(replica.sqlite).filter((name) => !skipped.includes(name));
  return Object.fromEntries(
    tables.map((table) => [
      table,
      (
        replica.sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all() as Record<
          string,
          unknown
        >[]
      ).map(({ synced_at: _synced, details_watermark: _watermark, ...row }) =>
        Object.fromEntries(
          Object.entries(row).map(([column, value]) => [column, maskOrigin(value)]),
        ),
      ),
    ]),
  );
}

describe('failures', () => {
  let dataFile: string;
  afterEach(() => undefined);

  it('a 500 or a malformed answer in the middle leaves a replica that the next sync completes', async () => {
    dataFile = tempFile('service.sqlite');
    const replica = openReplica(tempFile('faulty.sqlite'));
    try {
      for (const faults of ['error=0.3', 'malformed=0.3']) {
        const faulty = await startSandbox({
          port: 0,
          scale: 'small',
          seed: 8,
          data: dataFile,
          faults,
        });
        // Not the day's id scans (every history window of the hours again) through the faults.
        const broken = await syncOnce(faulty, replica, {
          freshnessHours: { ...EVERY_ITEM_EVERY_SYNC.freshnessHours, deletions: 24 },
        });
        expect(broken.ok, `a sync with ${faults} should not have passed`).toBe(false);
        await faulty.close();
      }
      const healthy = await startSandbox({ port: 0, scale: 'small', seed: 8, data: dataFile });
      try {
        const summary = await syncOnce(healthy, replica, { full: true });
        expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
        const target = { baseUrl: healthy.baseUrl, token: tokenOf(healthy, 'office').accessToken };
        await expectOfficeReplica(replica.sqlite, target);
      } finally {
        await healthy.close();
      }
    } finally {
      await replica.close();
    }
  });

  it('a wrong token is a clear auth error', async () => {
    const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 2 });
    const replica = openReplica(tempFile('wrong-token.sqlite'));
    try {
      const error = await syncOnce(sandbox, replica, {}, 'not-a-token').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).kind).toBe('auth');
      expect((error as ApiError).message).toMatch(/401/);
    } finally {
      await replica.close();
      await sandbox.close();
    }
  });
});
