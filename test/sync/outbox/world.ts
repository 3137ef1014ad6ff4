// The shared setting of the outbox tests: a sandbox in this process on 127.0.0.1 port 0, a real
// replica file pulled from it, the dispatcher on that replica, an API client that reaches the
// sandbox (recording the bodies it sends, by wrapping the real fetch) and one that reaches
// nothing (a closed port: offline).
import { EVERY_ITEM_EVERY_SYNC } from '../../../sync/pull/options';
import { createServer } from 'node:net';
import { expect } from 'vitest';
import { startSandbox, type SandboxOptions } from '../../../sandbox/server';
import { createApiClient, staticToken, type ApiClient, type TokenSource } from '../../../sync/api';
import type { OutboxEntry } from '../../../sync/contract';
import { openReplica, type Replica } from '../../../sync/db/open';
import { createDispatcher, type Dispatcher } from '../../../sync/dispatch';
import { runSync } from '../../../sync/pull/engine';
import { pushOutbox, type PushSummary } from '../../../sync/outbox/replay';
import { TEMPORARY_IDS_IN_TEXT } from '../../../sync/outbox/records';

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export interface SentBody {
  method: string;
  path: string;
  body: unknown;
}

export interface World {
  sandbox: Sandbox;
  replica: Replica;
  dispatcher: Dispatcher;
  officeToken: string;
  officeId: string;
  /** Reaches the sandbox with the office token. */
  api: ApiClient;
  /** Points at a closed port. */
  offline: ApiClient;
  /** Bodies of the writes `api` sent since the last clearSent(). */
  sent: SentBody[];
  clearSent(): void;
  close(): Promise<void>;
}

/** A port nothing listens on (taken and given back at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function apiFor(
  sandbox: Sandbox,
  tokens: TokenSource,
  sent?: SentBody[],
  baseUrl = sandbox.baseUrl,
): ApiClient {
  const recording: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    if (sent && method !== 'GET' && typeof init?.body === 'string') {
      const url = new URL(String(input));
      sent.push({ method, path: url.pathname, body: JSON.parse(init.body) as unknown });
    }
    return fetch(input, init);
  };
  return createApiClient({ baseUrl, tokens, maxRetries: 0, timeoutMs: 10_000, fetch: recording });
}

export async function startWorld(
  file: string,
  options: Partial<SandboxOptions> = {},
  pull = true,
): Promise<World> {
  const sandbox = await startSandbox({ port: 0, scale: 'small', seed: 8, ...options });
  const office = sandbox.users.find((u) => u.role === 'office')!;
  const sent: SentBody[] = [];
  const api = apiFor(sandbox, staticToken(office.accessToken), sent);
  const offline = createApiClient({
    baseUrl: `http://127.0.0.1:${await closedPort()}`,
    tokens: staticToken(office.accessToken),
    maxRetries: 0,
  });
  const replica = openReplica(file);
  if (pull) await syncFrom(api, replica);
  return {
    sandbox,
    replica,
    dispatcher: createDispatcher(replica),
    officeToken: office.accessToken,
    officeId: office.id,
    api,
    offline,
    sent,
    clearSent: () => sent.splice(0),
    close: async () => {
      await replica.close();
      await sandbox.close();
    },
  };
}

export async function syncFrom(api: ApiClient, replica: Replica, full = false): Promise<void> {
  const summary = await runSync({
    api,
    replica,
    options: { profile: 'office', ...EVERY_ITEM_EVERY_SYNC, full },
  });
  expect(summary.ok, JSON.stringify(summary.collections)).toBe(true);
}

/** A call that must succeed; its value. */
export async function call<T = Record<string, unknown>>(
  world: Pick<World, 'dispatcher'>,
  name: string,
  args: unknown,
): Promise<T> {
  const outcome = await world.dispatcher.call(name, args);
  if (!outcome.ok) throw new Error(`${name}: ${JSON.stringify(outcome.error)}`);
  return outcome.value as T;
}

/** A record write that must succeed; its receipt's id. */
export async function write(world: Pick<World, 'dispatcher'>, name: string, args: unknown) {
  return call<{ type: string; id: string; operation: number | null; state: string }>(
    world,
    name,
    args,
  );
}

export function push(world: World, api = world.api, maxWaitMs = 0): Promise<PushSummary> {
  return pushOutbox({ api, sqlite: world.replica.sqlite, maxWaitMs });
}

export function outbox(world: World): Promise<OutboxEntry[]> {
  return call<OutboxEntry[]>(world, 'outbox.list', {});
}

export function row(world: World, table: string, id: string): Record<string, unknown> | undefined {
  return world.replica.sqlite.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as
    Record<string, unknown> | undefined;
}

/** A GET through the sandbox's HTTP interface with the office token. */
export async function serviceGet(world: World, path: string): Promise<Response> {
  return fetch(`${world.sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${world.officeToken}` },
  });
}

/** A write through the sandbox's HTTP interface as the office ("someone else on the service"). */
export async function serviceWrite(
  world: World,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { data?: { id: string } } | null }> {
  const response = await fetch(`${world.sandbox.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${world.officeToken}`,
      'content-type': 'application/vnd.api+json',
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as { data?: { id: string } }) : null,
  };
}

/** No temporary id anywhere in the replica's writable tables, their references or the outbox. */
export function expectNoTemporaryIds(world: World): void {
  const sqlite = world.replica.sqlite;
  const tables = [
    ['users', 'id'],
    ['ausbildungen', 'user_id'],
    ['kalender', 'id'],
    ['helferstunden', 'id'],
    ['helferstunden', 'anlass_id'],
    ['helferstunden_anlaesse', 'id'],
    ['benachrichtigungen', 'id'],
    ['courses', 'id'],
    ['course_dates', 'course_id'],
    ['course_trainers', 'course_id'],
    ['participations', 'id'],
    ['participations', 'course_id'],
    ['customfields', 'id'],
    ['customfields', 'course_id'],
  ];
  for (const [table, column] of tables) {
    const left = sqlite
      .prepare(`SELECT ${column} FROM ${table} WHERE ${column} LIKE 'local-%'`)
      .pluck()
      .all();
    expect(left, `${table}.${column}`).toEqual([]);
  }
  const open = sqlite.prepare("SELECT record_id, args FROM outbox WHERE state <> 'done'").all() as {
    record_id: string;
    args: string;
  }[];
  for (const op of open) {
    expect(op.record_id).not.toMatch(/^local-/);
    expect(op.args.match(TEMPORARY_IDS_IN_TEXT)).toBeNull();
  }
}

/** The service's writes in the request log, as `METHOD path status`. */
export function writesLogged(world: World): string[] {
  return world.sandbox.requests
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}
