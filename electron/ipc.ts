// The contract over Electron's IPC (shared DESIGN.md, "One contract, three transports"; design
// Seam 3): the preload (./preload.ts) invokes CALL_CHANNEL with `{ id, call, args }` and gets
// `{ id, ok: true, value }` or `{ id, ok: false, error }`; every CoreEvent goes to every window
// as `{ event }` on EVENT_CHANNEL. A call is answered only for the top frame of one of our own
// windows showing a page of the app's own origin (anything else: a CoreError `not_allowed`, the contract's code for a refusal); the
// message is read as browser mode reads a WebSocket's (JSON only, not too large nor too deep, no
// `__proto__` keys, exactly id, call and args), then the session validates the arguments with
// the contract's schemas. Nothing is thrown across the bridge: errors are values.
//
// The binding takes the few Electron objects it needs (ipcMain, the windows' webContents, the
// invoking event's sender frame) as plain interfaces, so it is tested in Node without Electron.
import type { CoreError, CoreEvent } from '../sync/contract';
import { parseMessage, type ServerMessage } from '../sync/host/browser-server-messages';
import type { HostSession } from '../sync/host/session';

export const CALL_CHANNEL = 'vorort:call';
export const EVENT_CHANNEL = 'vorort:event';

/** The part of WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}

/** The part of IpcMainInvokeEvent the binding reads. */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: FrameLike | null;
}

/** The part of ipcMain the binding uses. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

/** The part of a window's webContents the binding uses. */
export interface WebContentsLike {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

export interface IpcBindingOptions {
  ipcMain: IpcMainLike;
  session: Pick<HostSession, 'call' | 'onEvent'>;
  /** The app's own origin, e.g. `app://vorort` (pages of any other origin are refused). */
  appOrigin: string;
  /** Our windows' webContents now (events go to each; calls are answered only for these). */
  windows(): WebContentsLike[];
}

const forbidden = (en: string, de: string): CoreError => ({
  code: 'not_allowed',
  message: { de: `Nicht erlaubt: ${de}`, en: `Forbidden: ${en}` },
});

/** The origin of a URL as the check compares it (`null` for one that cannot be read). */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    // Custom standard schemes (app://vorort) have an opaque `origin` in WHATWG URL: build it.
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/** Why the sender may not call, or null when it may (the top frame of our window, our origin). */
export function senderProblem(
  event: InvokeEventLike,
  appOrigin: string,
  windows: WebContentsLike[],
): CoreError | null {
  if (!windows.some((contents) => contents.id === event.sender.id && !contents.isDestroyed()))
    return forbidden(
      'the call did not come from a window of Vorort',
      'der Aufruf kam aus keinem Fenster von Vorort',
    );
  const frame = event.senderFrame;
  if (!frame)
    return forbidden('the calling page is gone', 'die aufrufende Seite gibt es nicht mehr');
  if (frame.parent !== null)
    return forbidden(
      'only the app’s own page may call the core, not a frame inside it',
      'nur die Seite der App selbst darf den Kern aufrufen, kein Rahmen darin',
    );
  if (originOf(frame.url) !== appOrigin)
    return forbidden(
      `a page of another origin (${originOf(frame.url) ?? 'unknown'}) may not call the core`,
      `eine Seite anderer Herkunft (${originOf(frame.url) ?? 'unbekannt'}) darf den Kern nicht aufrufen`,
    );
  return null;
}

/**
 * Reads an IPC message as the WebSocket's are read (structured clone may carry more than JSON:
 * dates, maps, cycles; what is not plain JSON, or too large or deep, is refused like there).
 */
export function readMessage(message: unknown): ReturnType<typeof parseMessage> {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch {
    text = undefined;
  }
  if (typeof text !== 'string') return parseMessage('not JSON', false);
  return parseMessage(text, false);
}

/** Answers one invocation: never throws, always a ServerMessage. */
export async function answerCall(
  event: InvokeEventLike,
  message: unknown,
  options: Pick<IpcBindingOptions, 'session' | 'appOrigin' | 'windows'>,
): Promise<ServerMessage> {
  const parsed = readMessage(message);
  const id = parsed.ok ? parsed.message.id : parsed.id;
  const problem = senderProblem(event, options.appOrigin, options.windows());
  if (problem) return { ...(id === undefined ? {} : { id }), ok: false, error: problem };
  if (!parsed.ok) return parsed.id === undefined ? { ok: false, error: parsed.error } : parsed;
  const { call, args } = parsed.message;
  try {
    const outcome = await options.session.call(call, args, { transport: 'ipc' });
    return outcome.ok
      ? { id: parsed.message.id, ok: true, value: outcome.value }
      : { id: parsed.message.id, ok: false, error: outcome.error };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return {
      id: parsed.message.id,
      ok: false,
      error: {
        code: 'internal',
        message: { de: `Interner Fehler: ${text}`, en: `Internal error: ${text}` },
      },
    };
  }
}

/** Sends one event to every window still there (a closing window's failure is its own). */
export function broadcast(windows: WebContentsLike[], event: CoreEvent): void {
  for (const contents of windows) {
    if (contents.isDestroyed()) continue;
    try {
      contents.send(EVENT_CHANNEL, { event });
    } catch {
      // The window is going away.
    }
  }
}

/** Binds the session to IPC; answers the function that unbinds it. */
export function bindSessionToIpc(options: IpcBindingOptions): () => void {
  options.ipcMain.handle(CALL_CHANNEL, (event, message) => answerCall(event, message, options));
  const stop = options.session.onEvent((event) => broadcast(options.windows(), event));
  return () => {
    options.ipcMain.removeHandler(CALL_CHANNEL);
    stop();
  };
}
