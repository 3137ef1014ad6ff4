// The replica's SQLite connection as the rooms above sync/db name it: better-sqlite3 is imported
// under sync/db only (a lint rule), so the SQL and the driver stay in one room.
import type BetterSqlite3 from 'better-sqlite3';

/** A connection to the replica (better-sqlite3's Database): prepared statements, transactions. */
export type Sqlite = BetterSqlite3.Database;
/** A statement prepared on it. */
export type SqliteStatement = BetterSqlite3.Statement;
