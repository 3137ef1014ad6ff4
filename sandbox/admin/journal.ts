// The change journal of the admin interface: every write to the store since start (writes of
// the interface, of the admin interface, of tests through the handle's store, and restores;
// not the demo-data generation, which runs before the journal is installed), oldest first. A
// differential tester reads it (GET /_admin/changes) to know what changed on the service
// between two syncs, and which parents a change concerns (`refs`).
//
// It is a decorator of the Store interface, installed only when the admin interface is on, so a
// sandbox without it pays nothing. Writes inside a transaction are noted when the outermost
// transaction commits and dropped when it rolls back: the journal never shows a write the
// store does not hold.
import type { SandboxClock } from '../data/clock';
import type {
  ResourceRef,
  ResourceType,
  SandboxSettings,
  Store,
  StoredResource,
  RestoredRecord,
  StoreSnapshot,
} from '../data/store';

export interface JournalEntry {
  /** 1-based, increasing by one per write. */
  seq: number;
  /** The sandbox clock's time of the write (ISO 8601 UTC), also when updatedAt was kept. */
  at: string;
  op: 'put' | 'remove';
  type: ResourceType;
  id: string;
  /** Whether the write set the record's updatedAt to now (put does, putWithTime and restores do not). */
  touched: boolean;
  /** The relationship targets of the record before and after the write, each once. */
  refs: ResourceRef[];
}

/** How many entries the journal keeps; older ones are forgotten (`last` still counts them). */
export const JOURNAL_LIMIT = 200_000;

/** The last `limit` entries in a ring: appending and reading a tail cost nothing per kept entry. */
export class Journal {
  private readonly ring: JournalEntry[] = [];
  private lastSeq = 0;

  constructor(private readonly limit = JOURNAL_LIMIT) {}

  /** The seq of the latest write (0 before the first); counts forgotten entries too. */
  get last(): number {
    return this.lastSeq;
  }

  append(entry: Omit<JournalEntry, 'seq'>): void {
    this.lastSeq += 1;
    this.ring[(this.lastSeq - 1) % this.limit] = { seq: this.lastSeq, ...entry };
  }

  /** The kept entries with a seq above `seq`, oldest first, at most `max` of them. */
  after(seq: number, max = Infinity): JournalEntry[] {
    const first = Math.max(seq + 1, this.lastSeq - this.limit + 1, 1);
    const end = Math.min(this.lastSeq, first + max - 1);
    const entries: JournalEntry[] = [];
    for (let s = first; s <= end; s++) entries.push(this.ring[(s - 1) % this.limit]!);
    return entries;
  }
}

function refsOf(record: StoredResource | undefined, into: Map<string, ResourceRef>): void {
  if (!record) return;
  for (const relationship of Object.values(record.relationships)) {
    const targets = Array.isArray(relationship) ? relationship : relationship ? [relationship] : [];
    for (const ref of targets)
      into.set(`${ref.type}\u0000${ref.id}`, { type: ref.type, id: ref.id });
  }
}

/** The store with every write noted in the journal; reads pass straight through. */
export class JournaledStore implements Store {
  /** Writes of the open transaction(s), noted when the outermost one commits. */
  private readonly pending: Omit<JournalEntry, 'seq'>[] = [];
  private depth = 0;

  constructor(
    private readonly inner: Store,
    private readonly journal: Journal,
    private readonly clock: SandboxClock,
  ) {}

  all(type: ResourceType): readonly StoredResource[] {
    return this.inner.all(type);
  }

  get(type: ResourceType, id: string): StoredResource | undefined {
    return this.inner.get(type, id);
  }

  related(type: ResourceType, name: string, id: string): readonly StoredResource[] {
    return this.inner.related(type, name, id);
  }

  put(resource: Omit<StoredResource, 'updatedAt'>): StoredResource {
    const before = this.inner.get(resource.type, resource.id);
    const stored = this.inner.put(resource);
    this.note('put', before, stored, true);
    return stored;
  }

  putWithTime(resource: Omit<StoredResource, 'updatedAt'>, updatedAt: string): StoredResource {
    const before = this.inner.get(resource.type, resource.id);
    const stored = this.inner.putWithTime(resource, updatedAt);
    this.note('put', before, stored, false);
    return stored;
  }

  remove(type: ResourceType, id: string): boolean {
    const before = this.inner.get(type, id);
    const removed = this.inner.remove(type, id);
    if (removed) this.note('remove', before, undefined, false);
    return removed;
  }

  nextId(type: ResourceType): string {
    return this.inner.nextId(type);
  }

  transaction<T>(fn: () => T): T {
    const mark = this.pending.length;
    this.depth += 1;
    try {
      return this.inner.transaction(fn);
    } catch (error) {
      this.pending.length = mark;
      throw error;
    } finally {
      this.depth -= 1;
      if (this.depth === 0) {
        for (const entry of this.pending) this.journal.append(entry);
        this.pending.length = 0;
      }
    }
  }

  now(): string {
    return this.inner.now();
  }

  settings(): SandboxSettings {
    return this.inner.settings();
  }

  setSettings(settings: SandboxSettings): void {
    this.inner.setSettings(settings);
  }

  count(type: ResourceType): number {
    return this.inner.count(type);
  }

  snapshot(): StoreSnapshot {
    return this.inner.snapshot();
  }

  restore(snapshot: StoreSnapshot): RestoredRecord[] {
    const changes = this.inner.restore(snapshot);
    for (const { before, after } of changes) {
      this.note(after ? 'put' : 'remove', before, after, false);
    }
    return changes;
  }

  close(): void {
    this.inner.close();
  }

  private note(
    op: JournalEntry['op'],
    before: StoredResource | undefined,
    after: StoredResource | undefined,
    touched: boolean,
  ): void {
    const record = (after ?? before)!;
    const refs = new Map<string, ResourceRef>();
    refsOf(before, refs);
    refsOf(after, refs);
    const entry = {
      at: new Date(this.clock.now()).toISOString(),
      op,
      type: record.type,
      id: record.id,
      touched,
      refs: [...refs.values()],
    };
    if (this.depth > 0) this.pending.push(entry);
    else this.journal.append(entry);
  }
}
