// The WebSocket's messages (shared DESIGN.md, "One contract, three transports"; the same as the
// Electron IPC carries): a client sends `{ id, call, args }`, the core answers `{ id, ok: true,
// value }` or `{ id, ok: false, error }` and pushes `{ event }`. What a client sends is read
// here before the session sees it: text only, JSON, at most MAX_DEPTH levels deep, no
// `__proto__` keys, exactly the three members. Anything else is answered with a CoreError
// `invalid_arguments` (with the id when the message had a usable one), never thrown.
import type { CoreError, CoreEvent } from '../contract';

/** A message of more than this many bytes is refused unread (`invalid_arguments`) ... */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** ... and one of more than this closes the connection (1009, "message too big") as it arrives. */
export const HARD_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Arguments nested deeper than this are refused before any schema walks them. */
export const MAX_DEPTH = 64;
/** Longest call name accepted (the contract's are far shorter). */
const MAX_NAME = 200;

export interface CallMessage {
  id: number;
  call: string;
  args: unknown;
}

export type ServerMessage =
  | { id: number; ok: true; value: unknown }
  | { id?: number; ok: false; error: CoreError }
  | { event: CoreEvent }
  /** The run's token, to the page that connected with a single-use launch token (browser-server.ts). */
  | { session: string };

export type Parsed =
  { ok: true; message: CallMessage } | { ok: false; id?: number; error: CoreError };

function refused(en: string, de: string, id?: number): Parsed {
  return {
    ok: false,
    ...(id === undefined ? {} : { id }),
    error: {
      code: 'invalid_arguments',
      message: { de: `Ungültige Nachricht: ${de}`, en: `Invalid message: ${en}` },
      issues: [{ path: '', message: en }],
    },
  };
}

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Reads one frame's data; `binary` for frames that are not text. */
export function parseMessage(data: string | Buffer, binary: boolean): Parsed {
  if (binary)
    return refused(
      'binary frames are not accepted; send JSON text { id, call, args }',
      'Binärnachrichten werden nicht angenommen; bitte JSON-Text { id, call, args } senden',
    );
  if (data.length > MAX_MESSAGE_BYTES) {
    // Not parsed; the id, when the message begins with it, is read from its first bytes.
    const head =
      typeof data === 'string' ? data.slice(0, 64) : data.subarray(0, 64).toString('latin1');
    const id = /^\s*\{\s*"id"\s*:\s*(\d{1,15})\s*[,}]/.exec(head)?.[1];
    return refused(
      `larger than ${MAX_MESSAGE_BYTES} bytes`,
      `größer als ${MAX_MESSAGE_BYTES} Bytes`,
      id === undefined ? undefined : Number(id),
    );
  }
  const text = typeof data === 'string' ? data : data.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused('not JSON', 'kein JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return refused(
      'expected an object { id, call, args }',
      'erwartet ein Objekt { id, call, args }',
    );
  const record = value as Record<string, unknown>;
  const id = Object.hasOwn(record, 'id') && isId(record.id) ? record.id : undefined;
  const problem = checkTree(value);
  if (problem) return refused(problem.en, problem.de, id);
  if (id === undefined)
    return refused(
      'id must be a whole number of 0 or more',
      'id muss eine ganze Zahl ab 0 sein',
      undefined,
    );
  const extra = Object.keys(record).filter((key) => !['id', 'call', 'args'].includes(key));
  if (extra.length > 0)
    return refused(
      `unknown member ${JSON.stringify(extra[0]!.slice(0, 40))} (only id, call, args)`,
      `unbekanntes Feld ${JSON.stringify(extra[0]!.slice(0, 40))} (nur id, call, args)`,
      id,
    );
  const call = record.call;
  if (typeof call !== 'string' || call.length === 0 || call.length > MAX_NAME)
    return refused(
      'call must be the name of a query or command (a short text)',
      'call muss der Name einer Abfrage oder eines Befehls sein (ein kurzer Text)',
      id,
    );
  return {
    ok: true,
    message: { id, call, args: Object.hasOwn(record, 'args') ? record.args : {} },
  };
}

/**
 * Walks the parsed value without recursion: too deep, or a `__proto__` key anywhere (JSON.parse
 * makes it an own member, harmless here, but a later spread or merge could turn it into a
 * prototype), is refused. `constructor` and `prototype` keys are plain members: the schemas
 * refuse or strip them like any unknown member.
 */
function checkTree(root: unknown): { en: string; de: string } | null {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH)
      return {
        en: `nested more than ${MAX_DEPTH} levels deep`,
        de: `mehr als ${MAX_DEPTH} Ebenen tief verschachtelt`,
      };
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__')
        return {
          en: 'the key __proto__ is not allowed',
          de: 'der Schlüssel __proto__ ist nicht erlaubt',
        };
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}

/** An answer as JSON; a value that cannot be written as JSON becomes an `internal` error. */
export function encode(message: ServerMessage): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const id = 'id' in message ? message.id : undefined;
    return JSON.stringify({
      ...(id === undefined ? {} : { id }),
      ok: false,
      error: {
        code: 'internal',
        message: {
          de: `Interner Fehler: die Antwort ist kein JSON (${text})`,
          en: `Internal error: the answer is not JSON (${text})`,
        },
      },
    });
  }
}
