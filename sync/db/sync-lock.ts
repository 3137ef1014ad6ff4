// One sync per replica at a time. Two syncs into one file would both send every request and one
// would end on "database is locked"; the second is refused at once instead. The lock is a file
// beside the replica (`replica.sqlite.lock`) naming the process that holds it, so that
//
// - any process can tell who holds it (`vorort status`, the desktop host, a second `vorort sync`);
// - a lock left by a process that is gone (killed, crashed, power cut) is noticed and taken over:
//   its pid no longer runs on this machine;
// - the holder releases it on every way out: release() when done, and an 'exit' handler for a
//   process that ends otherwise (process.exit, an uncaught exception). A process killed outright
//   (SIGKILL) leaves a stale lock, which the next sync takes over.
//
// The file appears whole or not at all (written beside it, then hard-linked into place: the link
// fails if a lock exists), so no reader ever sees half a lock. Plain Node: the desktop host's main
// process uses it as the CLI does.
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename } from 'node:path';

export interface SyncLockHolder {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  /** What holds it, for people: "vorort sync", "Vorort desktop". */
  command: string;
}

export interface SyncLock {
  readonly file: string;
  readonly holder: SyncLockHolder;
  /** Removes the lock file if it is still this lock's. Safe to call more than once. */
  release(): void;
}

export class SyncLockedError extends Error {
  override name = 'SyncLockedError';
  constructor(
    readonly replicaFile: string,
    readonly holder: SyncLockHolder,
  ) {
    super(
      `another sync is using ${basename(replicaFile)} (${holder.hostname === hostname() ? '' : `on ${holder.hostname}, `}pid ${holder.pid} since ${clockTime(holder.startedAt)}); try again when it has finished`,
    );
  }
}

export interface AcquireSyncLockOptions {
  /** Shown to whoever finds the replica locked. Default "vorort sync". */
  command?: string;
  /** Whether a process with this pid runs on this machine (tests replace it). */
  isAlive?: (pid: number) => boolean;
}

interface LockContent extends SyncLockHolder {
  /** Tells this lock from a later one of another process (a pid may be reused). */
  token: string;
}

/** The lock file of a replica. */
export function syncLockFile(replicaFile: string): string {
  return `${replicaFile}.lock`;
}

const held = new Set<SyncLock>();
let exitHandlerInstalled = false;

/**
 * Takes the replica's sync lock or throws SyncLockedError naming the holder. A lock whose process
 * is gone is taken over. In-memory replicas need none.
 */
export function acquireSyncLock(
  replicaFile: string,
  options: AcquireSyncLockOptions = {},
): SyncLock {
  const isAlive = options.isAlive ?? processIsAlive;
  const file = syncLockFile(replicaFile);
  const content: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? 'vorort sync',
    token: randomBytes(12).toString('hex'),
  };
  // Two tries: the second after removing a stale lock (another process may win that race).
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (tryCreate(file, content)) return track(file, content);
    const existing = readLock(file);
    if (existing === 'gone') continue;
    if (existing !== 'unreadable' && !isStale(existing, isAlive))
      throw new SyncLockedError(replicaFile, existing);
    removeIfUnchanged(file, existing);
  }
  const holder = readLock(file);
  throw new SyncLockedError(
    replicaFile,
    typeof holder === 'object'
      ? holder
      : { pid: 0, hostname: hostname(), startedAt: content.startedAt, command: 'unknown' },
  );
}

/** Who holds the replica's sync lock, or null when nobody does (a stale lock counts as none). */
export function syncLockHolder(
  replicaFile: string,
  isAlive: (pid: number) => boolean = processIsAlive,
): SyncLockHolder | null {
  const existing = readLock(syncLockFile(replicaFile));
  if (typeof existing !== 'object' || isStale(existing, isAlive)) return null;
  const { token: _token, ...holder } = existing;
  return holder;
}

function tryCreate(file: string, content: LockContent): boolean {
  const temporary = `${file}.${content.token}`;
  writeFileSync(temporary, `${JSON.stringify(content)}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

function track(file: string, content: LockContent): SyncLock {
  const { token: _token, ...holder } = content;
  const lock: SyncLock = {
    file,
    holder,
    release() {
      if (!held.delete(lock)) return;
      const current = readLock(file);
      if (typeof current === 'object' && current.token === content.token) {
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      }
    },
  };
  held.add(lock);
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true;
    // Synchronous, so it runs on process.exit() and after an uncaught exception too.
    process.on('exit', () => {
      for (const each of [...held]) each.release();
    });
  }
  return lock;
}

function readLock(file: string): LockContent | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockContent>;
    if (
      typeof parsed.pid === 'number' &&
      typeof parsed.hostname === 'string' &&
      typeof parsed.startedAt === 'string' &&
      typeof parsed.token === 'string'
    )
      return { command: 'a sync', ...parsed } as LockContent;
  } catch {
    // Not JSON: not a lock this code wrote whole.
  }
  return 'unreadable';
}

/** A lock of this machine whose process is gone. Another machine's (a shared folder) is never stale. */
function isStale(lock: SyncLockHolder, isAlive: (pid: number) => boolean): boolean {
  return lock.hostname === hostname() && !isAlive(lock.pid);
}

/** Removes a stale lock, unless another process replaced it since it was read. */
function removeIfUnchanged(file: string, seen: LockContent | 'unreadable'): void {
  const now = readLock(file);
  const same =
    seen === 'unreadable'
      ? now === 'unreadable'
      : typeof now === 'object' && now.token === seen.token;
  if (!same) return;
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** "14:03" today, "2025-11-20 14:03" on another day, in local time. */
function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay
    ? time
    : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}
