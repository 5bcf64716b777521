import type Database from 'better-sqlite3';
import { legacyPropertyTypeCodes } from '../../shared/domain/reference-data';
import {
  addImportRecords,
  carryHistoryInJournal,
  createHistoryTables,
  keepAssetDocInRow,
  markHandInRows,
} from './history-schema';
import { responsesDocsShapes } from './migrations-responses';

/**
 * Versioned schema of a workspace file, applied in order; `PRAGMA user_version` records how far a
 * file has come. The one migrator of the file: the portfolio responses' tables migrate here too.
 * Append new steps: never edit one that has shipped.
 */
const steps: ReadonlyArray<(db: Database.Database) => void> = [
  (db) => {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE entity (id INTEGER PRIMARY KEY, json TEXT NOT NULL, fetched_at INTEGER NOT NULL);
      CREATE TABLE reference_data (key TEXT PRIMARY KEY, json TEXT NOT NULL, fetched_at INTEGER NOT NULL);
      -- One row per asset. base: the asset as last seen on the service (NULL: never synced).
      -- current: the analyst's copy (NULL: deleted locally). Pending work is the difference.
      CREATE TABLE assets (
        local_id TEXT PRIMARY KEY,
        service_asset_id INTEGER UNIQUE,
        partners_id INTEGER,
        base TEXT,
        current TEXT,
        server_validations TEXT,
        outliers TEXT,
        remote_deleted INTEGER NOT NULL DEFAULT 0,
        not_found INTEGER NOT NULL DEFAULT 0,
        in_flight TEXT,
        -- The copy that rode in the in-flight batch: edits made since are rebased onto the answer.
        sent TEXT,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX assets_partners_id ON assets(partners_id);
      CREATE INDEX assets_in_flight ON assets(in_flight) WHERE in_flight IS NOT NULL;
      CREATE TABLE conflicts (
        local_id TEXT NOT NULL REFERENCES assets(local_id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        base TEXT, mine TEXT, theirs TEXT,
        PRIMARY KEY (local_id, path)
      );
      -- Every acknowledged edit, in order: the audit of what the analyst did and the source of undo.
      CREATE TABLE journal (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        local_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL
      );
      -- Batches sent whose outcome is not yet applied locally. A row left here after a crash or a lost
      -- answer means: reconcile with the service before sending these assets again.
      CREATE TABLE outbox (
        batch_id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('sending', 'ambiguous')),
        local_ids TEXT NOT NULL
      );
    `);
  },
  (db) => {
    db.exec(`
      -- Portfolio responses (v0) of the entity. json: the summary and the indicator definitions as
      -- last read; load_error: why the service would not give the contents (history not authorised).
      CREATE TABLE responses (
        id INTEGER PRIMARY KEY,
        json TEXT NOT NULL,
        load_error TEXT,
        fetched_at INTEGER NOT NULL
      );
      -- One row per answer, like an asset: base is the service's value at base_lock_version, current
      -- the analyst's; they differ while an edit is pending. conflict_*: the service's newer value
      -- when both sides changed, kept until the analyst chooses.
      CREATE TABLE response_values (
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        variable TEXT NOT NULL,
        base_value TEXT NOT NULL,
        base_lock_version INTEGER NOT NULL,
        current_value TEXT NOT NULL,
        conflict_value TEXT,
        conflict_lock_version INTEGER,
        server_errors TEXT,
        remote_updated_at TEXT,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (response_id, variable)
      );
      CREATE TABLE response_documents (
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        id INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (response_id, id)
      );
    `);
  },
  // Property types follow the service's equity_asset_type list: a pending local value from the
  // app's first, invented list gets the code that replaced it. The service's own values (base, and
  // current where it equals base) are left alone: the next pull brings the service's codes.
  (db) => {
    const rows = db.prepare('SELECT local_id, base, current FROM assets WHERE current IS NOT NULL').all() as {
      local_id: string;
      base: string | null;
      current: string;
    }[];
    const update = db.prepare('UPDATE assets SET current = ? WHERE local_id = ?');
    for (const row of rows) {
      const current = JSON.parse(row.current) as Record<string, unknown>;
      const code = current['property_type_code'];
      if (typeof code !== 'string' || !(code in legacyPropertyTypeCodes)) continue;
      const base = row.base === null ? null : (JSON.parse(row.base) as Record<string, unknown>);
      if (base !== null && base['property_type_code'] === code) continue;
      current['property_type_code'] = legacyPropertyTypeCodes[code];
      update.run(JSON.stringify(current), row.local_id);
    }
  },
  // History in main: each user action is a step; its journal rows keep the asset before and after
  // (a row image, see electron/workspace/history.ts) so undo and redo need nothing from the renderer.
  (db) => {
    const columns = new Set(
      (db.prepare('PRAGMA table_info(journal)').all() as Array<{ name: string }>).map((c) => c.name),
    );
    db.exec(`CREATE TABLE IF NOT EXISTS steps (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT NOT NULL,
        at INTEGER NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0
      )`);
    for (const column of ['step INTEGER', 'before TEXT', 'after TEXT']) {
      if (!columns.has(column.split(' ')[0] ?? '')) db.exec(`ALTER TABLE journal ADD COLUMN ${column}`);
    }
    db.exec('CREATE INDEX IF NOT EXISTS journal_step ON journal(step) WHERE step IS NOT NULL');
  },
  // The analyst's copy is stored only where it differs from the service's: an asset in step (most
  // of a pulled workspace) held the same document twice, and writing it twice was two fifths of a
  // pull's SQLite work. local: the analyst's copy when it is not the base; deleted: deleted here.
  // `current` stays the column every read knows, now computed from the three (never written).
  // The partners_id index goes: no query looks an asset up by it, and every insert paid for it.
  (db) => {
    db.exec(`
      DROP INDEX IF EXISTS assets_partners_id;
      ALTER TABLE assets RENAME COLUMN current TO local;
      ALTER TABLE assets ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
      UPDATE assets SET deleted = 1 WHERE local IS NULL;
      UPDATE assets SET local = NULL WHERE local = base;
      ALTER TABLE assets ADD COLUMN current TEXT
        GENERATED ALWAYS AS (CASE WHEN deleted THEN NULL ELSE COALESCE(local, base) END) VIRTUAL;
    `);
  },
  // The portfolio responses follow the docs' shapes: once the responses' own migrator's first step
  // (with its own `responses_schema` table), now a step of this one; a file that had it is left as
  // it is (see migrations-responses.ts).
  responsesDocsShapes,
  // Meters and their readings (issue 32, electron/meters/): local documents, never sent. json is the
  // document (shared/meters/types.ts); the columns beside it are what lists and the roll-up look up.
  // meter_derived: what "Apply meter figures" last wrote into an asset's annual cell, so a cell can
  // say it was derived (and from what) and a value typed over it is known as the analyst's override.
  (db) => {
    db.exec(`
      CREATE TABLE IF NOT EXISTS meters (
        id TEXT PRIMARY KEY,
        asset_id TEXT NOT NULL,
        json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS meters_asset ON meters(asset_id);
      CREATE TABLE IF NOT EXISTS readings (
        id TEXT PRIMARY KEY,
        meter_id TEXT NOT NULL,
        start TEXT NOT NULL,
        "end" TEXT NOT NULL,
        json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS readings_meter ON readings(meter_id, start);
      CREATE TABLE IF NOT EXISTS meter_derived (
        local_id TEXT NOT NULL,
        year INTEGER NOT NULL,
        field TEXT NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (local_id, year, field)
      );
    `);
  },
  // Cell history (issue 31): every change's source and time per cell, in this file (so scoped to its
  // connection and entity, and kept across restarts). Nothing older is read: a document's cells
  // without history show their value as "before history" (see electron/workspace/history-schema.ts).
  (db) => createHistoryTables(db, Date.now()),
  // A pull's new asset keeps the service's `updated_at` it arrived with, and each import applied
  // is recorded once (electron/workspace/history-schema.ts, `addImportRecords`).
  addImportRecords,
  // Whether a cell's value came from the analyst's hand is kept in its history row, not in a table
  // beside it (electron/workspace/history-schema.ts, `markHandInRows`).
  markHandInRows,
  // An asset first seen by a change keeps its history under its own row's id, not a \`cell_docs\`
  // row (electron/workspace/history-schema.ts, \`keepAssetDocInRow\`; history-docs.ts).
  keepAssetDocInRow,
  // An analyst's cell edit carries its history in its own journal row until it is moved into
  // `cell_history` in bulk (electron/workspace/history-schema.ts, `carryHistoryInJournal`; history-tail.ts).
  carryHistoryInJournal,
];

export const schemaVersion = steps.length;

/** Brings the file to the schema (`upTo`: an earlier one, to write a file as an older version did). */
export function migrate(db: Database.Database, upTo = steps.length): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > steps.length) {
    throw new Error(
      `This workspace was written by a newer Asset Desk (schema ${current}, this one knows ${steps.length}).`,
    );
  }
  for (let version = current; version < Math.min(upTo, steps.length); version++) {
    db.transaction(() => {
      steps[version]?.(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
