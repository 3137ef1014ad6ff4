// The preload of the app's window (sandboxed, context-isolated; built as CommonJS by
// `npm run build:electron`, since a sandboxed window cannot load an ES module preload). It exposes
// the contract only, as `window.vorort` (renderer/bridge.ts's VorortPreload): `invoke(name, args)`
// answering an Outcome (a CoreError crosses as a value), and `on('event', listener)` for the
// CoreEvents. Nothing of Node or Electron reaches the page: no ipcRenderer, no event objects.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

// The channels of electron/ipc.ts (kept here as text: the preload bundles nothing else).
const CALL_CHANNEL = 'vorort:call';
const EVENT_CHANNEL = 'vorort:event';

type Outcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; message: { de: string; en: string } } };

let nextId = 0;

function toOutcome(answer: unknown): Outcome {
  if (typeof answer === 'object' && answer !== null && 'ok' in answer) {
    const message = answer as { ok: unknown; value?: unknown; error?: Outcome & { ok: false } };
    if (message.ok === true) return { ok: true, value: message.value };
    if (message.ok === false && message.error) return { ok: false, error: message.error as never };
  }
  return {
    ok: false,
    error: {
      code: 'internal',
      message: {
        de: 'Interner Fehler: die App antwortete in unbekannter Form',
        en: 'Internal error: the app answered in an unknown form',
      },
    },
  };
}

contextBridge.exposeInMainWorld('vorort', {
  async invoke(name: string, args: unknown): Promise<Outcome> {
    nextId += 1;
    try {
      return toOutcome(await ipcRenderer.invoke(CALL_CHANNEL, { id: nextId, call: name, args }));
    } catch (error) {
      // Arguments that cannot be cloned (functions, DOM nodes) never left this page.
      const text = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: {
          code: 'invalid_arguments',
          message: {
            de: `Ungültige Nachricht: ${text}`,
            en: `Invalid message: ${text}`,
          },
        },
      };
    }
  },
  on(kind: 'event', listener: (event: unknown) => void): () => void {
    if (kind !== 'event' || typeof listener !== 'function') return () => {};
    const handler = (_event: IpcRendererEvent, message: unknown) => {
      if (typeof message === 'object' && message !== null && 'event' in message)
        listener((message as { event: unknown }).event);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
});
