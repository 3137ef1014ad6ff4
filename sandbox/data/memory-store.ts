// The Store of sandbox/data/store.ts: all records in memory (fast reads, indexed relationships),
// optionally mirrored write by write into a SQLite file that the next start loads instead of
// generating new data.
import { ResourceFile } from './sqlite-file';
import {
  RESOURCE_TYPES,
  type ResourceRef,
  type ResourceType,
  type RestoredRecord,
  type SandboxSettings,
  type Store,
  type StoredResource,
  type StoreSnapshot,
} from './store';
import { formatBerlinDate } from './time';
import { TypeTable } from './type-table';

export interface StoreOptions {
  /** SQLite file to load from (when it exists and holds data) and to mirror every write into. */
  file?: string;
  /** The store clock; defaults to the system clock. */
  clock?: () => Date;
}

const SETTINGS_KEY = 'sandbox';
const HIGH_WATER_PREFIX = 'high_water:';
const KNOWN_TYPES: ReadonlySet<string> = new Set(RESOURCE_TYPES);
/** The form of Date.toISOString, which updatedAt always has. */
const UTC_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type UndoEntry =
  | { kind: 'resource'; type: ResourceType; id: string; previous: StoredResource | undefined }
  | { kind: 'settings'; previous: SandboxSettings | undefined }
  | { kind: 'highWater'; type: ResourceType; previous: number };

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
}

function isRef(value: unknown): value is ResourceRef {
  const ref = value as ResourceRef | null | undefined;
  return KNOWN_TYPES.has(ref?.type as string) && typeof ref?.id === 'string';
}

function refError(type: string, id: string, name: string, value: unknown): Error {
  return new Error(
    `${type} ${id}: relationship ${name} must hold { type, id } references, got ${JSON.stringify(value)}`,
  );
}

/**
 * The stored form of a record. Freezes attributes (deeply) and relationships in place instead
 * of copying them: copies would double the cost of loading 200,000 records, and frozen input
 * still guarantees that nobody changes a stored record (or the indexes built on it) behind the
 * store's back.
 */
function freezeRecord(input: Omit<StoredResource, 'updatedAt'>, updatedAt: string): StoredResource {
  const { type, id, attributes, relationships } = input;
  if (!KNOWN_TYPES.has(type)) throw new Error(`unknown resource type: ${String(type)}`);
  if (typeof id !== 'string' || id === '')
    throw new Error(`${type}: id must be a non-empty string`);
  for (const name in relationships) {
    const value = relationships[name];
    if (Array.isArray(value)) {
      for (const ref of value) {
        if (!isRef(ref)) throw refError(type, id, name, ref);
        Object.freeze(ref);
      }
      Object.freeze(value);
    } else if (value !== null) {
      if (!isRef(value)) throw refError(type, id, name, value);
      Object.freeze(value);
    }
  }
  deepFreeze(attributes);
  Object.freeze(relationships);
  return Object.freeze({ type, id, attributes, relationships, updatedAt });
}

function defaultSettings(today: Date): SandboxSettings {
  return {
    uvtFavorites: false,
    anchorDate: formatBerlinDate(today.getTime()),
    seed: 0,
    scale: 'none',
  };
}

class MemoryStore implements Store {
  private readonly tables = new Map<ResourceType, TypeTable>();
  private currentSettings: SandboxSettings | undefined;
  /** Previous values of everything written inside the open transaction(s), oldest first. */
  private readonly undoLog: UndoEntry[] = [];
  private transactionDepth = 0;
  private lastMs = 0;
  private closed = false;

  constructor(
    private readonly clock: () => Date,
    private readonly file: ResourceFile | undefined,
  ) {
    for (const type of RESOURCE_TYPES) this.tables.set(type, new TypeTable());
    if (file) this.load(file);
  }

  all(type: ResourceType): readonly StoredResource[] {
    return this.table(type).all();
  }

  get(type: ResourceType, id: string): StoredResource | undefined {
    return this.table(type).get(id);
  }

  related(type: ResourceType, name: string, id: string): readonly StoredResource[] {
    return this.table(type).related(name, id);
  }

  count(type: ResourceType): number {
    return this.table(type).size;
  }

  put(resource: Omit<StoredResource, 'updatedAt'>): StoredResource {
    return this.write(freezeRecord(resource, this.now()));
  }

  putWithTime(resource: Omit<StoredResource, 'updatedAt'>, updatedAt: string): StoredResource {
    const ms = Date.parse(updatedAt);
    if (Number.isNaN(ms)) throw new Error(`putWithTime: not a date-time: ${updatedAt}`);
    this.lastMs = Math.max(this.lastMs, ms);
    const canonical = UTC_MILLIS.test(updatedAt) ? updatedAt : new Date(ms).toISOString();
    return this.write(freezeRecord(resource, canonical));
  }

  remove(type: ResourceType, id: string): boolean {
    this.assertOpen();
    const table = this.table(type);
    const previous = table.get(id);
    if (!previous) return false;
    if (this.file) {
      this.file.delete(type, id);
      // Keeps nextId from reusing this id after a restart, when no row shows it any more.
      this.file.writeSetting(HIGH_WATER_PREFIX + type, String(table.highWater));
    }
    table.delete(id);
    this.logUndo({ kind: 'resource', type, id, previous });
    return true;
  }

  nextId(type: ResourceType): string {
    return String(this.table(type).highWater + 1);
  }

