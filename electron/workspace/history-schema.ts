import type Database from 'better-sqlite3';

/**
 * The cell history's tables (issue 31), as one step of the workspace's migrations. Compact by
 * design: a change's source is one row of `change_sources` (a file name, a pull's `updated_at`)
 * that every cell it changed references by id; a document and a path are small integers
 * (`cell_docs`, `cell_paths`); so a changed cell costs a row of integers, its value and the value
 * before.
 *
 * A document's first arrival (a pull's new asset, an import's new row) is one `cell_docs` row with
 * its origin (`origin_at`, `origin_source`), not a row per cell: a cell's first value is the value
 * before its oldest change, or the document's value if it never changed. An existing workspace
 * migrates without reading its assets: a document without a `cell_docs` row, or first seen by a
 * change to a copy that already existed, gets the origin "before history", dated when history
 * began (`meta.history_started_at`).
 */
export function createHistoryTables(db: Database.Database, now: number): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS change_sources (id INTEGER PRIMARY KEY, json TEXT NOT NULL UNIQUE);
    CREATE TABLE IF NOT EXISTS cell_docs (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL,
      ref TEXT NOT NULL,
      origin_at INTEGER NOT NULL,
      origin_source INTEGER NOT NULL,
      UNIQUE (kind, ref)
    );
    CREATE TABLE IF NOT EXISTS cell_paths (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
    -- One row per changed cell. at: whole seconds since history began (meta.history_started_at, ms),
    -- 4 bytes for 68 years where epoch milliseconds take 6. value, previous: a number as itself, anything else as JSON text
    -- (NULL: no value). place: where in its source the value was (a workbook's "Energy!F12", a
    -- CSV's "CSV!D7"), the source row holding the file once. Newest first for a cell is the
    -- index's order backwards.
    CREATE TABLE IF NOT EXISTS cell_history (
      id INTEGER PRIMARY KEY,
      doc INTEGER NOT NULL,
      path INTEGER NOT NULL,
      at INTEGER NOT NULL,
      value,
      previous,
      source INTEGER NOT NULL,
      place TEXT
    );
    CREATE INDEX IF NOT EXISTS cell_history_cell ON cell_history (doc, path, id);
    -- Cells whose current value came from the analyst's hand: the grid marks every other value
    -- (a pull's, an import's...), so a pulled workspace writes nothing here.
    CREATE TABLE IF NOT EXISTS cell_hand (
      doc INTEGER NOT NULL,
      path INTEGER NOT NULL,
      PRIMARY KEY (doc, path)
    ) WITHOUT ROWID;
  `);
  db.prepare(
    "INSERT INTO meta (key, value) VALUES ('history_started_at', ?) ON CONFLICT(key) DO NOTHING",
  ).run(String(Math.floor(now / 1_000) * 1_000));
}
