// The app session as the host tests open it: in a folder of its own with real files, its
// secrets in a file, every event it tells collected in order; a call that answers its value or
// throws the core's English words; and a wait for what the events show, with a deadline.
import { join } from 'node:path';
import type { CoreEvent } from '../../sync/contract';
import { fileSecretStore } from '../../sync/host/files';
import {
  openHostSession,
  type HostSession,
  type HostSessionOptions,
} from '../../sync/host/session';
import { syncWorker } from './bundled';

export interface TestSession {
  session: HostSession;
  events: CoreEvent[];
}

/**
 * A session in `userDataDir`; its "system browser" opens nothing unless `options` gives one
 * (a test that needs a login gives an openExternal that follows the sign-in page).
 */
export async function openTestSession(
  userDataDir: string,
  options: Partial<HostSessionOptions> = {},
): Promise<TestSession> {
  const session = await openHostSession({
    userDataDir,
    secrets: fileSecretStore(join(userDataDir, 'secrets.json')),
    openExternal: async () => {
      throw new Error('this test opens no browser');
    },
    ...syncWorker,
    ...options,
  });
  const events: CoreEvent[] = [];
  session.onEvent((event) => events.push(event));
  return { session, events };
}

/** The call's value; a refusal throws with the call's name and the core's English words. */
export async function call<T>(session: HostSession, name: string, args: unknown = {}): Promise<T> {
  const outcome = await session.call(name, args);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message.en}`);
  return outcome.value as T;
}

/** Waits until `check` holds, looking every `stepMs`; after `ms` it fails naming `what`. */
export async function until(
  check: () => boolean,
  what: string,
  ms = 60_000,
  stepMs = 50,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
