/**
 * One migrator per file (issue 35): the portfolio responses' tables migrate as a step of the
 * workspace's migrator. A file whose responses the former migrator (its own `responses_schema`
 * table) had already brought to the docs' shapes opens unchanged; one that never had it migrates.
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import { migrate, schemaVersion } from '../../../electron/workspace/migrations';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';

const summary = {
  summary: {
    id: 11,
    entity_id: 1,
    business_line: null,
    survey_year: 2025,
    name: 'Entity',
    manager: null,
    status: 'in_progress',
    survey_open: true,
    assessment_type: null,
    percent_completed: null,
    created_at: null,
    updated_at: null,
  },
};

/**
 * A workspace file as the app left it before issue 35: the workspace's five steps, then the
 * responses' own migrator's first step, in that migrator's SQL (its version table beside the
 * workspace's), with answers written in the shapes it made.
 */
function fileByFormerMigrators(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-ws-')), 'former.sqlite');
  const db = new Database(file);
  migrate(db, 5);
  db.exec(`
    CREATE TABLE IF NOT EXISTS responses_schema (version INTEGER NOT NULL);
    CREATE TABLE response_values_v2 (
      response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
      variable TEXT NOT NULL,
      base_value TEXT NOT NULL,
      base_lock_version TEXT NOT NULL,
      current_value TEXT NOT NULL,
      conflict_value TEXT,
      conflict_lock_version TEXT,
      server_errors TEXT,
      unavailable TEXT,
      remote_updated_at TEXT,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (response_id, variable)
    );
    INSERT INTO response_values_v2 (response_id, variable, base_value, base_lock_version, current_value,
      conflict_value, conflict_lock_version, server_errors, remote_updated_at, updated_at)
    SELECT response_id, variable, base_value, CAST(base_lock_version AS TEXT), current_value, conflict_value,
      CAST(conflict_lock_version AS TEXT), server_errors, remote_updated_at, updated_at FROM response_values;
    DROP TABLE response_values;
    ALTER TABLE response_values_v2 RENAME TO response_values;
    CREATE TABLE response_evidence (
      response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      json TEXT NOT NULL,
      PRIMARY KEY (response_id, key)
    );
    DELETE FROM response_documents;
    DELETE FROM responses_schema;
    INSERT INTO responses_schema (version) VALUES (1);
  `);
  db.prepare('INSERT INTO responses (id, json, load_error, fetched_at) VALUES (?, ?, NULL, 5)').run(
    11,
    JSON.stringify(summary),
  );
  const value = db.prepare(`INSERT INTO response_values (response_id, variable, base_value, base_lock_version,
    current_value, conflict_value, conflict_lock_version, server_errors, unavailable, remote_updated_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 7)`);
  value.run(11, 'LE2_responsible', '"dedicated"', 'v3', '"external"', null, null, null, null, 'x');
  value.run(11, 'RS1_tenant_engagement', '"survey"', 'v4', '"app"', '"forum"', 'v5', null, null, null);
  value.run(11, 'PO_1', 'null', '0', 'null', null, null, null, 'Variable could not be found.', null);
  db.prepare('INSERT INTO response_evidence (response_id, key, json) VALUES (?, ?, ?)').run(
    11,
    'PO_1_A1_EVD#1',
    '{"variable":"PO_1","answerName":"PO_1_A1_EVD","itemNumber":1}',
  );
  db.close();
  return file;
}

/** Every row of the responses' tables, as stored. */
function contents(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    const all = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all();
    return {
      responses: all('responses'),
      values: all('response_values'),
      evidence: all('response_evidence'),
      documents: all('response_documents'),
      columns: db.prepare('PRAGMA table_info(response_values)').all(),
    };
  } finally {
    db.close();
  }
}

const version = (file: string): unknown => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true });
  } finally {
    db.close();
  }
};

describe('the responses in the workspace migrator', () => {
  it('leave a file the former responses migrator brought up to date unchanged', () => {
    const file = fileByFormerMigrators();
    const before = contents(file);
    WorkspaceStore.open(file).close();
    expect(version(file)).toBe(schemaVersion);
    expect(contents(file)).toEqual(before);
    const store = ResponsesStore.open(file);
    expect(store.pending()).toEqual([
      { responseId: 11, variable: 'LE2_responsible', value: 'external', lockVersion: 'v3' },
    ]);
    expect(store.value(11, 'PO_1')).toMatchObject({ available: false });
    store.close();
    expect(contents(file)).toEqual(before);
  });

  it('refuse responses a newer former migrator wrote, as before', () => {
    const file = fileByFormerMigrators();
    const db = new Database(file);
    db.exec('UPDATE responses_schema SET version = 2');
    db.close();
    expect(() => WorkspaceStore.open(file)).toThrow(/newer Asset Desk/);
  });
});
