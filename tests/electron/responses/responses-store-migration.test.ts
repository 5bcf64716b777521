/**
 * A workspace written before the service's published shapes were followed (summaries {year, state},
 * integer lock versions, uploaded documents) opens with the new store and loses nothing: pending
 * answers stay pending with their versions, conflicts stay conflicts, old uploads stay listed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import { migrate } from '../../../electron/workspace/migrations';

const ts = '2024-06-01T10:00:00.000Z';
const oldSummary = (id: number, year: number, state: string) => ({
  summary: { id, year, name: `${year} Real Estate Assessment`, state, created_at: ts, updated_at: ts },
  indicators: [
    { variable: 'LE2_responsible', section: 'Management', kind: 'radio', label: 'Who?', evidence: false },
    {
      variable: 'OLD_ONLY',
      section: 'Retired',
      kind: 'text',
      label: 'A question since retired',
      evidence: false,
    },
  ],
});

/** A workspace file as the earlier version left it (the workspace's first five steps, no responses' one). */
function oldWorkspace(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-ws-')), 'old-responses.sqlite');
  const db = new Database(file);
  migrate(db, 5);
  const response = db.prepare(
    'INSERT INTO responses (id, json, load_error, fetched_at) VALUES (?, ?, NULL, 0)',
  );
  response.run(11, JSON.stringify(oldSummary(11, 2024, 'open')));
  response.run(10, JSON.stringify(oldSummary(10, 2023, 'submitted')));
  const value = db.prepare(`INSERT INTO response_values (response_id, variable, base_value, base_lock_version,
    current_value, conflict_value, conflict_lock_version, server_errors, remote_updated_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, 0)`);
  // Pending: edited here from version 3.
  value.run(11, 'LE2_responsible', '"dedicated"', 3, '"external"', null, null, ts);
  // In conflict: the service moved to version 5 with another answer.
  value.run(11, 'RS1_tenant_engagement', '"survey"', 4, '"app"', '"forum"', 5, ts);
  value.run(11, 'OLD_ONLY', '"kept"', 2, '"kept"', null, null, ts);
  value.run(10, 'LE2_responsible', '"part_time"', 7, '"part_time"', null, null, ts);
  db.prepare('INSERT INTO response_documents (response_id, id, json) VALUES (?, ?, ?)').run(
    11,
    31,
    JSON.stringify({
      id: 31,
      filename: 'ESG policy.pdf',
      size: 120_000,
      content_type: 'application/pdf',
      variable: 'LE1_objectives',
      created_at: ts,
    }),
  );
  db.close();
  return file;
}

let store: ResponsesStore | undefined;
afterEach(() => store?.close());

describe('a workspace from before the documented shapes', () => {
  it('opens with summaries in the new shape: open is in progress, submitted is closed and read-only', () => {
    store = ResponsesStore.open(oldWorkspace());
    expect(
      store.list().map((r) => [r.id, r.survey_year, r.status, r.survey_open, r.readOnly, r.name]),
    ).toEqual([
      [11, 2024, 'in_progress', true, false, '2024 Real Estate Assessment'],
      [10, 2023, 'submitted', false, true, '2023 Real Estate Assessment'],
    ]);
  });

  it('keeps pending answers, conflicts and their versions (now strings) and answers of retired questions', () => {
    store = ResponsesStore.open(oldWorkspace());
    expect(store.pending()).toEqual([
      { responseId: 11, variable: 'LE2_responsible', value: 'external', lockVersion: '3' },
    ]);
    expect(store.value(11, 'RS1_tenant_engagement')).toMatchObject({
      status: 'conflict',
      value: 'app',
      lockVersion: '4',
      theirs: { value: 'forum', lockVersion: '5' },
    });
    const detail = store.detail(11);
    expect(detail?.indicators.map((d) => d.variable)).toContain('OLD_ONLY');
    expect(detail?.values.find((v) => v.variable === 'OLD_ONLY')).toMatchObject({
      value: 'kept',
      lockVersion: '2',
    });
    expect(store.value(10, 'LE2_responsible')).toMatchObject({ value: 'part_time', lockVersion: '7' });
    expect(store.resolveConflict(11, 'RS1_tenant_engagement', 'mine')).toMatchObject({
      status: 'modified',
      lockVersion: '5',
    });
  });

  it('keeps an old upload as an evidence item of its indicator, marked as such', () => {
    store = ResponsesStore.open(oldWorkspace());
    expect(store.evidence(11)).toEqual([
      expect.objectContaining({
        variable: 'LE1_objectives',
        answerName: 'LE1_objectives_EVD',
        itemNumber: null,
        legacyFile: { filename: 'ESG policy.pdf', size: 120_000, contentType: 'application/pdf' },
      }),
    ]);
    expect(store.list().find((r) => r.id === 11)?.evidence).toBe(1);
  });

  it('migrates once: a second open finds the file as the first left it', () => {
    const file = oldWorkspace();
    ResponsesStore.open(file).close();
    store = ResponsesStore.open(file);
    expect(store.pending()).toHaveLength(1);
    expect(store.evidence(11)).toHaveLength(1);
  });
});
