// Whether the service takes ids made by the client for a type (probed once, remembered): a create
// with its own id can be sent again safely, as the service tells a repeat by it (409).
import { randomUUID } from 'node:crypto';
import type { Sqlite } from '../db/sqlite';
import { prepared } from '../db/statements';
import { upsertRow } from '../db/upsert';
import type { OutboxRow } from './operations';

export const CLIENT_ID_REFUSED = 'client_generated_id';

export function clientIdFor(sqlite: Sqlite, op: OutboxRow): string | null {
  const accepted = prepared(sqlite, 'SELECT accepted FROM client_ids WHERE record_type = ?')
    .pluck()
    .get(op.record_type) as number | undefined;
  if (accepted === 0) return null;
  return op.client_id ?? randomUUID();
}

export function rememberClientIds(
  sqlite: Sqlite,
  type: string,
  accepted: boolean,
  now: string,
): void {
  upsertRow(sqlite, 'client_ids', ['record_type'], {
    record_type: type,
    accepted: accepted ? 1 : 0,
    probed_at: now,
  });
}
