// The app session's account and login: the service's addresses, the login in the system browser
// (or the embedded demo's, which approves by itself the host that sends its per-run secret), the
// tokens and the API client of the signed-in account, sign-out (keeping or deleting the local
// data), another account taking over, and the app's phase every window shows (first run, signed
// out, signing in, signed in).
import { rmSync } from 'node:fs';
import { createApiClient, type ApiClient } from '../api';
import type { AccountInfo, AppSettings, AppState } from '../contract';
import { CoreFailure } from '../core-error';
import { createRefresher, type Refresher } from '../pull/refresh';
import type { BackgroundSync, SignedInClient } from './background-sync';
import { NOT_IN_DEMO, startSwitchedDemo, type SwitchedDemo } from './demo-control';
import { ensurePrivateDir } from './files';
import { loginFailure, loopbackLogin, oauthBaseOf, type TokenSet } from './login';
import type { HostCallHandlers, SessionContext } from './session-context';
import type { ProfileChoice } from './profile-choice';
import type { Sqlite } from '../db/sqlite';
import { pendingLossOf } from './replica-calls';
import { HostTokens, readStoredTokens } from './tokens';

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

export type Account = ReturnType<typeof createAccount>;

export function createAccount(
  ctx: SessionContext,
  deps: {
    sync: BackgroundSync;
    /** A new, empty replica in place of the old one (the next sync fills it). */
    dropReplica(): Promise<void>;
    updateAppSettings(change: Partial<AppSettings>): AppSettings;
    profile: ProfileChoice;
    /** The session is closing: a login that ends now is not taken. */
    closing(): boolean;
  },
) {
  const { options, files } = ctx;
  const settings = () => ctx.settings();
  let phase: AppState['phase'] = settings().account ? 'signed-out' : 'first-run';
  let reason: AppState['reason'] = null;
  let tokens: HostTokens | null = null;
  let api: ApiClient | null = null;
  let refresher: Refresher | null = null;
  let demo: SwitchedDemo | null = null;
  let login: AbortController | null = null;
  /** The running login's sign-in page (AppState.signIn). */
  let loginAddress: string | null = null;
  /** The demo's step while it starts (phase signing-in). */
  let demoStart: AppState['demoStart'] = null;

  function appState(): AppState {
    return {
      phase,
      account: settings().account,
      user: phase === 'signed-in' ? settings().user : null,
      scheduler: deps.sync.state(),
      reason,
      signIn: phase === 'signing-in' && loginAddress ? { address: loginAddress } : null,
      demoRole: settings().account?.demo ? settings().demoRole : null,
      demoService: demo ? (demo.online ? 'online' : 'offline') : null,
      ...(demoStart ? { demoStart } : {}),
    };
  }

  function setPhase(next: AppState['phase'], why: AppState['reason'] = null): void {
    phase = next;
    reason = why;
    demoStart = null;
    ctx.emit({ type: 'app.state', state: appState() });
  }

  /** The demo starts: signing in from the first moment, the step said (the service, its login). */
  function demoStep(step: 'service' | 'login'): void {
    phase = 'signing-in';
    reason = null;
    demoStart = { step, since: new Date().toISOString() };
    ctx.emit({ type: 'app.state', state: appState() });
  }

  /** Signed in: the API client, the refresher and the scheduler. */
  function signedIn(account: AccountInfo, held: TokenSet): void {
    tokens?.forget();
    const keeper: HostTokens = new HostTokens({
      account,
      secrets: options.secrets,
      initial: held,
      onRevoked: (words) => {
        if (tokens !== keeper) return;
        ctx.track(signOut(false, words));
      },
    });
    tokens = keeper;
    api = createApiClient({
      baseUrl: account.baseUrl,
      oauthUrl: oauthBaseOf(account.authUrl),
      tokens: keeper,
    });
    refresher = createRefresher({ api, replica: ctx.replica(), options: ctx.syncSettings() });
    deps.sync.signedIn(account);
    setPhase('signed-in');
  }

  /** Forgets the login (tokens, client, scheduler, the stored secret); the replica stays. */
  async function forgetLogin(): Promise<void> {
    login?.abort();
    tokens?.forget();
    tokens = null;
    api = null;
    refresher = null;
    await deps.sync.stop();
    await options.secrets.clear();
  }

  async function stopDemo(): Promise<void> {
    const running = demo;
    demo = null;
    if (running) await running.close();
  }

  async function signOut(deleteLocalData: boolean, why: AppState['reason'] = null): Promise<void> {
    await forgetLogin();
    if (settings().account?.demo) await stopDemo();
    if (deleteLocalData) {
      await stopDemo();
      rmSync(files.demo, { recursive: true, force: true });
      await deps.dropReplica();
    }
    ctx.saveSettings({ ...settings(), user: null });
    setPhase(settings().account ? 'signed-out' : 'first-run', why);
  }

  /**
   * Another account (another service) takes over: the replica holds the old one's data. A demo's
   * data goes; a real account's goes only when none of its changes would be lost.
   */
  async function switchAccount(next: AccountInfo): Promise<void> {
    const current = settings().account;
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
    // The person's choice of profile was for the other service's account.
    const profileChosen = sameService && settings().profileChosen;
    ctx.saveSettings({ ...settings(), account: next, user: null, profileChosen });
  }

  const pendingLoss = () => pendingLossOf(ctx.replica());

  /**
   * The replica is the data of the person who signed in to it: another person's login to the same
   * service (another `sub`) starts an empty one, or is refused while the first person's changes
   * wait to be sent (they would be lost, or sent in the wrong name). A login without a `sub` keeps
   * the replica as it is.
   */
  async function claimReplica(user: { id: string; name: string }): Promise<void> {
    if (user.id === '') return;
    const owner = replicaOwner(ctx.replica().sqlite);
    if (owner !== null && owner.id !== user.id) {
      const loss = pendingLoss();
      if (loss.pending + loss.parked > 0) {
        setPhase(tokens ? 'signed-in' : 'signed-out');
        const who = owner.name || owner.id;
        const count = loss.pending + loss.parked;
        throw new CoreFailure('not_allowed', {
          de: `Auf diesem Computer ${count === 1 ? 'wartet noch eine Änderung' : `warten noch ${count} Änderungen`} von ${who} darauf, gesendet zu werden: bitte erst als ${who} anmelden und synchronisieren, oder beim Abmelden „Lokale Daten löschen“ wählen.`,
          en: `${count === 1 ? 'A change' : `${count} changes`} by ${who} ${count === 1 ? 'is' : 'are'} still waiting to be sent from this computer: please sign in as ${who} and sync first, or sign out deleting the local data.`,
        });
      }
      await forgetLogin();
      await deps.dropReplica();
    }
    setReplicaOwner(ctx.replica().sqlite, user);
  }

  async function runLogin(
    account: AccountInfo,
    open: (url: string) => Promise<void>,
    loginHint?: string,
  ): Promise<AppState> {
    login?.abort();
    const controller = new AbortController();
    login = controller;
    loginAddress = null;
    if (account.demo) demoStep('login');
    else setPhase('signing-in');
    let held: TokenSet;
    try {
      held = await loopbackLogin({
        account,
        openExternal: (url) => {
          loginAddress = url;
          ctx.emit({ type: 'app.state', state: appState() });
          return open(url);
        },
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
    if (login !== controller || deps.closing()) throw loginFailure(new Error('superseded'));
    login = null;
    const user = {
      ...(await userOf(account, held.accessToken)),
      scopes: held.scope ? held.scope.split(' ').filter(Boolean) : null,
    };
    await claimReplica(user);
    try {
      await HostTokens.save(options.secrets, account, held);
    } catch (error) {
      // The secret store refused (no encrypted storage on this computer): not signed in.
      setPhase(tokens ? 'signed-in' : 'signed-out');
      throw loginFailure(error);
    }
    ctx.saveSettings({ ...settings(), user });
    if (!account.demo) deps.profile.afterLogin(held.scope);
    signedIn(account, held);
    return appState();
  }

  async function startDemo(): Promise<AccountInfo> {
    if (!options.demo) throw NO_DEMO;
    if (!demo) {
      ensurePrivateDir(files.demo);
      demo = await startSwitchedDemo(options.demo, files.demo);
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
  async function demoLogin(role: DemoRole = settings().demoRole): Promise<AppState> {
    // Said at once: the first start of a large demo makes its data for a while.
    if (!options.demo) throw NO_DEMO;
    const before = phase;
    demoStep('service');
    let account: AccountInfo;
    try {
      account = await startDemo();
    } catch (error) {
      setPhase(before);
      throw error;
    }
    if (!settings().account?.demo) await switchAccount(account);
    else if (settings().demoRole !== role) {
      await forgetLogin();
      await deps.dropReplica();
      ctx.saveSettings({ ...settings(), user: null });
    }
    // The demo's port changes with every start: the account follows it.
    ctx.saveSettings({ ...settings(), account, demoRole: role });
    if (settings().app.profile !== role) deps.updateAppSettings({ profile: role });
    // The embedded sandbox approves by itself (this host only: its login headers carry the
    // per-run secret): its pages redirect straight to the listener.
    const loginHeaders = demo?.loginHeaders;
    return runLogin(account, (url) => followRedirects(url, loginHeaders), DEMO_LOGIN_HINTS[role]);
  }

  const calls: Pick<
    HostCallHandlers,
    | 'app.state'
    | 'account.configure'
    | 'account.login'
    | 'account.cancelLogin'
    | 'account.demo'
    | 'demo.service'
    | 'account.logout'
    | 'account.pendingLoss'
  > = {
    'app.state': async () => appState(),
    'account.configure': async (args) => {
      const next: AccountInfo = { ...args, demo: false };
      const current = settings().account;
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
      const account = settings().account;
      if (!account) throw NO_ACCOUNT;
      if (account.demo) return demoLogin();
      return runLogin(account, options.openExternal);
    },
    'account.cancelLogin': async () => {
      login?.abort();
      login = null;
      if (phase === 'signing-in') setPhase(tokens ? 'signed-in' : 'signed-out');
      return appState();
    },
    'account.demo': async (args) => demoLogin(args.role),
    'demo.service': async (args) => {
      if (!demo || !settings().account?.demo) throw NOT_IN_DEMO;
      await demo.setOnline(args.online);
      // As at a venue without network, the computer says so too: offline at once (the probes
      // find the service gone); back, a sync soon sends what waited.
      deps.sync.serviceReachable(args.online);
      ctx.emit({ type: 'app.state', state: appState() });
      return appState();
    },
    'account.logout': async (args) => {
      await signOut(args.deleteLocalData);
      return appState();
    },
    'account.pendingLoss': async () => pendingLoss(),
  };

  return {
    calls,
    /** What a sync needs of the login; null while signed out. */
    client(): SignedInClient | null {
      const account = settings().account;
      return account && api && tokens && refresher ? { account, api, tokens, refresher } : null;
    },
    /** The screens' on-demand refresher; null while signed out. */
    refresher: () => refresher,
    /** The refresher holds its options: a new one follows a new profile and window. */
    followSettings(): void {
      if (api)
        refresher = createRefresher({ api, replica: ctx.replica(), options: ctx.syncSettings() });
    },
    /**
     * At start: stored tokens sign in at once; a demo account starts its sandbox and signs in
     * again (the sandbox forgets its logins when it stops).
     */
    async resume(): Promise<void> {
      const account = settings().account;
      if (account?.demo && options.demo) {
        ctx.track(demoLogin());
      } else if (account) {
        const stored = await readStoredTokens(options.secrets, account);
        if (stored) {
          const { tokenUrl: _tokenUrl, clientId: _clientId, ...held } = stored;
          signedIn(account, held);
        }
      }
    },
    /** Closing: a running login ends, the tokens are forgotten (the stored ones stay). */
    leave(): void {
      login?.abort();
      tokens?.forget();
    },
    stopDemo,
  };
}

/** Redirects the demo's "browser" follows at most (the sandbox's one, to the listener). */
const DEMO_REDIRECTS = 5;

/**
 * The demo's "browser": a GET of its login page with the demo's login headers (its per-run
 * secret), following the redirects to the loopback listener without them. A page that refuses
 * (no redirect) is said at once, not left to the login's timeout.
 */
async function followRedirects(
  url: string,
  loginHeaders: Readonly<Record<string, string>> = {},
): Promise<void> {
  let next = url;
  for (let hop = 0; hop <= DEMO_REDIRECTS; hop++) {
    const response = await fetch(next, {
      redirect: 'manual',
      ...(hop === 0 ? { headers: { ...loginHeaders } } : {}),
    });
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      next = new URL(location, next).href;
      continue;
    }
    if (!response.ok)
      throw new Error(`the demo's login page answered ${response.status} ${response.statusText}`);
    return;
  }
  throw new Error(`the demo's login page redirected more than ${DEMO_REDIRECTS} times`);
}

/** Whose data the replica holds: the `sub` and name of its last login (replica_meta). */
function replicaOwner(sqlite: Sqlite): { id: string; name: string } | null {
  const rows = sqlite
    .prepare("SELECT key, value FROM replica_meta WHERE key IN ('login_sub', 'login_name')")
    .all() as { key: string; value: string }[];
  const id = rows.find((row) => row.key === 'login_sub')?.value;
  if (id === undefined) return null;
  return { id, name: rows.find((row) => row.key === 'login_name')?.value ?? '' };
}

function setReplicaOwner(sqlite: Sqlite, user: { id: string; name: string }): void {
  const upsert = sqlite.prepare(
    'INSERT INTO replica_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  sqlite.transaction(() => {
    upsert.run('login_sub', user.id);
    upsert.run('login_name', user.name);
  })();
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
