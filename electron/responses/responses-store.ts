import Database from 'better-sqlite3';
import type {
  RemoteResponseDetail,
  RemoteResponseDocument,
  RemoteResponseSummary,
  RemoteResponseValue,
} from '../../shared/responses/schemas';
import {
  checkIndicatorValue,
  sameIndicatorValue,
  type IndicatorDefinition,
  type IndicatorValue,
  type ResponseDetail,
  type ResponseDocumentView,
  type ResponseListItem,
  type ResponseSummary,
  type ResponseValueView,
} from '../../shared/responses/types';
import { migrate } from '../workspace/migrations';

/** Refused edits: the message is for the analyst. */
export class ResponseEditError extends Error {
  constructor(
    readonly code: 'not_found' | 'read_only' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'ResponseEditError';
  }
}

export interface PendingValue {
  responseId: number;
  variable: string;
  value: IndicatorValue;
  lockVersion: number;
}

interface StoredResponse {
  summary: RemoteResponseSummary;
  indicators: IndicatorDefinition[];
}

interface ResponseRow {
  id: number;
  json: string;
  load_error: string | null;
  fetched_at: number;
}

interface ValueRow {
  response_id: number;
  variable: string;
  base_value: string;
  base_lock_version: number;
  current_value: string;
  conflict_value: string | null;
  conflict_lock_version: number | null;
  server_errors: string | null;
  remote_updated_at: string | null;
  updated_at: number;
}

const parseValue = (text: string): IndicatorValue => JSON.parse(text) as IndicatorValue;
const text = (value: IndicatorValue): string => JSON.stringify(value);

function valueView(row: ValueRow): ResponseValueView {
  const base = parseValue(row.base_value);
  const value = parseValue(row.current_value);
  const inConflict = row.conflict_lock_version !== null && row.conflict_value !== null;
  return {
    variable: row.variable,
    value,
    base,
    lockVersion: row.base_lock_version,
    status: inConflict ? 'conflict' : sameIndicatorValue(base, value) ? 'clean' : 'modified',
    theirs: inConflict
      ? { value: parseValue(row.conflict_value ?? 'null'), lockVersion: row.conflict_lock_version ?? 0 }
      : undefined,
    serverErrors: row.server_errors ? (JSON.parse(row.server_errors) as string[]) : undefined,
    updatedAt: row.remote_updated_at,
  };
}

const documentView = (doc: RemoteResponseDocument): ResponseDocumentView => ({
  id: doc.id,
  filename: doc.filename,
  size: doc.size,
  contentType: doc.content_type,
  variable: doc.variable,
  createdAt: doc.created_at,
});

/**
 * The entity's portfolio responses in its workspace file, on a connection of their own (the
 * workspace store keeps its handle private; SQLite in WAL serves both). Answers follow the assets'
 * model: the service's copy with its lock_version, the analyst's copy, and a conflict kept for the
 * analyst when both changed. Every edit is journalled in the workspace's journal.
 */
export class ResponsesStore {
  private constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {}

  static open(file: string, opts: { now?: () => number } = {}): ResponsesStore {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // The workspace store holds the same file: wait for its transaction rather than fail.
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return new ResponsesStore(db, opts.now ?? Date.now);
  }

  close(): void {
    this.db.close();
  }

  // --- reading

  list(): ResponseListItem[] {
    const rows = this.db.prepare('SELECT * FROM responses').all() as ResponseRow[];
    return rows.map((row) => this.listItem(row)).sort((a, b) => b.year - a.year || a.id - b.id);
  }

  detail(responseId: number): ResponseDetail | undefined {
    const row = this.responseRow(responseId);
    if (!row) return undefined;
    const stored = JSON.parse(row.json) as StoredResponse;
    const values = this.valueRows(responseId);
    const byVariable = new Map(values.map((v) => [v.variable, v]));
    // Definitions order the form; answers of variables no longer defined still show, last.
    const ordered = [
      ...stored.indicators.flatMap((def) => {
        const v = byVariable.get(def.variable);
        return v ? [v] : [];
      }),
      ...values.filter((v) => !stored.indicators.some((def) => def.variable === v.variable)),
    ];
    return {
      response: this.listItem(row),
      indicators: stored.indicators,
      values: ordered.map(valueView),
      documents: this.documents(responseId),
    };
  }

