// What every route module of the admin interface shares: the interface's context (its store,
// which is the journaled one, and its paging), the sandbox's clock, the journal and the backups.
import type { SandboxClock } from '../data/clock';
import type { StoreSnapshot } from '../data/store';
import type { ApiContext } from '../http/context';
import type { Journal } from './journal';

export interface AdminContext {
  api: ApiContext;
  clock: SandboxClock;
  journal: Journal;
  /** Backups by id, taken by POST /_admin/backups; kept in memory until the sandbox stops. */
  backups: Map<string, StoreSnapshot>;
}

export interface Changed {
  type: string;
  id: string;
  op: 'put' | 'remove';
}

/**
 * Runs one change of the web interface in one store transaction and answers what it wrote or
 * removed, read back from the journal (the writes of one synchronous transaction are contiguous).
 */
export function change<T>(admin: AdminContext, fn: () => T): { result: T; changed: Changed[] } {
  const mark = admin.journal.last;
  const result = admin.api.store.transaction(fn);
  const changed = admin.journal.after(mark).map(({ type, id, op }) => ({ type, id, op }));
  return { result, changed };
}
