// What record an outbox operation concerns, in words a person recognises ("Max Muster", "hours on
// 23.11.2026, 4 h, Erste Hilfe"), so a sync centre can say "Teilnahme von Max Muster abgesagt"
// instead of "participation local-3f2…". Each writable resource's module says it (sync/resources),
// read from the replica (its local truth, so a name changed offline shows as changed), else from
// the operation's own arguments (a record the replica no longer holds), else null.
import type { Sqlite } from '../db/sqlite';
import type { OutboxSubject } from '../contract';
import { writableResource } from '../resources';
import type { WriteArgs } from './operations';
import { replicaReader } from './records';

/** Who or what an operation on `recordType` / `recordId` concerns; null when nothing is known. */
export function outboxSubject(
  sqlite: Sqlite,
  recordType: string,
  recordId: string,
  args: WriteArgs,
): OutboxSubject | null {
  return writableResource(recordType)?.subject(replicaReader(sqlite), recordId, args) ?? null;
}