  value(responseId: number, variable: string): ResponseValueView | undefined {
    const row = this.valueRow(responseId, variable);
    return row ? valueView(row) : undefined;
  }

  documents(responseId: number): ResponseDocumentView[] {
    return (
      this.db
        .prepare('SELECT json FROM response_documents WHERE response_id = ? ORDER BY id')
        .all(responseId) as Array<{ json: string }>
    ).map((row) => documentView(JSON.parse(row.json) as RemoteResponseDocument));
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n === 0;
  }

  /**
   * Answers waiting to be sent: modified, not in conflict, in a response that takes answers. An
   * answer the service refused stays out until the analyst changes it: resending would be refused again.
   */
  pending(): PendingValue[] {
    const rows = this.db
      .prepare(
        'SELECT * FROM response_values WHERE conflict_lock_version IS NULL AND server_errors IS NULL ORDER BY response_id, variable',
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
  saveList(summaries: readonly RemoteResponseSummary[]): void {
    this.db.transaction(() => {
      const seen = new Set(summaries.map((s) => s.id));
      for (const summary of summaries) {
        const row = this.responseRow(summary.id);
        const stored: StoredResponse = row
          ? { ...(JSON.parse(row.json) as StoredResponse), summary }
          : { summary, indicators: [] };
        this.db
          .prepare(
            `INSERT INTO responses (id, json, load_error, fetched_at) VALUES (?, ?, NULL, ?)
             ON CONFLICT(id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`,
          )
          .run(summary.id, JSON.stringify(stored), this.now());
      }
      for (const row of this.db.prepare('SELECT id FROM responses').all() as Array<{ id: number }>) {
        if (seen.has(row.id)) continue;
        if (this.hasUnsent(row.id)) this.markUnavailable(row.id, 'No longer listed by the service');
        else this.db.prepare('DELETE FROM responses WHERE id = ?').run(row.id);
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
  applyRemote(detail: RemoteResponseDetail): string[] {
    return this.db.transaction((): string[] => {
      const { indicators, values, documents, ...summary } = detail;
      const stored: StoredResponse = {
        summary: {
          id: summary.id,
          year: summary.year,
          name: summary.name,
          state: summary.state,
          created_at: summary.created_at,
          updated_at: summary.updated_at,
        },
        indicators,
      };
      this.db
        .prepare(
          `INSERT INTO responses (id, json, load_error, fetched_at) VALUES (?, ?, NULL, ?)
           ON CONFLICT(id) DO UPDATE SET json = excluded.json, load_error = NULL, fetched_at = excluded.fetched_at`,
        )
        .run(detail.id, JSON.stringify(stored), this.now());
      for (const remote of values) this.mergeValue(detail.id, remote);
      this.db.prepare('DELETE FROM response_documents WHERE response_id = ?').run(detail.id);
      const insert = this.db.prepare(
        'INSERT INTO response_documents (response_id, id, json) VALUES (?, ?, ?)',
      );
      for (const doc of documents) insert.run(detail.id, doc.id, JSON.stringify(doc));
      return this.valueRows(detail.id)
        .filter((row) => row.conflict_lock_version !== null)
        .map((row) => row.variable);
    })();
  }

  // --- the analyst's edits

  setValue(responseId: number, variable: string, value: IndicatorValue): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const row = this.responseRow(responseId);
      if (!row) throw new ResponseEditError('not_found', `No response ${responseId} in the workspace`);
      const stored = JSON.parse(row.json) as StoredResponse;
      if (stored.summary.state !== 'open') {
        throw new ResponseEditError(
          'read_only',
          `${stored.summary.name} is ${stored.summary.state}: a historical response is read-only`,
        );
      }
      const def = stored.indicators.find((d) => d.variable === variable);
      if (!def)
        throw new ResponseEditError('not_found', `No indicator ${variable} in ${stored.summary.name}`);
      const problems = checkIndicatorValue(def, value);
      if (problems.length > 0) throw new ResponseEditError('invalid', `${def.label} ${problems.join('; ')}`);
      const existing = this.valueRow(responseId, variable);
      if (existing) {
        this.db
          .prepare(
            'UPDATE response_values SET current_value = ?, server_errors = NULL, updated_at = ? WHERE response_id = ? AND variable = ?',
          )
          .run(text(value), this.now(), responseId, variable);
      } else {
        // Never read from the service: version 0 is what the service expects for a first write.
        this.db
          .prepare(
            `INSERT INTO response_values (response_id, variable, base_value, base_lock_version, current_value, updated_at)
             VALUES (?, ?, 'null', 0, ?, ?)`,
          )
          .run(responseId, variable, text(value), this.now());
      }
      this.journal(responseId, 'response-set', { variable, value });
      return this.mustValue(responseId, variable);
    })();
  }

  /**
   * mine: the service's newer value becomes the base, so the analyst's answer is sent over it;
   * theirs: the service's value replaces the analyst's.
   */
  resolveConflict(responseId: number, variable: string, choice: 'mine' | 'theirs'): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const row = this.valueRow(responseId, variable);
      if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
      if (row.conflict_lock_version !== null && row.conflict_value !== null) {
        const current = choice === 'theirs' ? row.conflict_value : row.current_value;
        this.db
          .prepare(
            `UPDATE response_values SET base_value = ?, base_lock_version = ?, current_value = ?,
             conflict_value = NULL, conflict_lock_version = NULL, updated_at = ? WHERE response_id = ? AND variable = ?`,
          )
          .run(row.conflict_value, row.conflict_lock_version, current, this.now(), responseId, variable);
        this.journal(responseId, 'response-resolve', { variable, choice });
      }
      return this.mustValue(responseId, variable);
    })();
  }

