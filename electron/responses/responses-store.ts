import type Database from 'better-sqlite3';
import { openSqlite } from '../storage/sqlite';
import { catalogIndicator, indicatorCatalog } from '../../shared/responses/catalog';
import {
  isReadOnlyResponse,
  type EvidenceItemView,
  type IndicatorDefinition,
  type IndicatorValue,
  type ResponseDetail,
  type ResponseListItem,
  type ResponseSummary,
  type ResponseValueView,
} from '../../shared/responses/types';
import { migrate } from '../workspace/migrations';
import type { StoredResponse } from '../workspace/migrations-responses';
import type { ChangeRecorder } from '../workspace/change-recorder';
import { WritePath } from '../workspace/write-path';
import { CellHistory } from '../workspace/cell-history';
import type { ServiceValue } from './responses-client';
import { AnswerEdits } from './answer-edits';
import { EvidenceTable } from './evidence-table';
import { ValueTable, valueView, type ValueRow } from './value-table';

export { ResponseEditError } from './answer-edits';

export interface PendingValue {
  responseId: number;
  variable: string;
  value: IndicatorValue;
  lockVersion: string;
}

/** One response as a pull read it: its summary, the catalog's values, and its evidence items. */
export interface PulledResponse {
  summary: ResponseSummary;
  values: ServiceValue[];
  /** Variables the service says this response does not have, with its words. */
  unavailable: Array<{ variable: string; message: string }>;
  /** Per evidence answer read, its items (an answer not read keeps what is stored). */
  evidence: Map<string, EvidenceItemView[]>;
}

interface ResponseRow {
  id: number;
  json: string;
  load_error: string | null;
  fetched_at: number;
}

/**
 * The entity's portfolio responses in its workspace file, on a connection of their own (the
 * workspace store keeps its handle private; SQLite in WAL serves both). Answers follow the assets'
 * model: the service's copy with its lock_version, the analyst's copy, and a conflict kept for the
 * analyst when both changed. Every change of an answer goes through the workspace's write path
 * (over this connection): the analyst's as a labelled step of the workspace's history, so one Undo
 * undoes it whichever tab made it; the service's as its copy changing.
 */
