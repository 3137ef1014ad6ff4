// Drift 5 of the issue "the replica never drifts silently": a service restored from a backup. A
// restore rolls the data back, not the clock, so incremental pulls come back empty while the
// replica holds what the service no longer has. Emulated on the sandbox's store: everything
// copied (the backup), changes made on the service, synced, then every saved record put back
// with its saved change time and everything newer removed (the clock goes on).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_TYPES, type ResourceType, type StoredResource } from '../../sandbox/data/store';
import { formatBerlinDateTime } from '../../sandbox/http/berlin-time';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createApiClient, staticToken } from '../../sync/api';
import { openReplica, type Replica } from '../../sync/db/open';
import { callOrThrow, createDispatcher } from '../../sync/dispatch';
import { runSync, type SyncSummary } from '../../sync/pull/engine';
import { EVERY_ITEM_EVERY_SYNC, type SyncOptions } from '../../sync/pull/options';
import { expectOfficeReplica, expectTrainerReplica } from '../support/service-oracle';
import { CLI } from '../support/bundled';

type Profile = 'office' | 'trainer';

/** The command line as a user runs it: a child process; its exit code and output. */
function vorort(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('drift 5: a service restored from a backup', () => {
  let sandbox: RunningSandbox;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, scale: 'small', seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'vorort-restore-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A replica of `profile` and its syncs, each 5 minutes after the last on the client's clock. */
  function client(profile: Profile, name: string) {
    const user = sandbox.users.find((u) => u.role === profile)!;
    const api = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens: staticToken(user.accessToken),
    });
    const file = join(dir, `${name}.sqlite`);
    const replica = openReplica(file);
    let at = Date.now();
    const sync = (options: Partial<SyncOptions> = {}) => {
      at += 5 * 60_000;
      const now = new Date(at);
      return runSync({ api, replica, options: { profile, now: () => now, ...options } });
    };
    return {
      user,
      file,
      replica,
      sync,
      target: { baseUrl: sandbox.baseUrl, token: user.accessToken },
    };
  }

  /** A change made on the service as its web interface would, with its updated_at bookkeeping. */
  function change(record: StoredResource, attributes: Record<string, unknown>): StoredResource {
    return sandbox.store.put({
      ...record,
      attributes: {
        ...record.attributes,
        ...attributes,
        ...('updated_at' in record.attributes
          ? { updated_at: formatBerlinDateTime(Date.parse(sandbox.store.now())) }
          : {}),
      },
    });
  }

  const base = (replica: Replica, table: string, id: string) => {
    const row = replica.sqlite.prepare(`SELECT base FROM ${table} WHERE id = ?`).pluck().get(id) as
      string | undefined;
    return row === undefined
      ? undefined
      : (JSON.parse(row) as { attributes: Record<string, unknown> }).attributes;
  };

  it.each(['office', 'trainer'] as const)(
    'is noticed in the %s profile and answered with a resync that leaves the replica as the service is',
    async (profile) => {
      const { user, file, replica, sync, target } = client(profile, `restore-${profile}`);
      try {
        await sync(EVERY_ITEM_EVERY_SYNC);

        // The backup.
        const backup = new Map<ResourceType, StoredResource[]>(
          RESOURCE_TYPES.map((type) => [type, [...sandbox.store.all(type)]]),
        );

        // After it, on the service: the own record, an own hour entry and a participation the
        // replica holds are edited, and a new hour entry is created.
        const own = sandbox.store.get('user', user.id)!;
        change(own, { telpriv: '030 1234567 (nach der Sicherung)' });
        const ownHours = sandbox.store
          .all('helferstunden')
          .filter((h) => (h.relationships.user as { id: string } | null)?.id === user.id);
        const edited = ownHours.find((h) => base(replica, 'helferstunden', h.id) !== undefined)!;
        expect(edited, 'an own hour entry in the replica').toBeDefined();
        change(edited, { stunden: 11.5, bemerkung: 'nach der Sicherung' });
        const participationId = replica.sqlite
          .prepare('SELECT id FROM participations ORDER BY id LIMIT 1')
          .pluck()
          .get() as string;
        expect(participationId, 'a participation in the replica').toBeDefined();
        const participation = sandbox.store.get('participation', participationId)!;
        change(participation, { comment: 'nach der Sicherung' });
        // Two seconds after the edit: the newest entry the replica will hold, gone after the restore.
        const createdId = sandbox.store.nextId('helferstunden');
        const now = formatBerlinDateTime(Date.parse(sandbox.store.now()) + 2000);
        sandbox.store.put({
          ...edited,
          id: createdId,
          attributes: {
            ...edited.attributes,
            von: now,
            bis: null,
            stunden: 2,
            bemerkung: 'nach der Sicherung angelegt',
            created_at: now,
            updated_at: now,
          },
        });

        await sync(EVERY_ITEM_EVERY_SYNC);
        expect(base(replica, 'helferstunden', createdId)?.bemerkung).toBe(
          'nach der Sicherung angelegt',
        );
        expect(base(replica, 'helferstunden', edited.id)?.stunden).toBe(11.5);
        expect(base(replica, 'participations', participationId)?.comment).toBe(
          'nach der Sicherung',
        );

        // The restore: every saved record back with its saved change time, everything newer gone.
        for (const type of RESOURCE_TYPES) {
          const saved = backup.get(type)!;
          const kept = new Set(saved.map((r) => r.id));
          for (const record of sandbox.store.all(type))
            if (!kept.has(record.id)) sandbox.store.remove(type, record.id);
          for (const record of saved) sandbox.store.putWithTime(record, record.updatedAt);
        }

        // Syncs with the default options (the request budget applies) until the resync is done;
        // the trainer's first one as `vorort sync`, which says it in a line of its own.
        const summaries: SyncSummary[] = [];
        const dispatcher = createDispatcher(replica);
        const pendingInStatus: boolean[] = [];
        // `vorort status` says it too, while the resync is under way.
        let statusSaid = false;
        const statusSays = async () => {
          const shown = await vorort(['status', '--db', file]);
          expect(shown.stdout).toMatch(
            /\nReading everything again since the service was restored from a backup \(noticed [^)]+\); still to read: \S/,
          );
          statusSaid = true;
        };
        if (profile === 'trainer') {
          const run = await vorort([
            'sync',
            ...['--server', sandbox.baseUrl, '--db', file, '--token', user.accessToken],
            ...['--profile', 'trainer'],
          ]);
          expect(run.code).toBe(0);
          expect(run.stdout).toMatch(
            /\nThe service was apparently restored from a backup: (volunteer-hours entry|participation) \d+ was changed at \S+, the service now shows it as of \S+\. Everything is read again, from the next sync on\.\n/,
          );
          await statusSays();
        }
        for (let i = 0; i < 8; i += 1) {
          const summary = await sync();
          expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
          expect(summary.requests).toBeLessThanOrEqual(150);
          summaries.push(summary);
          const status = await callOrThrow(dispatcher, 'sync.status', {});
          pendingInStatus.push(status.restore !== null);
          if (status.restore && !statusSaid) await statusSays();
          if (summary.restore?.complete) break;
        }

        // What a user would swear the replica shows: the service's state, no more, no older.
        expect(
          base(replica, 'helferstunden', createdId),
          'the entry created after the backup',
        ).toBe(undefined);
        expect(base(replica, 'helferstunden', edited.id)?.stunden).toBe(edited.attributes.stunden);
        expect(base(replica, 'participations', participationId)?.comment ?? '').toBe(
          participation.attributes.comment ?? '',
        );
        expect(base(replica, 'users', user.id)?.telpriv ?? '').toBe(own.attributes.telpriv ?? '');
        if (profile === 'office') await expectOfficeReplica(replica.sqlite, target);
        else await expectTrainerReplica(replica.sqlite, target, user.id);

        // The first sync noticed it by content: a record seen newer than the service now shows it.
        const status = await callOrThrow(dispatcher, 'sync.status', {});
        expect(status.restore).toBeNull();
        const restore = profile === 'office' ? summaries.shift()?.restore : summaries[0]?.restore;
        if (profile === 'office')
          expect(restore).toMatchObject({ noticedNow: true, complete: false });
        const evidence = restore?.evidence;
        expect(evidence?.kind).toBe('older-version');
        expect([`helferstunden:${edited.id}`, `participations:${participationId}`]).toContain(
          `${evidence?.table}:${evidence?.id}`,
        );
        expect(Date.parse(evidence!.shownUpdatedAt)).toBeLessThan(
          Date.parse(evidence!.seenUpdatedAt),
        );
        // Every later sync says that the resync is under way, the last that it is complete, and
        // the status shows it until then.
        const last = summaries[summaries.length - 1]!;
        expect(last.restore).toMatchObject({ noticedNow: false, complete: true });
        for (const summary of summaries.slice(0, -1))
          expect(summary.restore).toMatchObject({ noticedNow: false, complete: false });
        expect(pendingInStatus.slice(0, -1).every(Boolean)).toBe(true);
        expect(pendingInStatus[pendingInStatus.length - 1]).toBe(false);
        expect(statusSaid).toBe(true);

        // Nothing more once the replica is whole again.
        const after = await sync();
        expect(after.restore).toBeUndefined();
      } finally {
        await replica.close();
      }
    },
  );

  it('is not seen in times written more coarsely, in empty or zero times, nor in records changed here', async () => {
    const { user, replica, sync } = client('office', 'no-restore');
    try {
      const ownHours = () =>
        sandbox.store
          .all('helferstunden')
          .filter((h) => (h.relationships.user as { id: string } | null)?.id === user.id)
          .slice(0, 3);
      await sync(EVERY_ITEM_EVERY_SYNC);
      const [coarse, empty, mine] = ownHours();
      // The same instant to the millisecond, later in whole seconds (the real service is not
      // known to write either); a time that is no value ("" or 0000-00-00) tells nothing.
      const instant = Date.parse(sandbox.store.now());
      const exact = new Date(instant - (instant % 1000) + 900).toISOString();
      sandbox.store.put({ ...coarse!, attributes: { ...coarse!.attributes, updated_at: exact } });
      await sync();
      expect(base(replica, 'helferstunden', coarse!.id)?.updated_at).toBe(exact);
      sandbox.store.put({
        ...coarse!,
        attributes: { ...coarse!.attributes, updated_at: `${exact.slice(0, 19)}Z`, stunden: 9 },
      });
      sandbox.store.put({ ...empty!, attributes: { ...empty!.attributes, updated_at: '' } });
      await sync();
      sandbox.store.put({
        ...empty!,
        attributes: { ...empty!.attributes, updated_at: '0000-00-00 00:00:00', stunden: 7 },
      });
      // A record changed here (in the outbox, not sent) that the service shows older than the
      // replica's base: its base may have come from the answer to our own write.
      const dispatcher = createDispatcher(replica);
      await callOrThrow(dispatcher, 'helferstunden.update', {
        id: mine!.id,
        attributes: { bemerkung: 'hier geändert' },
      });
      sandbox.store.put({
        ...mine!,
        attributes: { ...mine!.attributes, updated_at: '2001-01-01T00:00:00+01:00', stunden: 5 },
      });
      const summary = await sync();
      expect(summary.ok).toBe(true);
      expect(summary.restore).toBeUndefined();
      expect(base(replica, 'helferstunden', coarse!.id)?.stunden).toBe(9);
      expect(base(replica, 'helferstunden', empty!.id)?.stunden).toBe(7);
      expect(base(replica, 'helferstunden', mine!.id)?.stunden).toBe(5);
      const status = await callOrThrow(dispatcher, 'sync.status', {});
      expect(status.restore ?? null).toBeNull();
    } finally {
      await replica.close();
    }
  });
});
