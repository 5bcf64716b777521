import { createHash } from 'node:crypto';
import type { Db } from './db';
import type { IndicatorValue } from '../model/indicators';

export type ResponseState = 'open' | 'submitted';

export interface PortfolioResponse {
  id: number;
  entity_id: number;
  year: number;
  name: string;
  state: ResponseState;
  created_at: string;
  updated_at: string;
}

export interface ResponseValue {
  variable: string;
  value: IndicatorValue;
  /** 0 for a value never written; every write increments it. */
  lock_version: number;
  updated_at: string | null;
}

export interface ResponseDocument {
  id: number;
  response_id: number;
  variable: string | null;
  filename: string;
  size: number;
  content_type: string;
  sha256: string;
  created_at: string;
}

export type WriteOutcome = { ok: true; value: ResponseValue } | { ok: false; current: ResponseValue };

interface ValueRow {
  variable: string;
  value: string;
  lock_version: number;
  updated_at: string;
}

const toValue = (row: ValueRow): ResponseValue => ({
  variable: row.variable,
  value: JSON.parse(row.value) as IndicatorValue,
  lock_version: row.lock_version,
  updated_at: row.updated_at,
});

const documentColumns = 'id, response_id, variable, filename, size, content_type, sha256, created_at';

/** Portfolio responses (v0): one per entity and year, their indicator values and evidence documents. */
export function createResponsesRepo(db: Db, now: () => number) {
  const iso = () => new Date(now()).toISOString();
  const st = {
    insert: db.prepare(
      'INSERT INTO responses (entity_id, year, name, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    get: db.prepare('SELECT * FROM responses WHERE id = ? AND entity_id = ?'),
    list: db.prepare('SELECT * FROM responses WHERE entity_id = ? ORDER BY year DESC, id'),
    count: db.prepare('SELECT COUNT(*) AS n FROM responses WHERE entity_id = ?'),
    touch: db.prepare('UPDATE responses SET updated_at = ? WHERE id = ?'),
    values: db.prepare('SELECT * FROM response_values WHERE response_id = ? ORDER BY variable'),
    value: db.prepare('SELECT * FROM response_values WHERE response_id = ? AND variable = ?'),
    insertValue: db.prepare(
      'INSERT INTO response_values (response_id, variable, value, lock_version, updated_at) VALUES (?, ?, ?, 1, ?)',
    ),
    updateValue: db.prepare(`UPDATE response_values SET value = ?, lock_version = lock_version + 1,
      updated_at = ? WHERE response_id = ? AND variable = ? AND lock_version = ?`),
    insertDocument: db.prepare(`INSERT INTO response_documents (response_id, variable, filename, size,
      content_type, sha256, content, data_partner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    document: db.prepare(`SELECT ${documentColumns} FROM response_documents WHERE id = ?`),
    documents: db.prepare(
      `SELECT ${documentColumns} FROM response_documents WHERE response_id = ? ORDER BY id`,
    ),
  };

  const getValue = (responseId: number, variable: string): ResponseValue => {
    const row = st.value.get(responseId, variable) as ValueRow | undefined;
    return row ? toValue(row) : { variable, value: null, lock_version: 0, updated_at: null };
  };

  return {
    create(input: {
      entityId: number;
      year: number;
      name: string;
      state?: ResponseState;
    }): PortfolioResponse {
      const ts = iso();
      const r = st.insert.run(input.entityId, input.year, input.name, input.state ?? 'open', ts, ts);
      return st.get.get(Number(r.lastInsertRowid), input.entityId) as PortfolioResponse;
    },
    get(entityId: number, id: number): PortfolioResponse | undefined {
      return st.get.get(id, entityId) as PortfolioResponse | undefined;
    },
    list(entityId: number): PortfolioResponse[] {
      return st.list.all(entityId) as PortfolioResponse[];
    },
    count(entityId: number): number {
      return (st.count.get(entityId) as { n: number }).n;
    },
    values(responseId: number): ResponseValue[] {
      return (st.values.all(responseId) as ValueRow[]).map(toValue);
    },
    getValue,
    /**
     * Optimistic locking: the write lands only if `lockVersion` is the stored one (0 for a value
     * never written); otherwise the caller gets the current value to merge against.
     */
    writeValue(
      responseId: number,
      variable: string,
      value: IndicatorValue,
      lockVersion: number,
    ): WriteOutcome {
      return db.transaction((): WriteOutcome => {
        const current = getValue(responseId, variable);
        if (current.lock_version !== lockVersion) return { ok: false, current };
        const ts = iso();
        if (lockVersion === 0) st.insertValue.run(responseId, variable, JSON.stringify(value), ts);
        else st.updateValue.run(JSON.stringify(value), ts, responseId, variable, lockVersion);
        st.touch.run(ts, responseId);
        return { ok: true, value: getValue(responseId, variable) };
      })();
    },
    addDocument(input: {
      responseId: number;
      variable: string | null;
      filename: string;
      contentType: string;
      content: Buffer;
      dataPartnerId: number | null;
    }): ResponseDocument {
      const ts = iso();
      const sha256 = createHash('sha256').update(input.content).digest('hex');
      const r = st.insertDocument.run(
        input.responseId,
        input.variable,
        input.filename,
        input.content.length,
        input.contentType,
        sha256,
        input.content,
        input.dataPartnerId,
        ts,
      );
      st.touch.run(ts, input.responseId);
      return st.document.get(Number(r.lastInsertRowid)) as ResponseDocument;
    },
    documents(responseId: number): ResponseDocument[] {
      return st.documents.all(responseId) as ResponseDocument[];
    },
  };
}

export type ResponsesRepo = ReturnType<typeof createResponsesRepo>;