export class ResponsesStore {
  private readonly values: ValueTable;
  private readonly evidenceItems: EvidenceTable;
  private readonly edits: AnswerEdits;
  private readonly path: WritePath;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    recorder?: ChangeRecorder | null,
  ) {
    const sql = (text: string): Database.Statement => {
      let statement = this.statements.get(text);
      if (!statement) this.statements.set(text, (statement = db.prepare(text)));
      return statement;
    };
    // By default the file's cell history over this connection (issue 31): answers get one too.
    this.path = new WritePath(
      { sql, now, transaction: (fn) => db.transaction(fn).immediate() },
      recorder === null ? undefined : (recorder ?? new CellHistory({ sql })),
    );
    this.values = new ValueTable(db, now, this.path);
    this.evidenceItems = new EvidenceTable(db);
    this.edits = new AnswerEdits(db, now, this.path, this.values, (id) => this.summary(id));
  }

  /** `recorder`: told of every change of an answer; the file's cell history by default, null for none. */
  static open(
    file: string,
    opts: { now?: () => number; recorder?: ChangeRecorder | null } = {},
  ): ResponsesStore {
    const db = openSqlite(file);
    migrate(db);
    return new ResponsesStore(db, opts.now ?? Date.now, opts.recorder);
  }

  close(): void {
    this.db.close();
  }

  // --- reading

  list(): ResponseListItem[] {
    const rows = this.db.prepare('SELECT * FROM responses').all() as ResponseRow[];
    return rows.map((row) => this.listItem(row)).sort((a, b) => b.survey_year - a.survey_year || a.id - b.id);
  }

  detail(responseId: number): ResponseDetail | undefined {
    const row = this.responseRow(responseId);
    if (!row) return undefined;
    const stored = JSON.parse(row.json) as StoredResponse;
    // The shipped catalog orders the form; answers an earlier version read for other variables still show.
    const legacy = (stored.legacyIndicators ?? []).filter((d) => !catalogIndicator(d.variable));
    const indicators: IndicatorDefinition[] = [...indicatorCatalog, ...legacy];
    const values = this.valueRows(responseId);
    const byVariable = new Map(values.map((v) => [v.variable, v]));
    const ordered = [
      ...indicators.flatMap((def) => byVariable.get(def.variable) ?? []),
      ...values.filter((v) => !indicators.some((def) => def.variable === v.variable)),
    ];
    return {
      response: this.listItem(row),
      indicators,
      values: ordered.map(valueView),
      evidence: this.evidence(responseId),
    };
  }

  value(responseId: number, variable: string): ResponseValueView | undefined {
    const row = this.valueRow(responseId, variable);
    return row ? valueView(row) : undefined;
  }

  evidence(responseId: number): EvidenceItemView[] {
    return this.evidenceItems.list(responseId);
  }

  summary(responseId: number): ResponseSummary | undefined {
    const row = this.responseRow(responseId);
    return row ? (JSON.parse(row.json) as StoredResponse).summary : undefined;
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n === 0;
  }

  /**
   * Answers waiting to be sent: modified, not in conflict, in a response that takes answers, for a
   * variable the service has. An answer the service refused stays out until the analyst changes it:
   * resending would be refused again.
   */
  pending(): PendingValue[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM response_values WHERE conflict_lock_version IS NULL AND server_errors IS NULL
         AND unavailable IS NULL ORDER BY response_id, variable`,
      )
      .all() as ValueRow[];
    const open = new Map<number, boolean>();
    const pending: PendingValue[] = [];
    for (const row of rows) {
      if (!open.has(row.response_id)) open.set(row.response_id, this.isOpen(row.response_id));
      if (!open.get(row.response_id)) continue;
      const view = valueView(row);
      if (view.status !== 'modified') continue;
      pending.push({
        responseId: row.response_id,
        variable: row.variable,
        value: view.value,
        lockVersion: view.lockVersion,
      });
    }
    return pending;
  }

  // --- pulls

  /**
   * The service's list: new responses are added (contents come with `applyRemote`), gone ones are
   * dropped unless they hold an unsent answer, which is kept and flagged instead of lost.
   */
  saveList(summaries: readonly ResponseSummary[]): void {
    this.db.transaction(() => {
      const seen = new Set(summaries.map((s) => s.id));
      for (const summary of summaries) this.saveSummary(summary, false);
      for (const row of this.db.prepare('SELECT id FROM responses').all() as Array<{ id: number }>) {
        if (seen.has(row.id)) continue;
        if (this.hasUnsent(row.id)) this.markUnavailable(row.id, 'No longer listed by the service');
        else {
          this.values.removeAll(row.id);
          this.db.prepare('DELETE FROM responses WHERE id = ?').run(row.id);
        }
      }
    })();
  }

  /** The service would not give the contents: what was read before stays readable. */
  markUnavailable(responseId: number, reason: string): void {
    this.db.prepare('UPDATE responses SET load_error = ? WHERE id = ?').run(reason, responseId);
  }

  /**
   * One response as the service holds it, merged per answer: an answer unchanged here takes the
   * service's; an answer edited here stays pending if the service's lock_version has not moved (or
   * moved without changing the value); otherwise both changed and it becomes a conflict.
   * Returns the variables in conflict afterwards.
   */
  applyRemote(pulled: PulledResponse): string[] {
    const id = pulled.summary.id;
    return this.db.transaction((): string[] => {
      this.saveSummary(pulled.summary, true);
      for (const remote of pulled.values) this.values.merge(id, remote);
      for (const u of pulled.unavailable) this.values.markUnavailable(id, u.variable, u.message);
      for (const [answerName, items] of pulled.evidence) this.evidenceItems.replace(id, answerName, items);
      return this.valueRows(id)
        .filter((row) => row.conflict_lock_version !== null)
        .map((row) => row.variable);
    })();
  }

  // --- the analyst's edits (answer-edits.ts): each a labelled step of the workspace's history

  setValue(responseId: number, variable: string, value: IndicatorValue): ResponseValueView {
    return this.edits.setValue(responseId, variable, value);
  }

  /**
   * mine: the service's newer value becomes the base, so the analyst's answer is sent over it;
   * theirs: the service's value replaces the analyst's.
   */
  resolveConflict(responseId: number, variable: string, choice: 'mine' | 'theirs'): ResponseValueView {
    return this.edits.resolveConflict(responseId, variable, choice);
  }

  /** Back to the service's answer (for a conflict: theirs). */
  revertValue(responseId: number, variable: string): ResponseValueView {
    return this.edits.revertValue(responseId, variable);
  }

  // --- what a push learns

  /** The service took `sent`: its answer row is the new base; an edit made meanwhile stays pending. */
  acknowledge(responseId: number, variable: string, sent: IndicatorValue, remote: ServiceValue): void {
    this.values.acknowledge(responseId, variable, sent, remote);
  }

  /** A 409: the value is merged with the service's current one like a pulled value. */
  stale(responseId: number, current: ServiceValue): void {
    this.values.merge(responseId, current);
  }

  reject(responseId: number, variable: string, errors: readonly string[]): void {
    this.values.reject(responseId, variable, errors);
  }

  /** A write answered that the service has no such variable: not available, the answer kept unsent. */
  notTaken(responseId: number, variable: string, message: string): void {
    this.values.markUnavailable(responseId, variable, message);
  }

  /** An evidence item the service just took (or read back). */
  saveEvidence(responseId: number, item: EvidenceItemView): void {
    this.evidenceItems.save(responseId, item);
  }

  // --- internals

  private saveSummary(summary: ResponseSummary, loaded: boolean): void {
    const row = this.responseRow(summary.id);
    const stored: StoredResponse = row
      ? { ...(JSON.parse(row.json) as StoredResponse), summary }
      : { summary };
    this.db
      .prepare(
        `INSERT INTO responses (id, json, load_error, fetched_at) VALUES (?, ?, NULL, ?)
         ON CONFLICT(id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at
         ${loaded ? ', load_error = NULL' : ''}`,
      )
      .run(summary.id, JSON.stringify(stored), this.now());
  }

  private listItem(row: ResponseRow): ResponseListItem {
    const { summary } = JSON.parse(row.json) as StoredResponse;
    const views = this.valueRows(row.id).map(valueView);
    const evidence = this.evidenceItems.count(row.id);
    return {
      ...summary,
      readOnly: isReadOnlyResponse(summary),
      available: row.load_error === null,
      unavailableReason: row.load_error ?? undefined,
      modified: views.filter((v) => v.status === 'modified').length,
      conflicts: views.filter((v) => v.status === 'conflict').length,
      notAvailable: views.filter((v) => !v.available).length,
      evidence,
      fetchedAt: new Date(row.fetched_at).toISOString(),
    };
  }

  private isOpen(responseId: number): boolean {
    const summary = this.summary(responseId);
    return summary !== undefined && !isReadOnlyResponse(summary);
  }

  private hasUnsent(responseId: number): boolean {
    return this.valueRows(responseId)
      .map(valueView)
      .some((v) => v.status !== 'clean');
  }

  private responseRow(responseId: number): ResponseRow | undefined {
    return this.db.prepare('SELECT * FROM responses WHERE id = ?').get(responseId) as ResponseRow | undefined;
  }

  private valueRows(responseId: number): ValueRow[] {
    return this.values.rows(responseId);
  }

  private valueRow(responseId: number, variable: string): ValueRow | undefined {
    return this.values.row(responseId, variable);
  }
}
