// The store's file: every record as one JSON row, so a whole data set loads with one query.
// The memory store is the source of truth while running; this file only mirrors its writes.
import Database from 'better-sqlite3';
import type { ResourceType, StoredResource } from './store';

interface StoredJson {
  attributes: StoredResource['attributes'];
  relationships: StoredResource['relationships'];
  updatedAt: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS resources (
    type TEXT NOT NULL,
    id TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (type, id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
`;

export class ResourceFile {
  private readonly db: Database.Database;
  private readonly upsertRow: Database.Statement<[string, string, string]>;
  private readonly deleteRow: Database.Statement<[string, string]>;
  private readonly upsertSetting: Database.Statement<[string, string]>;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // The sandbox's data is disposable: NORMAL keeps WAL crash-safe for the file's consistency
    // without an fsync per write, which the chaos tests' write rates need.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.upsertRow = this.db.prepare(
      'INSERT INTO resources (type, id, json) VALUES (?, ?, ?) ON CONFLICT (type, id) DO UPDATE SET json = excluded.json',
    );
    this.deleteRow = this.db.prepare('DELETE FROM resources WHERE type = ? AND id = ?');
    this.upsertSetting = this.db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  /**
   * Calls `accept` with every stored record, in no particular order. Rows are parsed as they
   * stream in, so each row's JSON text dies young instead of the whole file's text being held
   * (and copied by the garbage collector) until the last row is parsed.
   */
  forEachResource(accept: (resource: StoredResource) => void): void {
    const rows = this.db
      .prepare('SELECT type, id, json FROM resources')
      .raw()
      .iterate() as IterableIterator<[ResourceType, string, string]>;
    for (const [type, id, json] of rows) {
      const { attributes, relationships, updatedAt } = JSON.parse(json) as StoredJson;
      accept({ type, id, attributes, relationships, updatedAt });
    }
  }

  loadSettings(): Map<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM settings').raw().all() as [
      string,
      string,
    ][];
    return new Map(rows);
  }

  upsert(resource: StoredResource): void {
    const json: StoredJson = {
      attributes: resource.attributes,
      relationships: resource.relationships,
      updatedAt: resource.updatedAt,
    };
    this.upsertRow.run(resource.type, resource.id, JSON.stringify(json));
  }

  delete(type: ResourceType, id: string): void {
    this.deleteRow.run(type, id);
  }

  writeSetting(key: string, value: string): void {
    this.upsertSetting.run(key, value);
  }

  /** Runs fn in one SQLite transaction (a savepoint when nested); rolls back when fn throws. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    this.db.close();
  }
}
