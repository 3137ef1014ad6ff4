import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireSyncLock, syncLockFile, syncLockHolder, SyncLockedError } from './sync-lock';

const dir = mkdtempSync(join(tmpdir(), 'vorort-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('acquireSyncLock', () => {
  it('refuses a second holder, naming the first, until released', () => {
    const replica = join(dir, 'a.sqlite');
    const lock = acquireSyncLock(replica);
    expect(JSON.parse(readFileSync(syncLockFile(replica), 'utf8'))).toMatchObject({
      pid: process.pid,
      command: 'vorort sync',
    });
    expect(syncLockHolder(replica)?.pid).toBe(process.pid);
    expect(() => acquireSyncLock(replica, { command: 'Vorort desktop' })).toThrow(SyncLockedError);
    expect(() => acquireSyncLock(replica)).toThrow(
      new RegExp(`another sync is using a\\.sqlite \\(pid ${process.pid} since \\d\\d:\\d\\d\\)`),
    );
    lock.release();
    lock.release();
    expect(existsSync(syncLockFile(replica))).toBe(false);
    expect(syncLockHolder(replica)).toBeNull();
    acquireSyncLock(replica).release();
  });

  it('takes over a lock whose process is gone, or that is not a lock at all', () => {
    const replica = join(dir, 'b.sqlite');
    const stale = acquireSyncLock(replica);
    const taken = acquireSyncLock(replica, { isAlive: () => false });
    expect(syncLockHolder(replica)?.startedAt).toBe(taken.holder.startedAt);
    stale.release(); // not its lock any more: leaves the new one alone
    expect(existsSync(syncLockFile(replica))).toBe(true);
    taken.release();

    writeFileSync(syncLockFile(replica), 'garbage');
    acquireSyncLock(replica).release();
    expect(existsSync(syncLockFile(replica))).toBe(false);
  });

  it("never takes over another machine's lock (a shared folder)", () => {
    const replica = join(dir, 'c.sqlite');
    const startedAt = new Date().toISOString();
    writeFileSync(
      syncLockFile(replica),
      JSON.stringify({
        pid: 1,
        hostname: 'elsewhere',
        startedAt,
        command: 'vorort sync',
        token: 't',
      }),
    );
    expect(() => acquireSyncLock(replica, { isAlive: () => false })).toThrow(/on elsewhere, pid 1/);
  });
});
