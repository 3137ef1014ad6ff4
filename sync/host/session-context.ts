// What the parts of the app session share (sync/host/session.ts composes them): its options, the
// user data folder's files, the replica (a new one when the local data is deleted), the settings,
// the events every window hears, and the background work that closing waits for.
import { chmodSync, rmSync } from 'node:fs';
import type {
  CoreEvent,
  HostCallName,
  HostCallResults,
  ParsedHostCallArgs,
  UpdateState,
} from '../contract';
import { openReplica, type Replica } from '../db/open';
import { tableChangesOf } from '../db/table-changes';
import type { SyncOptions } from '../pull/options';
import {
  ensurePrivateDir,
  readSettings,
  userDataFiles,
  writeSettings,
  type SecretStore,
  type Settings,
} from './files';

export interface DemoProvider {
  start(dataDir: string): Promise<{
    baseUrl: string;
    authUrl: string;
    tokenUrl: string;
    clientId: string;
    /**
     * Sent by the host's own login to the demo's login page only (not where it redirects): the
     * per-run secret without which it approves nobody. Absent: a login page open to all.
     */
    loginHeaders?: Readonly<Record<string, string>>;
    /**
     * The demo's service answers only requests addressed to its own port: this tells it the port
     * of a proxy the host puts in front of it (demo-control's switch). Absent: it answers any.
     */
    acceptHostPort?(port: number): Promise<void>;
    close(): Promise<void>;
  }>;
}

export interface HostSessionOptions {
  /** replica.sqlite, settings.json, demo/ live here (0600 files, 0700 folder). */
  userDataDir: string;
  secrets: SecretStore;
  /** The system browser. */
  openExternal(url: string): Promise<void>;
  /** The embedded sandbox (electron/demo.ts). */
  demo?: DemoProvider;
  now?: () => Date;
  /** Between scheduled syncs; default 5 minutes. */
  syncIntervalMs?: number;
  /** The sync worker's entry (a packaged app passes its built file); default the sources through tsx. */
  workerUrl?: URL;
  /** How long the browser has for a login; default 5 minutes. */
  loginTimeoutMs?: number;
  /**
   * While a window shows the app and the service answered last: a reachability probe this often.
   * Default heartbeatFor(pace): 5 s for a service on loopback, 8 s at the real service's 30 a minute.
   */
  heartbeatMs?: number;
  /**
   * The desktop app's save dialog for an export: asks where (suggesting the name), writes the
   * bytes there (writeExportFile) and answers the path, or null when the person cancelled.
   * Without it (browser mode) an export answers the bytes, for the page to download.
   */
  saveFile?(suggestedName: string, bytes: Uint8Array, mimeType: string): Promise<string | null>;
  /** The largest file an export answers as bytes (base64 in a message); default 50 MB. */
  exportDataMaxBytes?: number;
  /**
   * The desktop app's updates (electron/updates.ts): the updates.* calls ask it, its changes
   * become `updates.state` events. Without it (browser mode) they answer `off`.
   */
  updates?: UpdatesProvider;
}

/** What the session asks of the host's updater. */
export interface UpdatesProvider {
  state(): UpdateState;
  check(): Promise<UpdateState>;
  install(): Promise<UpdateState>;
  onChange(listener: (state: UpdateState) => void): () => void;
}

/** The host's own calls, each answering its contract's result (a part of the session serves some). */
export type HostCallHandlers = {
  [N in HostCallName]: (args: ParsedHostCallArgs<N>) => Promise<HostCallResults[N]>;
};

export interface SessionContext {
  readonly options: HostSessionOptions;
  readonly files: ReturnType<typeof userDataFiles>;
  now(): Date;
  /** To every window (a listener's failure is its own). */
  emit(event: CoreEvent): void;
  /**
   * Tells every window the tables the replica's connection changed since last told, and `more`
   * (another connection's, as the sync worker's: noted on this connection too, so what keeps a
   * table in memory reads it again).
   */
  tellChanges(more?: readonly string[]): void;
  /** Tells every window that anything may have changed (a sync worker that failed midway). */
  tellAllChanged(): void;
  /** Background work (a stop after a refused refresh, the demo's own login) that close awaits. */
  track(work: Promise<unknown>): void;
  /** The replica now: a sign-out that deletes the local data replaces it (see replaceReplica). */
  replica(): Replica;
  settings(): Settings;
  saveSettings(next: Settings): void;
  /** What the settings say about the sync: the profile and the course window (read per sync). */
  syncSettings(): Pick<SyncOptions, 'profile' | 'courseMonthsBack' | 'courseMonthsAhead'>;
}

export interface OwnedSessionContext extends SessionContext {
  onEvent(listener: (event: CoreEvent) => void): () => void;
  /** Closes the replica, deletes its files and opens a new, empty one. */
  replaceReplica(): Promise<void>;
  /** Waits for the tracked background work. */
  settled(): Promise<void>;
}

export function createSessionContext(options: HostSessionOptions): OwnedSessionContext {
  const files = userDataFiles(options.userDataDir);
  ensurePrivateDir(options.userDataDir);
  const listeners = new Set<(event: CoreEvent) => void>();
  const background = new Set<Promise<unknown>>();
  let settings: Settings = readSettings(files.settings);
  let replica: Replica = openPrivateReplica(files.replica);
  const emit = (event: CoreEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own.
      }
    }
  };
  return {
    options,
    files,
    now: () => options.now?.() ?? new Date(),
    emit,
    tellChanges(more = []) {
      const recorder = tableChangesOf(replica.sqlite);
      recorder?.note(more);
      const changed = recorder?.take() ?? [];
      const tables = [...new Set([...changed, ...more])].sort();
      if (tables.length > 0) emit({ type: 'data.changed', tables });
    },
    tellAllChanged() {
      tableChangesOf(replica.sqlite)?.noteAll();
      emit({ type: 'data.changed', tables: 'all' });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    track(work) {
      const tracked = work.catch(() => {}).finally(() => background.delete(tracked));
      background.add(tracked);
    },
    async settled() {
      await Promise.all([...background]);
    },
    replica: () => replica,
    async replaceReplica() {
      await replica.close();
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(`${files.replica}${suffix}`, { force: true });
      replica = openPrivateReplica(files.replica);
    },
    settings: () => settings,
    saveSettings(next) {
      settings = next;
      writeSettings(files.settings, settings);
    },
    syncSettings() {
      const { profile, courseMonthsBack, courseMonthsAhead } = settings.app;
      return { profile, courseMonthsBack, courseMonthsAhead };
    },
  };
}

/** The replica file, readable by its owner only. */
function openPrivateReplica(file: string): Replica {
  const replica = openReplica(file);
  chmodSync(file, 0o600);
  return replica;
}
