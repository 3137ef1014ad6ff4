// The app session every transport serves (Electron IPC, browser mode's WebSocket): the user data
// folder (the replica, the account settings, the tokens through a SecretStore, the demo's data),
// the login, the background scheduler (its pulls in a worker thread, so this event loop stays
// free), one `call` for the data queries and commands and the host's own calls, validated with
// the contract's schemas, and the events every UI hears; export from the replica (a save dialog
// the host gives, or the bytes for a download) and the private calendar feed's address. Plain
// Node: no Electron, no sandbox (the demo comes in as a DemoProvider, the dialog as saveFile).
import { chmodSync, rmSync } from 'node:fs';
import { createApiClient, type ApiClient } from '../api';
import {
  hostCalls,
  isHostCallName,
  isWriteCommand,
  WRITE_COMMANDS,
  type AccountInfo,
  type AppSettings,
  type AppState,
  type CoreEvent,
  type ExportCreated,
  type FeedState,
  type HostCallName,
  type HostCallResults,
  type ParsedHostCallArgs,
  type SchedulerState,
} from '../contract';
import { CoreFailure, refusedArguments, toCoreError } from '../core-error';
import { openReplica, type Replica } from '../db/open';
import { createDispatcher, type Dispatcher, type Outcome } from '../dispatch';
import { exportData } from '../export';
import { feedStatus, refreshFeed, setFeedUrl } from '../pull/feed';
import { FEED_COLLECTION } from '../pull/feed-sync';
import type { SyncOptions, SyncProgress } from '../pull/options';
import { createRefresher, type Refresher } from '../pull/refresh';
import { pullInWorker } from '../pull/worker';
import {
  reachable,
  replicaCounts,
  syncOnce,
  SyncScheduler,
  type SyncOnceSummary,
} from '../scheduler';
import {
  ensurePrivateDir,
  fileSecretStore,
  readSettings,
  userDataFiles,
  writeSettings,
  type SecretStore,
  type Settings,
} from './files';
import { loginFailure, loopbackLogin, oauthBaseOf, type TokenSet } from './login';
import { HostTokens, readStoredTokens } from './tokens';

export { fileSecretStore, type SecretStore };

/** Which transport a call came by (for logs; every transport gets the same answers). */
export interface CallOrigin {
  transport: 'ipc' | 'websocket' | 'local';
}

export interface HostSession {
  /** Validates with the contract's schemas, never throws: Outcome as sync/dispatch's. */
  call(name: string, args: unknown, origin?: CallOrigin): Promise<Outcome<unknown>>;
  /** Every CoreEvent (sync.state, sync.progress, data.changed, app.state, notifications.new). */
  onEvent(listener: (event: CoreEvent) => void): () => void;
  /** Stops the scheduler, lets the running transaction finish, closes the replica. Idempotent. */
  close(): Promise<void>;
  /** The OS says the network is there (a sync soon, when it was gone) or gone (only probes). */
  networkChanged(online: boolean): void;
  /** The computer goes to sleep: a running sync stops (what it applied stays), no timers fire. */
  suspended(): void;
  /** The computer woke up: a sync soon (when the network is there). */
  resumed(): void;
}

