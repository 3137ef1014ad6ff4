// From a queued operation to the request the service gets: method, path and JSON:API body.
// A PATCH carries only what differs from the base (DESIGN rule 5); a POST may carry a
// client-generated id where the service takes them (rule 7).
import type { Sqlite } from '../db/sqlite';
import { WRITE_COMMANDS, type WriteCommandName } from '../contract';
import type { WriteMethod } from '../api';
import type { StoredBase } from './local-truth';
import { mayHaveArrived, parseArgs, verbOf, type OutboxRow, type WriteArgs } from './operations';
import { writableType } from './records';
import { prepared } from '../db/statements';

export interface OutgoingRequest {
  method: WriteMethod;
  path: string;
  body?: unknown;
}

/** The same value for the service: absent, null and "" are one "no value"; numbers as numbers. */
export function sameValue(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === undefined || v === null || v === '';
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  if (typeof a === 'string' && typeof b === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(a)) {
    return Date.parse(a) === Date.parse(b);
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

function storedBase(sqlite: Sqlite, type: string, id: string): StoredBase | undefined {
  const { table } = writableType(type);
  const text = prepared(sqlite, `SELECT base FROM ${table} WHERE id = ?`).pluck().get(id) as
    string | undefined;
  return text ? (JSON.parse(text) as StoredBase) : undefined;
}

const relationshipId = (value: unknown) =>
  JSON.stringify((value as { data?: unknown } | undefined)?.data ?? null);

/** The request for an operation, or null when nothing differs from the service's version. */
export function requestFor(
  sqlite: Sqlite,
  op: OutboxRow,
  clientId: string | null,
): OutgoingRequest | null {
  const command = op.command as WriteCommandName;
  const spec = WRITE_COMMANDS[command];
  const args = parseArgs(op);
  const path = spec.path(args as never);
  const verb = verbOf(command);
  if (spec.method === 'DELETE') return { method: 'DELETE', path };
  if (command === 'participation.cancel') {
    return {
      method: 'POST',
      path,
      body: { data: { type: 'cancellation', attributes: args.attributes ?? {} } },
    };
  }
  if (verb === 'update') return patchFor(sqlite, spec.type, args, path, mayHaveArrived(op));
  const data: Record<string, unknown> = { type: spec.type, attributes: args.attributes ?? {} };
  if (clientId && verb === 'create') data.id = clientId;
  if (args.relationships && Object.keys(args.relationships).length > 0)
    data.relationships = args.relationships;
  return {
    method: spec.method,
    path,
    body: { data, ...(args.included?.length ? { included: args.included } : {}) },
  };
}

/**
 * The PATCH of an update: what it changes against the replica's base. Once tried, all it sets:
 * an earlier attempt may have reached the service with its answer lost, and the operation edited
 * since (outbox.edit) may set a field back to the base's value, which the service then no longer
 * holds.
 */
function patchFor(
  sqlite: Sqlite,
  type: string,
  args: WriteArgs,
  path: string,
  tried: boolean,
): OutgoingRequest | null {
  const base = storedBase(sqlite, type, args.id ?? '') ?? { attributes: {}, relationships: {} };
  const attributes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args.attributes ?? {})) {
    if (tried || name === 'qualifikationen' || !sameValue(value, base.attributes[name]))
      attributes[name] = value;
  }
  const relationships: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args.relationships ?? {})) {
    if (tried || relationshipId(value) !== relationshipId(base.relationships[name]))
      relationships[name] = value;
  }
  const hasRelationships = Object.keys(relationships).length > 0;
  if (Object.keys(attributes).length === 0 && !hasRelationships && !args.included?.length)
    return null;
  return {
    method: 'PATCH',
    path,
    body: {
      data: {
        type,
        id: args.id,
        attributes,
        ...(hasRelationships ? { relationships } : {}),
      },
      ...(args.included?.length ? { included: args.included } : {}),
    },
  };
}
