import type Database from 'better-sqlite3';
import { catalogIndicator } from '../../shared/responses/catalog';
import type { EvidenceItemView, IndicatorDefinition, ResponseSummary } from '../../shared/responses/types';

/**
 * The portfolio responses' step of the workspace's migrator (migrations.ts). Until issue 35 the
 * responses kept their own version table (`responses_schema`) beside the workspace's
 * `PRAGMA user_version`; a file whose responses had come that far already has this step's work
 * done, and is left as it is (its `responses_schema` stays, read by nothing but this step).
 */

/** What `responses.json` holds: the summary as the service gave it. */
export interface StoredResponse {
  summary: ResponseSummary;
  /** Definitions an earlier version read from the service, for answers the catalog does not define. */
  legacyIndicators?: IndicatorDefinition[] | undefined;
}

/** The shape written before the service's published shapes were followed. */
interface OldStoredResponse {
  summary: { id: number; year: number; name: string; state: string; created_at: string; updated_at: string };
  indicators?: Array<IndicatorDefinition & { evidence?: unknown }>;
}

/** How far the responses' own version table (before issue 35) says a file's responses came. */
function formerResponsesVersion(db: Database.Database): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'responses_schema'")
    .get();
  if (!table) return 0;
  const row = db.prepare('SELECT version FROM responses_schema').get() as { version: number } | undefined;
  return row?.version ?? 0;
}

/**
 * The docs' shapes. Summaries {year, state} become {survey_year, status, survey_open, ...};
 * lock versions become the strings the service sends; a value may be "not in this response";
 * uploaded documents become evidence items (kept, marked as files of an earlier version).
 * Skipped where the responses' former migrator did it already.
 */
export function responsesDocsShapes(db: Database.Database): void {
  const former = formerResponsesVersion(db);
  if (former > 1) {
    throw new Error(
      `These portfolio responses were written by a newer Asset Desk (schema ${former}, this one knows 1).`,
    );
  }
  if (former === 1) return;

  const rows = db.prepare('SELECT id, json FROM responses').all() as Array<{ id: number; json: string }>;
  const update = db.prepare('UPDATE responses SET json = ? WHERE id = ?');
  for (const row of rows) update.run(JSON.stringify(upgradeStored(JSON.parse(row.json))), row.id);
  db.exec(`
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
    -- Evidence items by key: '<answer_name>#<item_number>', or 'legacy:<id>' for an old upload.
    CREATE TABLE response_evidence (
      response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      json TEXT NOT NULL,
      PRIMARY KEY (response_id, key)
    );
  `);
  const documents = db.prepare('SELECT response_id, id, json FROM response_documents').all() as Array<{
    response_id: number;
    id: number;
    json: string;
  }>;
  const insert = db.prepare('INSERT INTO response_evidence (response_id, key, json) VALUES (?, ?, ?)');
  for (const doc of documents)
    insert.run(doc.response_id, `legacy:${doc.id}`, JSON.stringify(legacyItem(doc.json)));
  // The old table stays (the workspace's own steps made it); nothing reads it any more.
  db.exec('DELETE FROM response_documents');
}

function upgradeStored(stored: unknown): StoredResponse {
  const old = stored as Partial<OldStoredResponse> & Partial<StoredResponse>;
  const summary = (old.summary ?? {}) as Partial<OldStoredResponse['summary']> & Partial<ResponseSummary>;
  if (typeof summary.survey_year === 'number') return old as StoredResponse;
  const state = summary.state ?? 'open';
  const upgraded: ResponseSummary = {
    id: Number(summary.id),
    entity_id: null,
    business_line: null,
    survey_year: Number(summary.year),
    name: summary.name ?? '',
    manager: null,
    // The old `open` is a response being answered; any other state (submitted) keeps its word.
    status: state === 'open' ? 'in_progress' : state,
    survey_open: state === 'open',
    assessment_type: null,
    percent_completed: null,
    created_at: summary.created_at ?? null,
    updated_at: summary.updated_at ?? null,
  };
  const legacyIndicators = (old.indicators ?? []).map(({ evidence: _evidence, ...def }) => def);
  return { summary: upgraded, ...(legacyIndicators.length > 0 ? { legacyIndicators } : {}) };
}

function legacyItem(json: string): EvidenceItemView {
  const doc = JSON.parse(json) as {
    filename?: string;
    size?: number;
    content_type?: string;
    variable?: string | null;
  };
  const variable = doc.variable ?? null;
  return {
    variable,
    answerName: (variable === null ? undefined : catalogIndicator(variable)?.evidence) ?? '',
    itemNumber: null,
    evidenceType: 'F',
    url: null,
    docId: null,
    notes: null,
    shared: null,
    reportUrl: null,
    variables: {},
    legacyFile: {
      filename: doc.filename ?? 'document',
      size: doc.size ?? 0,
      contentType: doc.content_type ?? '',
    },
  };
}