  /** Back to the service's answer (for a conflict: theirs). */
  revertValue(responseId: number, variable: string): ResponseValueView {
    return this.db.transaction((): ResponseValueView => {
      const row = this.valueRow(responseId, variable);
      if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
      const inConflict = row.conflict_lock_version !== null && row.conflict_value !== null;
      const base = inConflict ? (row.conflict_value ?? row.base_value) : row.base_value;
      const lock = inConflict ? (row.conflict_lock_version ?? row.base_lock_version) : row.base_lock_version;
      this.db
        .prepare(
          `UPDATE response_values SET base_value = ?, base_lock_version = ?, current_value = ?, conflict_value = NULL,
           conflict_lock_version = NULL, server_errors = NULL, updated_at = ? WHERE response_id = ? AND variable = ?`,
        )
        .run(base, lock, base, this.now(), responseId, variable);
      this.journal(responseId, 'response-revert', { variable });
      return this.mustValue(responseId, variable);
    })();
  }

  // --- what a push learns

  /** The service took `sent`: its answer is the new base; an edit made meanwhile stays pending. */
  acknowledge(responseId: number, variable: string, sent: IndicatorValue, remote: RemoteResponseValue): void {
    const row = this.valueRow(responseId, variable);
    if (!row) return;
    const unchangedSince = sameIndicatorValue(parseValue(row.current_value), sent);
    this.db
      .prepare(
        `UPDATE response_values SET base_value = ?, base_lock_version = ?, current_value = ?, server_errors = NULL,
         conflict_value = NULL, conflict_lock_version = NULL, remote_updated_at = ?, updated_at = ?
         WHERE response_id = ? AND variable = ?`,
      )
      .run(
        text(remote.value),
        remote.lock_version,
        unchangedSince ? text(remote.value) : row.current_value,
        remote.updated_at,
        this.now(),
        responseId,
        variable,
      );
  }

  /** A 409: the value is merged with the service's current one like a pulled value. */
  stale(responseId: number, variable: string, current: RemoteResponseValue): void {
    this.mergeValue(responseId, current);
  }

  reject(responseId: number, variable: string, errors: readonly string[]): void {
    this.db
      .prepare('UPDATE response_values SET server_errors = ? WHERE response_id = ? AND variable = ?')
      .run(JSON.stringify(errors), responseId, variable);
  }