export interface DemoProvider {
  start(dataDir: string): Promise<{
    baseUrl: string;
    authUrl: string;
    tokenUrl: string;
    clientId: string;
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
}

/** An export larger than this is not sent as bytes over a transport (see exportDataMaxBytes). */
export const EXPORT_DATA_MAX_BYTES = 50 * 1024 * 1024;

/** A window's "visible" (app.visible) holds this long unless renewed (a closed tab says nothing). */
export const VISIBLE_LEASE_MS = 60_000;

/**
 * The heartbeat's interval: every 5 s at most, and at a pace (requests a minute) no more than a
 * quarter of it, so the syncs keep three quarters (each probe since the last sync also comes off
 * the next sync's budget: see syncInBackground).
 */
export function heartbeatFor(pace: number | undefined): number {
  return pace === undefined ? 5_000 : Math.max(5_000, Math.ceil((4 * 60_000) / pace));
}

/** The demo's accounts by role: the office, and the trainer with the most courses ahead. */
const DEMO_LOGIN_HINTS: Record<DemoRole, string | undefined> = {
  office: undefined,
  trainer: 'trainer1',
};
type DemoRole = 'office' | 'trainer';

const NO_ACCOUNT = new CoreFailure('not_allowed', {
  de: 'Es ist noch kein Konto eingerichtet: bitte zuerst die Adressen des Dienstes angeben (oder „Demo“ wählen).',
  en: 'No account is set up yet: please enter the service’s addresses first (or choose "Demo").',
});

const NO_DEMO = new CoreFailure('not_allowed', {
  de: 'Die Demo ist in dieser Umgebung nicht verfügbar.',
  en: 'The demo is not available here.',
});

export async function openHostSession(options: HostSessionOptions): Promise<HostSession> {
  const files = userDataFiles(options.userDataDir);
  ensurePrivateDir(options.userDataDir);
  const now = () => options.now?.() ?? new Date();
  const listeners = new Set<(event: CoreEvent) => void>();
  const emit = (event: CoreEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own.
      }
    }
  };

  let settings: Settings = readSettings(files.settings);
  let replica: Replica = openPrivateReplica(files.replica);
  let phase: AppState['phase'] = settings.account ? 'signed-out' : 'first-run';
  let reason: AppState['reason'] = null;
  let tokens: HostTokens | null = null;
  let api: ApiClient | null = null;
  let refresher: Refresher | null = null;
  let scheduler: SyncScheduler<SyncOnceSummary> | null = null;
  let demo: Awaited<ReturnType<DemoProvider['start']>> | null = null;
  let login: AbortController | null = null;
  /** The private feed's fetch that feed.set started (cancelled by a newer one and by close). */
  let feedFetch: AbortController | null = null;
  let closing: Promise<void> | null = null;
  /** Background work (a stop after a refused refresh, the demo's own login) awaited by close. */
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.catch(() => {}).finally(() => background.delete(tracked));
    background.add(tracked);
  };
  let seenNotifications = new Set<string>();
  /** What the OS said last: the network is there, the computer is awake. */
  let osOnline = true;
  let asleep = false;
  /** The scheduler hears "offline" while either says no (a sleeping computer has no network). */
  const reachableNow = () => osOnline && !asleep;
  const feedNetwork = (before: boolean) => {
    const now = reachableNow();
    if (now !== before) scheduler?.networkChanged(now);
  };
  /** A window shows the app (app.visible, renewed within VISIBLE_LEASE_MS). */
  let visible = false;
  let visibleLease: NodeJS.Timeout | null = null;
  const setVisible = (next: boolean) => {
    if (visibleLease) clearTimeout(visibleLease);
    visibleLease = null;
    if (next) {
      visibleLease = setTimeout(() => setVisible(false), VISIBLE_LEASE_MS);
      visibleLease.unref();
    }
    if (next === visible) return;
    visible = next;
    scheduler?.visibilityChanged(next);
  };
  /** Reachability probes since the last sync began: they come off its budget. */
  let probesSinceSync = 0;

  let dispatcher: Dispatcher = dataDispatcher();
  await rememberNotifications();

  function dataDispatcher(): Dispatcher {
    return createDispatcher(replica, {
      now,
      onCommand: (name) => {
        scheduler?.localWrite();
        // A local write shows at once: every window reads its screens again.
        emit({
          type: 'data.changed',
          collections: isWriteCommand(name) ? [WRITE_COMMANDS[name].type] : [],
        });
      },
      refresher: (args) => {
        if (!refresher)
          throw new CoreFailure('offline', {
            de: 'Nicht angemeldet: es gilt der Stand der letzten Synchronisierung.',
            en: 'Not signed in: the data is as of the last sync.',
          });
        return refresher(args);
      },
    });
  }

  function appState(): AppState {
    return {
      phase,
      account: settings.account,
      user: phase === 'signed-in' ? settings.user : null,
      scheduler: scheduler?.state ?? null,
      reason,
    };
  }

  function setPhase(next: AppState['phase'], why: AppState['reason'] = null): void {
    phase = next;
    reason = why;
    emit({ type: 'app.state', state: appState() });
  }

  function saveSettings(next: Settings): void {
    settings = next;
    writeSettings(files.settings, settings);
  }

  /** What the settings say about the sync: the profile and the course window (read per sync). */
  function syncSettings(): Pick<SyncOptions, 'profile' | 'courseMonthsBack' | 'courseMonthsAhead'> {
    const { profile, courseMonthsBack, courseMonthsAhead } = settings.app;
    return { profile, courseMonthsBack, courseMonthsAhead };
  }

  /** Saves changed app settings and tells every window; a sync from now on follows them. */
  function updateAppSettings(change: Partial<AppSettings>): AppSettings {
    const given = Object.entries(change).filter(([, value]) => value !== undefined);
    const next = { ...settings.app, ...Object.fromEntries(given) } as AppSettings;
    saveSettings({ ...settings, app: next });
    // The refresher holds its options: a new one follows the new profile and window.
    if (api) refresher = createRefresher({ api, replica, options: syncSettings() });
    emit({ type: 'settings.changed', settings: next });
    return next;
  }

  // ---------------------------------------------------------------------------------------
  // Signed in: the API client, the refresher and the scheduler

  function signedIn(account: AccountInfo, held: TokenSet): void {
    tokens?.forget();
    const keeper: HostTokens = new HostTokens({
      account,
      secrets: options.secrets,
      initial: held,
      onRevoked: (words) => {
        if (tokens !== keeper) return;
        track(signOut(false, words));
      },
    });
    tokens = keeper;
    api = createApiClient({
      baseUrl: account.baseUrl,
      oauthUrl: oauthBaseOf(account.authUrl),
      tokens: keeper,
    });
    refresher = createRefresher({ api, replica, options: syncSettings() });
    if (scheduler) scheduler.loginChanged();
    else startScheduler(account);
    setPhase('signed-in');
  }

  function startScheduler(account: AccountInfo): void {
    const intervalMs = options.syncIntervalMs ?? 5 * 60_000;
    const started = new SyncScheduler<SyncOnceSummary>({
      intervalMs,
      heartbeatMs: options.heartbeatMs ?? heartbeatFor(api?.pace),
      runOnce: (signal, progress) => syncInBackground(account, intervalMs, signal, progress),
      // A token-less HEAD of the base URL, counted for the next sync's budget.
      probe: (signal) => {
        probesSinceSync += 1;
        return reachable(account.baseUrl, { signal, timeoutMs: 5_000 });
      },
      readCounts: () => replicaCounts(replica.sqlite),
      onState: (state) => emit({ type: 'sync.state', state }),
      onRun: (outcome) => {
        if (!('summary' in outcome)) return;
        const summary = outcome.summary;
        const changed = Object.keys(summary.collections);
        if (changed.length > 0 || summary.outbox.done > 0)
          emit({ type: 'data.changed', collections: changed });
        emit({
          type: 'sync.finished',
          ok: summary.ok,
          records: summary.records,
          requests: summary.requests + summary.outbox.requests,
          seconds: summary.seconds,
        });
        void announceNotifications();
      },
    });
    scheduler = started;
    if (!reachableNow()) started.networkChanged(false);
    if (visible) started.visibilityChanged(true);
    started.start();
  }

  /** One sync (sync/scheduler's syncOnce): the push in this thread, the pull in a worker. */
  async function syncInBackground(
    account: AccountInfo,
    intervalMs: number,
    signal: AbortSignal,
    progress: (event: SyncProgress) => void,
  ): Promise<SyncOnceSummary> {
    const client = api;
    const keeper = tokens;
    if (!client || !keeper) throw new Error('not signed in');
    // The probes since the last sync were requests of this client too: they come off this budget.
    const probes = probesSinceSync;
    probesSinceSync = 0;
    const { profile, ...window } = syncSettings();
    return syncOnce({
      api: client,
      replica,
      profile,
      options: { ...window, intervalSeconds: intervalMs / 1000 },
      signal,
      pushMaxWaitMs: 10_000,
      requestsSinceLastSync: probes,
      ...(refresher ? { refresher } : {}),
      // The pull runs in a worker thread: parsing a large answer never blocks this event loop.
      pull: pullInWorker({
        replicaFile: files.replica,
        tokens: keeper,
        client: { baseUrl: account.baseUrl, oauthUrl: oauthBaseOf(account.authUrl) },
        ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}),
      }),
      onProgress: (event) => {
        progress(event);
        // The pull's progress is an event of its own as well (the push's shows in the state).
        if (event.collection !== 'outbox') emit({ type: 'sync.progress', ...event });
      },
    });
  }

  // ---------------------------------------------------------------------------------------
  // Notifications: unread ones not seen before, after each sync

  async function unreadNotifications(): Promise<{ id: string; titel: string }[]> {
    const outcome = await dispatcher.call('notifications.list', { unreadOnly: true });
    if (!outcome.ok) return [];
    return outcome.value
      .filter((item) => !item.gelesen)
      .map((item) => ({ id: item.id, titel: item.titel ?? '' }));
  }

  async function rememberNotifications(): Promise<void> {
    seenNotifications = new Set(safely(() => allNotificationIds(), []));
  }

  function allNotificationIds(): string[] {
    return replica.sqlite.prepare('SELECT id FROM benachrichtigungen').pluck().all() as string[];
  }

  async function announceNotifications(): Promise<void> {
    const fresh = (await unreadNotifications().catch(() => [])).filter(
      (item) => !seenNotifications.has(item.id),
    );
    // The first sync of a replica brings the whole inbox: that is no news.
    const firstFill = seenNotifications.size === 0;
    for (const id of safely(() => allNotificationIds(), [])) seenNotifications.add(id);
    if (fresh.length > 0 && !firstFill) emit({ type: 'notifications.new', items: fresh });
  }

  // ---------------------------------------------------------------------------------------
  // The host calls

  async function stopScheduler(): Promise<void> {
    const running = scheduler;
    scheduler = null;
    if (running) await running.stop();
  }

  async function stopDemo(): Promise<void> {
    const running = demo;
    demo = null;
    if (running) await running.close();
  }

  async function signOut(deleteLocalData: boolean, why: AppState['reason'] = null): Promise<void> {
    login?.abort();
    tokens?.forget();
    tokens = null;
    api = null;
    refresher = null;
    await stopScheduler();
    await options.secrets.clear();
    if (settings.account?.demo) await stopDemo();
    if (deleteLocalData) {
      await stopDemo();
      rmSync(files.demo, { recursive: true, force: true });
      await dropReplica();
    }
    saveSettings({ ...settings, user: null });
    setPhase(settings.account ? 'signed-out' : 'first-run', why);
  }

  /**
   * Another account (another service) takes over: the replica holds the old one's data. A demo's
   * data goes; a real account's goes only when none of its changes would be lost.
   */
  async function switchAccount(next: AccountInfo): Promise<void> {
    const current = settings.account;
    const sameService = current !== null && current.baseUrl === next.baseUrl && !current.demo;
    if (phase === 'signed-in' || tokens) await signOut(false);
    if (current !== null && !sameService && !(current.demo && next.demo)) {
      const loss = pendingLoss();
      if (!current.demo && loss.pending + loss.parked > 0)
        throw new CoreFailure('not_allowed', {
          de: `Noch ${loss.pending + loss.parked} Änderungen sind nicht beim Dienst angekommen: bitte erst synchronisieren oder mit „Lokale Daten löschen“ abmelden.`,
          en: `${loss.pending + loss.parked} changes have not reached the service yet: please sync first, or sign out deleting the local data.`,
        });
      await signOut(true);
    }
    saveSettings({ ...settings, account: next, user: null });
  }

  /** A new, empty replica in place of the old one (the next sync fills it). */
  async function dropReplica(): Promise<void> {
    await replica.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${files.replica}${suffix}`, { force: true });
    replica = openPrivateReplica(files.replica);
    dispatcher = dataDispatcher();
    seenNotifications = new Set();
    emit({ type: 'data.changed', collections: [] });
  }

  function pendingLoss(): { pending: number; parked: number } {
    const counts = replicaCounts(replica.sqlite);
    return { pending: counts.pending, parked: counts.parked };
  }

  async function runLogin(
    account: AccountInfo,
    open: (url: string) => Promise<void>,
    loginHint?: string,
  ): Promise<AppState> {
    login?.abort();
    const controller = new AbortController();
    login = controller;
    setPhase('signing-in');
    let held: TokenSet;
    try {
      held = await loopbackLogin({
        account,
        openExternal: open,
        signal: controller.signal,
        ...(options.loginTimeoutMs ? { timeoutMs: options.loginTimeoutMs } : {}),
        ...(loginHint ? { loginHint } : {}),
      });
    } catch (error) {
      if (login === controller) {
        login = null;
        setPhase(tokens ? 'signed-in' : 'signed-out');
      }
      throw loginFailure(error);
    }
    if (login !== controller || closing) throw loginFailure(new Error('superseded'));
    login = null;
    try {
      await HostTokens.save(options.secrets, account, held);
    } catch (error) {
      // The secret store refused (no encrypted storage on this computer): not signed in.
      setPhase(tokens ? 'signed-in' : 'signed-out');
      throw loginFailure(error);
    }
    const user = await userOf(account, held.accessToken);
    saveSettings({ ...settings, user });
    signedIn(account, held);
    return appState();
  }

  async function startDemo(): Promise<AccountInfo> {
    if (!options.demo) throw NO_DEMO;
    if (!demo) {
      ensurePrivateDir(files.demo);
      demo = await options.demo.start(files.demo);
    }
    return {
      baseUrl: demo.baseUrl,
      authUrl: demo.authUrl,
      tokenUrl: demo.tokenUrl,
      clientId: demo.clientId,
      demo: true,
    };
  }

  /**
   * Signs in to the embedded sandbox as the office account or as a trainer, with the sync profile
   * of that role. Another role than the replica's is another person: signed out of the demo, the
   * replica goes (the demo's service data stays), then signed in as the other.
   */
  async function demoLogin(role: DemoRole = settings.demoRole): Promise<AppState> {
    const account = await startDemo();
    if (!settings.account?.demo) await switchAccount(account);
    else if (settings.demoRole !== role) {
      login?.abort();
      tokens?.forget();
      tokens = null;
      api = null;
      refresher = null;
      await stopScheduler();
      await options.secrets.clear();
      await dropReplica();
      saveSettings({ ...settings, user: null });
    }
    // The demo's port changes with every start: the account follows it.
    saveSettings({ ...settings, account, demoRole: role });
    if (settings.app.profile !== role) updateAppSettings({ profile: role });
    // The embedded sandbox approves by itself: its pages redirect straight to the listener.
    return runLogin(account, followRedirects, DEMO_LOGIN_HINTS[role]);
  }

  // ---------------------------------------------------------------------------------------
  // Export from the replica, and the private calendar feed

  async function createExport(args: ParsedHostCallArgs<'export.create'>): Promise<ExportCreated> {
    // Checked again by exportData (any caller): a course not in the replica is not_found, a
    // combination no file holds invalid_arguments, both in words.
    const result = await exportData(replica, args.request, { now: now() });
    const answer: ExportCreated = {
      fileName: result.fileName,
      mimeType: result.mimeType,
      size: result.bytes.byteLength,
      count: result.count,
      empty: result.empty,
      counted: result.counted,
      ...(result.note ? { note: result.note } : {}),
    };
    // 'save' where there is no dialog (browser mode) is answered with the bytes all the same.
    const deliver = args.deliver ?? (options.saveFile ? 'save' : 'data');
    if (deliver === 'save' && options.saveFile) {
      let savedTo: string | null;
      try {
        savedTo = await options.saveFile(result.fileName, result.bytes, result.mimeType);
      } catch (error) {
        if (error instanceof CoreFailure) throw error;
        const text = error instanceof Error ? error.message : String(error);
        throw new CoreFailure('internal', {
          de: `Die Datei konnte nicht gespeichert werden: ${text}`,
          en: `The file could not be saved: ${text}`,
        });
      }
      return savedTo === null
        ? { ...answer, savedTo: null, cancelled: true }
        : { ...answer, savedTo };
    }
    const limit = options.exportDataMaxBytes ?? EXPORT_DATA_MAX_BYTES;
    if (result.bytes.byteLength > limit) {
      const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
      throw new CoreFailure('not_allowed', {
        de: `Die Datei ist mit ${megabytes(result.bytes.byteLength).replace('.', ',')} MB zu groß für einen Download (höchstens ${megabytes(limit).replace('.', ',')} MB): bitte einen kürzeren Zeitraum wählen, oder auf der Kommandozeile \`vorort export\` verwenden.`,
        en: `The file is too large to download (${megabytes(result.bytes.byteLength)} MB, at most ${megabytes(limit)} MB): please choose a shorter range, or use \`vorort export\` on the command line.`,
      });
    }
    const { buffer, byteOffset, byteLength } = result.bytes;
    return { ...answer, base64: Buffer.from(buffer, byteOffset, byteLength).toString('base64') };
  }

  /** The feed's state without its secret path (feedStatus's address is scheme and host only). */
  function feedState(): FeedState {
    const status = feedStatus(replica);
    if (!status)
      return {
        configured: false,
        address: null,
        lastFetchedAt: null,
        lastAttemptAt: null,
        events: 0,
        problem: null,
      };
    return {
      configured: true,
      address: status.address,
      lastFetchedAt: status.lastSuccessAt,
      lastAttemptAt: status.lastAttemptAt,
      events: status.events,
      problem: status.ok === false ? status.error : null,
    };
  }

  /**
   * Sets (or removes) the feed's address, checked in words (setFeedUrl); when online, fetches it
   * once now (a plain GET: the secret is the path), so its events show without waiting for the
   * next sync, which fetches it from then on. Every window reads the feed again.
   */
  async function setFeed(url: string | null): Promise<FeedState> {
    setFeedUrl(replica, url);
    const online = reachableNow() && scheduler?.state.phase !== 'offline';
    // An empty address removes the feed as null does.
    if (feedStatus(replica) !== null && online) {
      feedFetch?.abort();
      const controller = new AbortController();
      feedFetch = controller;
      const work = refreshFeed(replica, { now, signal: controller.signal });
      track(work);
      try {
        // A failure is kept in the feed's status and answered as its problem, in words.
        await work;
      } finally {
        if (feedFetch === controller) feedFetch = null;
      }
    }
    emit({ type: 'data.changed', collections: [FEED_COLLECTION] });
    return feedState();
  }

  const host: {
    [N in HostCallName]: (args: ParsedHostCallArgs<N>) => Promise<HostCallResults[N]>;
  } = {
    'app.state': async () => appState(),
    'account.configure': async (args) => {
      const next: AccountInfo = { ...args, demo: false };
      const current = settings.account;
      const same =
        current !== null &&
        !current.demo &&
        (['baseUrl', 'authUrl', 'tokenUrl', 'clientId'] as const).every(
          (key) => current[key] === next[key],
        );
      if (!same) {
        await switchAccount(next);
        setPhase('signed-out');
      }
      return appState();
    },
    'account.login': async () => {
      const account = settings.account;
      if (!account) throw NO_ACCOUNT;
      if (account.demo) return demoLogin();
      return runLogin(account, options.openExternal);
    },
    'account.demo': async (args) => demoLogin(args.role),
    'account.logout': async (args) => {
      await signOut(args.deleteLocalData);
      return appState();
    },
    'account.pendingLoss': async () => pendingLoss(),
    'sync.now': async () => {
      if (!scheduler)
        throw new CoreFailure('not_signed_in', {
          de: 'Nicht angemeldet: zum Synchronisieren bitte anmelden.',
          en: 'Not signed in: please sign in to sync.',
        });
      scheduler.syncNow();
      return scheduler.state;
    },
    'app.visible': async (args) => {
      setVisible(args.visible);
      return { visible };
    },
    'settings.get': async () => settings.app,
    'settings.update': async (args) => updateAppSettings(args),
    'export.create': async (args) => createExport(args),
    'feed.get': async () => feedState(),
    'feed.set': async (args) => setFeed(args.url),
  };

  async function callHost(name: HostCallName, args: unknown): Promise<Outcome<unknown>> {
    const schema = hostCalls[name];
    const parsed = schema.safeParse(args ?? {});
    if (!parsed.success)
      return {
        ok: false,
        error: toCoreError(refusedArguments(name, schema, args ?? {}, parsed.error)),
      };
    try {
      const handler = host[name] as (a: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      if (error instanceof CoreFailure) return { ok: false, error: toCoreError(error) };
      const text = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: {
          code: 'internal',
          message: { de: `Interner Fehler: ${text}`, en: `Internal error: ${text}` },
        },
      };
    }
  }

  // ---------------------------------------------------------------------------------------
  // Start: stored tokens sign in at once; a demo account starts its sandbox and signs in again
  // (the sandbox forgets its logins when it stops).

  if (settings.account?.demo && options.demo) {
    track(demoLogin());
  } else if (settings.account) {
    const stored = await readStoredTokens(options.secrets, settings.account);
    if (stored) {
      const { tokenUrl: _tokenUrl, clientId: _clientId, ...held } = stored;
      signedIn(settings.account, held);
    }
  }

  return {
    async call(name, args) {
      if (closing)
        return {
          ok: false,
          error: {
            code: 'not_allowed',
            message: { de: 'Vorort wird beendet.', en: 'Vorort is shutting down.' },
          },
        };
      if (isHostCallName(name)) return callHost(name, args);
      return dispatcher.call(name, args);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    networkChanged(online) {
      const before = reachableNow();
      osOnline = online;
      feedNetwork(before);
    },
    suspended() {
      const before = reachableNow();
      asleep = true;
      feedNetwork(before);
    },
    resumed() {
      const before = reachableNow();
      asleep = false;
      feedNetwork(before);
    },
    close() {
      closing ??= (async () => {
        setVisible(false);
        login?.abort();
        feedFetch?.abort();
        tokens?.forget();
        await stopScheduler();
        await Promise.all([...background]);
        await stopDemo();
        await replica.close();
      })();
      return closing;
    },
  };
}

/** The replica file, readable by its owner only. */
function openPrivateReplica(file: string): Replica {
  const replica = openReplica(file);
  chmodSync(file, 0o600);
  return replica;
}

function safely<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** The demo's "browser": a GET that follows the sandbox's redirects to the loopback listener. */
async function followRedirects(url: string): Promise<void> {
  const response = await fetch(url, { redirect: 'follow' });
  await response.arrayBuffer();
}

/** Who signed in: the user-info endpoint's `sub` and name (best effort; the id is enough). */
async function userOf(
  account: AccountInfo,
  accessToken: string,
): Promise<{ id: string; name: string }> {
  try {
    const response = await fetch(`${oauthBaseOf(account.authUrl)}/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return { id: '', name: '' };
    const claims = (await response.json()) as Record<string, unknown>;
    const id = typeof claims.sub === 'string' ? claims.sub : '';
    const name =
      typeof claims.name === 'string'
        ? claims.name
        : [claims.given_name, claims.family_name]
            .filter((part) => typeof part === 'string')
            .join(' ');
    return { id, name: name || id };
  } catch {
    return { id: '', name: '' };
  }
}

export type { SchedulerState };
