import type Database from 'better-sqlite3';
import { rowDocBase, rowDocSql } from './history-docs';

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

/**
 * The history's second step (issue 31's three gaps):
 * - `assets.arrived_updated_at`: the service's `updated_at` of the copy a pull's new asset arrived
 *   with, written by the row's own insert (`insertFromService`), never after: a pull's arrival
 *   writes no history row, and its cells' first entry reads "from the service, updated 3 Mar 2026"
 *   from here (`CellHistory.unrecordedOrigin`). NULL: the service gave none, or the asset did not
 *   arrive by a pull (older rows too: they read "from the service" as before).
 * - `import_records`: one row per workbook or readings import applied, for "Show the import" (the
 *   uploaded file is deleted once read). The file's name is in its source row (`source`, a
 *   `change_sources` row of its own: the source carries the record's id), never here again; what
 *   it changed is the history's rows of that source between `first_change` and `last_change`
 *   (ids of `cell_history`) and the documents it brought (`cell_docs` between `first_doc` and
 *   `last_doc` with that origin). json: the kind, the sheets, the counts applied and skipped, the
 *   undo step's label (`step`: its id in `steps`).
 */
export function addImportRecords(db: Database.Database): void {
  db.exec(`
    ALTER TABLE assets ADD COLUMN arrived_updated_at TEXT;
    CREATE TABLE IF NOT EXISTS import_records (
      id INTEGER PRIMARY KEY,
      source INTEGER UNIQUE,
      at INTEGER NOT NULL,
      step INTEGER,
      first_change INTEGER NOT NULL,
      last_change INTEGER,
      first_doc INTEGER NOT NULL,
      last_doc INTEGER,
      json TEXT NOT NULL
    );
  `);
}

/**
 * The history's third step: whether a cell's value came from the analyst's hand is kept in its
 * history row (`cell_history.hand`: 1, or NULL for any other source), so a keypress writes one
 * row and no mark beside it; a cell's newest row says it, read from the index alone (`hand` is
 * its last column). `cell_hand` keeps only the cells of documents made by hand that no change has
 * touched since (they have no row). An existing file's marks move to its cells' newest rows.
 */
export function markHandInRows(db: Database.Database): void {
  db.exec(`
    ALTER TABLE cell_history ADD COLUMN hand INTEGER;
    UPDATE cell_history SET hand = 1 WHERE id IN (
      SELECT (SELECT MAX(h.id) FROM cell_history h WHERE h.doc = m.doc AND h.path = m.path) FROM cell_hand m
    );
    DELETE FROM cell_hand
      WHERE EXISTS (SELECT 1 FROM cell_history h WHERE h.doc = cell_hand.doc AND h.path = cell_hand.path);
    DROP INDEX IF EXISTS cell_history_cell;
    CREATE INDEX cell_history_cell ON cell_history (doc, path, id, hand);
  `);
}

/**
 * The history's fourth step: an asset first seen by a change keeps its history under its own row's
 * id (`assets.rowid - 2^31`, history-docs.ts), so a keypress on it writes no `cell_docs` row and key.
 * Nothing moves: the assets that have a `cell_docs` row keep it (it wins). A deleted asset's rowid
 * can come back to a new asset (a table without INTEGER PRIMARY KEY gives max(rowid) + 1), so
 * deleting a row first moves its history to a `cell_docs` row of its own (origin source 0: read as
 * a document without a row, `unrecordedOrigin`), where its local id finds it again (an undone
 * delete) and a new asset's rowid finds nothing.
 */
export function keepAssetDocInRow(db: Database.Database): void {
  db.exec(`
    CREATE TRIGGER IF NOT EXISTS assets_history_kept AFTER DELETE ON assets
    WHEN old.rowid < ${rowDocBase} AND (EXISTS (SELECT 1 FROM cell_history WHERE doc = ${rowDocSql('old.rowid')})
      OR EXISTS (SELECT 1 FROM cell_hand WHERE doc = ${rowDocSql('old.rowid')}))
    BEGIN
      INSERT INTO cell_docs (kind, ref, origin_at, origin_source) VALUES ('asset', old.local_id, 0, 0)
        ON CONFLICT (kind, ref) DO NOTHING;
      UPDATE cell_history SET doc = (SELECT id FROM cell_docs WHERE kind = 'asset' AND ref = old.local_id)
        WHERE doc = ${rowDocSql('old.rowid')};
      UPDATE cell_hand SET doc = (SELECT id FROM cell_docs WHERE kind = 'asset' AND ref = old.local_id)
        WHERE doc = ${rowDocSql('old.rowid')};
    END;
  `);
}

/**
 * The history's fifth step: the analyst's cell edits carry their history in their own journal row
 * (`journal.cells`) until it is moved into `cell_history` in bulk (history-tail.ts), so a keypress
 * writes no page and no index entry for its history. `meta.history_moved_seq`: the last journal
 * row whose history is in `cell_history` (every row before this step: they have none to carry).
 */
export function carryHistoryInJournal(db: Database.Database): void {
  const columns = db.prepare('PRAGMA table_info(journal)').all() as Array<{ name: string }>;
  if (!columns.some((column) => column.name === 'cells'))
    db.exec('ALTER TABLE journal ADD COLUMN cells TEXT');
  // A mark already there (a file brought back to an earlier step) keeps its tail where it was.
  db.exec(`
    INSERT INTO meta (key, value) VALUES ('history_moved_seq', (SELECT COALESCE(MAX(seq), 0) FROM journal))
      ON CONFLICT (key) DO NOTHING;
  `);
}
