// Signing in where no browser opened (browser mode with --no-open, no display, a browser that
// failed): the session says the sign-in page's address while it waits (AppState.signIn), in every
// app.state, so a page can offer it; the address leads to the sign-in; and account.cancelLogin
// really ends the login: its loopback listener closes, account.login answers cancelled, the
// session is signed out again at once. Against the sandbox over HTTP, with real files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../../test/support/loopback-port';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { syncWorker } from '../../test/support/bundled';
import { until } from '../../test/support/host-session';
import type { AppState, CoreEvent } from '../contract';
import type { Outcome } from '../dispatch';
import { fileSecretStore } from './files';
import { openHostSession, type HostSession } from './session';

let sandbox: RunningSandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, scale: 'small', prefix: '/core/v1', autoApprove: true });
  dir = mkdtempSync(join(tmpdir(), 'vorort-sign-in-page-'));
});

afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A session whose "system browser" opens nothing, as with --no-open or without a display. */
async function openSession(name: string) {
  const opened: string[] = [];
  const userDataDir = join(dir, name);
  const session = await openHostSession({
    userDataDir,
    secrets: fileSecretStore(join(userDataDir, 'secrets.json')),
    openExternal: async (url) => {
      opened.push(url);
    },
    ...syncWorker,
  });
  const events: CoreEvent[] = [];
  session.onEvent((event) => events.push(event));
  const configured = await session.call('account.configure', {
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
  });
  expect(configured.ok).toBe(true);
  return { session, events, opened };
}

async function appState(session: HostSession): Promise<AppState> {
  const outcome = await session.call('app.state', {});
  if (!outcome.ok) throw new Error(outcome.error.message.en);
  return outcome.value as AppState;
}

describe('the sign-in page while signing in', () => {
  it('is said while the login waits (events and app.state), and leads to the sign-in', async () => {
    const { session, events, opened } = await openSession('address');
    try {
      const login = session.call('account.login', {});
      await until(() => opened.length === 1, 'the browser asked to open the sign-in page');
      const address = opened[0]!;
      expect(address.startsWith(sandbox.authUrl)).toBe(true);
      const said = events.findLast((event) => event.type === 'app.state');
      expect(said?.type === 'app.state' && said.state).toMatchObject({
        phase: 'signing-in',
        signIn: { address },
      });
      // A page opened (or reloaded) now gets it too.
      expect((await appState(session)).signIn).toEqual({ address });

      // The person opens the address in a browser of their own: the sandbox approves and
      // sends the browser on to the session's listener.
      const page = await fetch(address, { redirect: 'follow' });
      expect(page.status).toBe(200);
      const answer = (await login) as Outcome<AppState>;
      expect(answer.ok && answer.value.phase).toBe('signed-in');
      expect((await appState(session)).signIn).toBeNull();
    } finally {
      await session.close();
    }
  });

  it('account.cancelLogin ends the login: the listener closes, the login answers cancelled, signed out at once', async () => {
    const { session, opened } = await openSession('cancel');
    try {
      const login = session.call('account.login', {});
      await until(() => opened.length === 1, 'the browser asked to open the sign-in page');
      const redirect = new URL(new URL(opened[0]!).searchParams.get('redirect_uri') ?? '');
      const port = Number(redirect.port);
      expect(redirect.hostname).toBe('127.0.0.1');
      expect(await listening(port)).toBe(true);

      const cancelled = (await session.call('account.cancelLogin', {})) as Outcome<AppState>;
      expect(cancelled.ok && cancelled.value).toMatchObject({ phase: 'signed-out', signIn: null });
      const answer = (await login) as Outcome<AppState>;
      expect(answer.ok).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code).toBe('cancelled');
        expect(answer.error.message.de).toBe('Die Anmeldung wurde abgebrochen.');
      }
      expect(await listening(port)).toBe(false);
      expect((await appState(session)).phase).toBe('signed-out');

      // Nothing running: a cancel changes nothing; a new login works.
      const again = (await session.call('account.cancelLogin', {})) as Outcome<AppState>;
      expect(again.ok && again.value.phase).toBe('signed-out');
      const second = session.call('account.login', {});
      await until(() => opened.length === 2, 'the second sign-in page');
      await fetch(opened[1]!, { redirect: 'follow' });
      const signedIn = (await second) as Outcome<AppState>;
      expect(signedIn.ok && signedIn.value.phase).toBe('signed-in');
    } finally {
      await session.close();
    }
  });
});