  transaction<T>(fn: () => T): T {
    this.assertOpen();
    const mark = this.undoLog.length;
    this.transactionDepth += 1;
    try {
      const run = (): T => {
        const result = fn();
        if (result instanceof Promise)
          throw new TypeError('Store.transaction: fn must be synchronous');
        return result;
      };
      return this.file ? this.file.transaction(run) : run();
    } catch (error) {
      this.rollBackTo(mark);
      throw error;
    } finally {
      this.transactionDepth -= 1;
      if (this.transactionDepth === 0) this.undoLog.length = 0;
    }
  }

  now(): string {
    let ms = this.clock().getTime();
    if (ms <= this.lastMs) ms = this.lastMs + 1;
    this.lastMs = ms;
    return new Date(ms).toISOString();
  }

  settings(): SandboxSettings {
    return this.currentSettings ?? defaultSettings(this.clock());
  }

  setSettings(settings: SandboxSettings): void {
    this.assertOpen();
    const next = Object.freeze({ ...settings });
    this.file?.writeSetting(SETTINGS_KEY, JSON.stringify(next));
    this.logUndo({ kind: 'settings', previous: this.currentSettings });
    this.currentSettings = next;
  }

  snapshot(): StoreSnapshot {
    const records = new Map<ResourceType, readonly StoredResource[]>();
    const highWaters = new Map<ResourceType, number>();
    for (const [type, table] of this.tables) {
      // all() is a frozen list of frozen records: the snapshot can share it.
      records.set(type, table.all());
      highWaters.set(type, table.highWater);
    }
    return { records, highWaters, settings: this.currentSettings };
  }

  restore(snapshot: StoreSnapshot): RestoredRecord[] {
    return this.transaction(() => {
      const changes: RestoredRecord[] = [];
      for (const [type, table] of this.tables) {
        const wanted = new Map((snapshot.records.get(type) ?? []).map((r) => [r.id, r]));
        for (const current of table.all()) {
          if (!wanted.has(current.id)) {
            this.remove(type, current.id);
            changes.push({ before: current, after: undefined });
          }
        }
        for (const record of wanted.values()) {
          const current = table.get(record.id);
          // Unchanged records are the very objects the snapshot holds (stored records are frozen).
          if (current === record) continue;
          this.write(record);
          changes.push({ before: current, after: record });
        }
        this.setHighWater(type, snapshot.highWaters.get(type) ?? 0);
      }
      if (snapshot.settings !== this.currentSettings) {
        if (snapshot.settings) this.setSettings(snapshot.settings);
        else this.logUndo({ kind: 'settings', previous: this.currentSettings });
        this.currentSettings = snapshot.settings;
      }
      return changes;
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.file?.close();
  }

  private write(record: StoredResource): StoredResource {
    this.assertOpen();
    // File first: when SQLite fails, memory has not changed either.
    this.file?.upsert(record);
    const previous = this.table(record.type).set(record);
    this.logUndo({ kind: 'resource', type: record.type, id: record.id, previous });
    return record;
  }

  /** Lowers (or raises) the id high-water, as a restored database's auto-increment. */
  private setHighWater(type: ResourceType, highWater: number): void {
    const table = this.table(type);
    if (table.highWater === highWater) return;
    this.file?.writeSetting(HIGH_WATER_PREFIX + type, String(highWater));
    this.logUndo({ kind: 'highWater', type, previous: table.highWater });
    table.highWater = highWater;
  }

  private logUndo(entry: UndoEntry): void {
    if (this.transactionDepth > 0) this.undoLog.push(entry);
  }

  private rollBackTo(mark: number): void {
    while (this.undoLog.length > mark) {
      const entry = this.undoLog.pop()!;
      if (entry.kind === 'settings') {
        this.currentSettings = entry.previous;
      } else if (entry.kind === 'highWater') {
        this.table(entry.type).highWater = entry.previous;
      } else if (entry.previous) {
        this.table(entry.type).set(entry.previous);
      } else {
        this.table(entry.type).delete(entry.id);
      }
    }
  }

  private load(file: ResourceFile): void {
    file.forEachResource((stored) => {
      const record = freezeRecord(stored, stored.updatedAt);
      this.table(record.type).set(record);
      this.lastMs = Math.max(this.lastMs, Date.parse(record.updatedAt));
    });
    for (const [key, value] of file.loadSettings()) {
      if (key === SETTINGS_KEY) {
        this.currentSettings = Object.freeze(JSON.parse(value) as SandboxSettings);
      } else if (key.startsWith(HIGH_WATER_PREFIX)) {
        const table = this.table(key.slice(HIGH_WATER_PREFIX.length) as ResourceType);
        table.highWater = Math.max(table.highWater, Number(value));
      }
    }
  }

  private table(type: ResourceType): TypeTable {
    const table = this.tables.get(type);
    if (!table) throw new Error(`unknown resource type: ${String(type)}`);
    return table;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the store is closed');
  }
}

/**
 * Opens a store. With `file`, an existing file's data is loaded (one query) and every later write
 * is mirrored into it; a new or empty file starts empty (see isStoreEmpty).
 */
export function openStore(options: StoreOptions = {}): Store {
  const clock = options.clock ?? (() => new Date());
  return new MemoryStore(
    clock,
    options.file === undefined ? undefined : new ResourceFile(options.file),
  );
}

/** True when the store holds no record at all: the server then generates demo data. */
export function isStoreEmpty(store: Store): boolean {
  return RESOURCE_TYPES.every((type) => store.count(type) === 0);
}
