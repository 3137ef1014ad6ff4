// Migration 4: freshness (DESIGN rule 15).

export default `
  -- When the service last confirmed one parent's collections (scope course: its participants and
  -- custom fields; person: checks and honours; ...), and when a sync last asked for them (an item
  -- that keeps failing goes to the back of its rotation), in the local clock.
  CREATE TABLE confirmations (scope TEXT NOT NULL, id TEXT NOT NULL, confirmed_at TEXT,
    tried_at TEXT, PRIMARY KEY (scope, id)) WITHOUT ROWID;
  -- Each rotation's share of work not yet done (items, fractional) and when it was last planned.
  CREATE TABLE rotations (scope TEXT PRIMARY KEY, credit REAL NOT NULL, planned_at TEXT NOT NULL);
  `;
