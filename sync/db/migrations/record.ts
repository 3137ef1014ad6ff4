// The columns every table of service data keeps (see sync/db/migrations.ts).
export const RECORD = `base TEXT NOT NULL, pending TEXT, synced_at TEXT NOT NULL`;
