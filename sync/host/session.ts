// The app session every transport serves (Electron IPC, browser mode's WebSocket): the user data
// folder (the replica, the account settings, the tokens through a SecretStore, the demo's data),
// the login, the background scheduler (its pulls in a worker thread, so this event loop stays
// free), one `call` for the data queries and commands and the host's own calls, validated with
// the contract's schemas, and the events every UI hears; export from the replica (a save dialog
// the host gives, or the bytes for a download) and the private calendar feed's address. Plain
// Node: no Electron, no sandbox (the demo comes in as a DemoProvider, the dialog as saveFile).
// This file composes the parts: ./account (account and login), ./background-sync (the scheduler,
// the sync, notifications after a sync), ./export-calls; ./session-context is what they share.
import { UPDATE_OFF, type AppSettings, type CoreEvent, type SchedulerState } from '../contract';
import { CoreFailure } from '../core-error';
import { createDispatcher, type Dispatcher, type Outcome } from '../dispatch';
import { createAccount, type Account } from './account';
import { createBackgroundSync } from './background-sync';
import { createExportCalls } from './export-calls';
import { fileSecretStore, type SecretStore } from './files';
import { createProfileChoice } from './profile-choice';
import {
  createSessionContext,
  type DemoProvider,
  type HostCallHandlers,
  type HostSessionOptions,
  type UpdatesProvider,
} from './session-context';

export { fileSecretStore, type SecretStore };
export type { UpdatesProvider };
export { heartbeatFor, VISIBLE_LEASE_MS } from './background-sync';
export { EXPORT_DATA_MAX_BYTES } from './export-calls';
export type { DemoProvider, HostSessionOptions, SchedulerState };

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

const NOT_SIGNED_IN = new CoreFailure('offline', {
  de: 'Nicht angemeldet: es gilt der Stand der letzten Synchronisierung.',
  en: 'Not signed in: the data is as of the last sync.',
});

export async function openHostSession(options: HostSessionOptions): Promise<HostSession> {
  const ctx = createSessionContext(options);
  let closing: Promise<void> | null = null;
  /** Set once the parts and the host's calls are (dataDispatcher, below). */
  let dispatcher: Dispatcher;
  // The parts call each other only once the session runs (the account is defined below).
  const sync = createBackgroundSync(ctx, {
    client: () => account.client(),
    afterSync: (summary) => profile.afterSync(summary),
    unreadNotifications: async () => {
      const outcome = await dispatcher.call('notifications.list', { unreadOnly: true });
      if (!outcome.ok) return [];
      return outcome.value
        .filter((item) => !item.gelesen)
        .map((item) => ({ id: item.id, titel: item.titel ?? '' }));
    },
  });
  const profile = createProfileChoice(ctx, updateAppSettings);
  const account: Account = createAccount(ctx, {
    sync,
    dropReplica,
    updateAppSettings,
    profile,
    closing: () => closing !== null,
  });
  const exports = createExportCalls(ctx, { online: sync.online });

  /** One dispatcher for the data's queries and commands and the host's calls. */
  function dataDispatcher(): Dispatcher {
    return createDispatcher(ctx.replica(), {
      now: ctx.now,
      host,
      onCommand: (_name, tables) => {
        sync.localWrite();
        // A local write shows at once: every window reads again what reads these tables.
        if (tables.length > 0) ctx.emit({ type: 'data.changed', tables });
      },
      refresher: (args) => {
        const refresher = account.refresher();
        if (!refresher) throw NOT_SIGNED_IN;
        return refresher(args);
      },
    });
  }

  /** A new, empty replica in place of the old one (the next sync fills it). */
  async function dropReplica(): Promise<void> {
    await ctx.replaceReplica();
    dispatcher = dataDispatcher();
    sync.rememberNotifications();
    ctx.emit({ type: 'data.changed', tables: 'all' });
  }

  /** Saves changed app settings and tells every window; a sync from now on follows them. */
  function updateAppSettings(change: Partial<AppSettings>): AppSettings {
    const given = Object.entries(change).filter(([, value]) => value !== undefined);
    const next = { ...ctx.settings().app, ...Object.fromEntries(given) } as AppSettings;
    ctx.saveSettings({ ...ctx.settings(), app: next });
    account.followSettings();
    ctx.emit({ type: 'settings.changed', settings: next });
    return next;
  }

  const host: HostCallHandlers = {
    ...account.calls,
    ...exports.calls,
    'sync.now': async () => sync.syncNow(),
    'app.visible': async (args) => {
      sync.setVisible(args.visible);
      return { visible: sync.visible() };
    },
    'settings.get': async () => ctx.settings().app,
    'settings.update': async (args) => {
      if (args.profile !== undefined) profile.chosenByPerson();
      return updateAppSettings(args);
    },
    // The desktop app's updater, where the host has one (browser mode: off).
    'updates.state': async () => options.updates?.state() ?? UPDATE_OFF,
    'updates.check': async () => options.updates?.check() ?? UPDATE_OFF,
    'updates.install': async () => options.updates?.install() ?? UPDATE_OFF,
  };
  const stopUpdateEvents = options.updates?.onChange((state) =>
    ctx.emit({ type: 'updates.state', state }),
  );

  dispatcher = dataDispatcher();
  sync.rememberNotifications();
  await account.resume();

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
      return dispatcher.call(name, args);
    },
    onEvent: (listener) => ctx.onEvent(listener),
    networkChanged: (online) => sync.networkChanged(online),
    suspended: () => sync.suspended(),
    resumed: () => sync.resumed(),
    close() {
      closing ??= (async () => {
        stopUpdateEvents?.();
        sync.setVisible(false);
        account.leave();
        exports.close();
        await sync.stop();
        await ctx.settled();
        await account.stopDemo();
        await ctx.replica().close();
      })();
      return closing;
    },
  };
}