  addDocument(responseId: number, doc: RemoteResponseDocument): ResponseDocumentView {
    this.db
      .prepare(
        'INSERT INTO response_documents (response_id, id, json) VALUES (?, ?, ?) ON CONFLICT(response_id, id) DO UPDATE SET json = excluded.json',
      )
      .run(responseId, doc.id, JSON.stringify(doc));
    return documentView(doc);
  }

  summary(responseId: number): (ResponseSummary & { indicators: IndicatorDefinition[] }) | undefined {
    const row = this.responseRow(responseId);
    if (!row) return undefined;
    const stored = JSON.parse(row.json) as StoredResponse;
    return { ...stored.summary, indicators: stored.indicators };
  }

  // --- internals

  private mergeValue(responseId: number, remote: RemoteResponseValue): void {
    const row = this.valueRow(responseId, remote.variable);
    const remoteText = text(remote.value);
    if (!row) {
      this.db
        .prepare(
          `INSERT INTO response_values (response_id, variable, base_value, base_lock_version, current_value,
           remote_updated_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          responseId,
          remote.variable,
          remoteText,
          remote.lock_version,
          remoteText,
          remote.updated_at,
          this.now(),
        );
      return;
    }
    const base = parseValue(row.base_value);
    const current = parseValue(row.current_value);
    const set = (fields: string, ...params: unknown[]): void => {
      this.db
        .prepare(
          `UPDATE response_values SET ${fields}, remote_updated_at = ?, updated_at = ? WHERE response_id = ? AND variable = ?`,
        )
        .run(...params, remote.updated_at, this.now(), responseId, remote.variable);
    };
    const adopt = (): void =>
      set(
        'base_value = ?, base_lock_version = ?, current_value = ?, conflict_value = NULL, conflict_lock_version = NULL, server_errors = NULL',
        remoteText,
        remote.lock_version,
        remoteText,
      );
    if (remote.lock_version === row.base_lock_version) return;
    if (sameIndicatorValue(base, current) || sameIndicatorValue(remote.value, current)) {
      // Nothing pending here, or both sides wrote the same answer.
      adopt();
    } else if (sameIndicatorValue(remote.value, base)) {
      // Rewritten with the same value: nothing to merge, the pending edit goes over the new version.
      set('base_lock_version = ?, conflict_value = NULL, conflict_lock_version = NULL', remote.lock_version);
    } else {
      set('conflict_value = ?, conflict_lock_version = ?', remoteText, remote.lock_version);
    }
  }

  private listItem(row: ResponseRow): ResponseListItem {
    const stored = JSON.parse(row.json) as StoredResponse;
    const views = this.valueRows(row.id).map(valueView);
    const documents = (
      this.db.prepare('SELECT COUNT(*) AS n FROM response_documents WHERE response_id = ?').get(row.id) as {
        n: number;
      }
    ).n;
    return {
      ...stored.summary,
      readOnly: stored.summary.state !== 'open',
      available: row.load_error === null,
      unavailableReason: row.load_error ?? undefined,
      modified: views.filter((v) => v.status === 'modified').length,
      conflicts: views.filter((v) => v.status === 'conflict').length,
      documents,
      fetchedAt: new Date(row.fetched_at).toISOString(),
    };
  }

  private isOpen(responseId: number): boolean {
    const row = this.responseRow(responseId);
    return row !== undefined && (JSON.parse(row.json) as StoredResponse).summary.state === 'open';
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
    return this.db
      .prepare('SELECT * FROM response_values WHERE response_id = ? ORDER BY variable')
      .all(responseId) as ValueRow[];
  }

  private valueRow(responseId: number, variable: string): ValueRow | undefined {
    return this.db
      .prepare('SELECT * FROM response_values WHERE response_id = ? AND variable = ?')
      .get(responseId, variable) as ValueRow | undefined;
  }

  private mustValue(responseId: number, variable: string): ResponseValueView {
    const row = this.valueRow(responseId, variable);
    if (!row) throw new ResponseEditError('not_found', `No answer ${variable} in response ${responseId}`);
    return valueView(row);
  }

  private journal(responseId: number, kind: string, payload: unknown): void {
    this.db
      .prepare('INSERT INTO journal (at, local_id, kind, payload) VALUES (?, ?, ?, ?)')
      .run(this.now(), `response:${responseId}`, kind, JSON.stringify(payload));
  }
}
