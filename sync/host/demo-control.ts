// The demo's service taken offline and back (the host call demo.service), as a venue without
// network: the demo's interface (its base URL: every sync, every sent change and the
// reachability probe) is reached through a TCP switch on this computer, which stops listening
// (connections refused) and drops the open ones, then listens again on the same port. The
// sandbox keeps its data and its logins meanwhile (a restarted one would forget the tokens and
// sign the app out). The sign-in stays the sandbox's own address: its ID tokens name the
// sandbox's origin as their issuer, which the login checks. The demo's service answers only
// requests addressed to its own port, so it is told the switch's (acceptHostPort).
import { CoreFailure } from '../core-error';
import type { DemoProvider } from './session';
import { TcpSwitch } from './tcp-switch';

type RunningDemo = Awaited<ReturnType<DemoProvider['start']>>;

/** A running demo whose interface can be taken offline; close() ends both. */
export interface SwitchedDemo extends RunningDemo {
  readonly online: boolean;
  setOnline(online: boolean): Promise<void>;
}

export const NOT_IN_DEMO = new CoreFailure('not_allowed', {
  de: 'Den Dienst offline nehmen und wieder verbinden geht nur in der Demo, solange sie läuft.',
  en: 'Taking the service offline and reconnecting it works only in the demo, while it runs.',
});

/** Starts the demo (the provider's sandbox) with its interface behind a switch, online. */
export async function startSwitchedDemo(
  provider: DemoProvider,
  dataDir: string,
): Promise<SwitchedDemo> {
  const started = await provider.start(dataDir);
  const interfacePort = Number(new URL(started.baseUrl).port);
  const gate = new TcpSwitch(interfacePort);
  try {
    await gate.start();
    await started.acceptHostPort?.(gate.port);
  } catch (error) {
    await gate.stop();
    await started.close();
    throw error;
  }
  let online = true;
  let change = Promise.resolve();
  return {
    ...started,
    baseUrl: gate.through(started.baseUrl),
    get online() {
      return online;
    },
    setOnline(next) {
      // One change after the other: a quick "offline, online" ends online.
      change = change
        .catch(() => {})
        .then(async () => {
          if (next === online) return;
          if (next) await reconnect(gate);
          else await gate.stop();
          online = next;
        });
      return change;
    },
    async close() {
      await change.catch(() => {});
      await gate.stop();
      await started.close();
    },
  };
}

/** Listens again on the switch's port; taken meanwhile by another program: said in words. */
async function reconnect(gate: TcpSwitch): Promise<void> {
  try {
    await gate.start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CoreFailure('internal', {
      de: `Der Dienst der Demo lässt sich nicht wieder verbinden (${code}: sein Port ${gate.port} ist inzwischen belegt). Bitte abmelden und die Demo neu starten: die Daten der Demo bleiben.`,
      en: `The demo's service cannot be reconnected (${code}: its port ${gate.port} is taken meanwhile). Please sign out and start the demo again: the demo's data stays.`,
    });
  }
}
