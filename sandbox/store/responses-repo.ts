import { evidenceVariable, indicatorCatalog, parseEvidenceVariable } from '../../shared/responses/catalog';
import { isReadOnlyResponse, type IndicatorValue } from '../../shared/responses/types';
import type { Db } from './db';

export interface PortfolioResponse {
  id: number;
  entity_id: number;
  survey_year: number;
  /** The entity's name and manager (the docs' summary carries them). */
  name: string;
  manager: string;
  /** `new`, `in_progress`, `submitted`. */
  status: string;
  survey_open: boolean;
  business_line: string;
  assessment_type: string;
  created_at: string;
  updated_at: string;
}

export interface ResponseValue {
  /** The stored row's id and its response (the docs' answer row: `id`, `analysis_id`). */
  id: number | null;
  response_id: number;
  variable: string;
  value: IndicatorValue;
  /** 0 for a value never written; every write increments it. */
  lock_version: number;
  created_at: string | null;
  updated_at: string | null;
}

export interface EvidenceDocument {
  id: number;
  response_id: number;
  answer_name: string;
  item_number: number;
  evidence_type: string;
  url: string;
  created_at: string;
}

export type WriteOutcome = { ok: true; value: ResponseValue } | { ok: false; current: ResponseValue };

interface ResponseRow extends Omit<PortfolioResponse, 'survey_open'> {
  survey_open: number;
}

interface ValueRow {
  id: number;
  response_id: number;
  variable: string;
  value: string;
  lock_version: number;
  created_at: string | null;
  updated_at: string;
}

const toValue = (row: ValueRow): ResponseValue => ({
  id: row.id,
  response_id: row.response_id,
  variable: row.variable,
  value: JSON.parse(row.value) as IndicatorValue,
  lock_version: row.lock_version,
  created_at: row.created_at ?? row.updated_at,
  updated_at: row.updated_at,
});

const toResponse = (row: ResponseRow): PortfolioResponse => ({ ...row, survey_open: row.survey_open === 1 });

const responseColumns = `r.id, r.entity_id, r.survey_year, e.name AS name, e.manager AS manager, r.status,
  r.survey_open, r.business_line, r.assessment_type, r.created_at, r.updated_at`;

/** Portfolio responses (v0): one per entity, year and assessment type, their values and evidence. */
export function createResponsesRepo(db: Db, now: () => number) {
  const iso = () => new Date(now()).toISOString();
  const st = {
    insert:
      db.prepare(`INSERT INTO responses (entity_id, survey_year, name, status, survey_open, business_line,
      assessment_type, created_at, updated_at) VALUES (?, ?, '', ?, ?, 'real_estate', ?, ?, ?)`),
    get: db.prepare(
      `SELECT ${responseColumns} FROM responses r JOIN entities e ON e.id = r.entity_id WHERE r.id = ? AND r.entity_id = ?`,
    ),
    list: db.prepare(
      `SELECT ${responseColumns} FROM responses r JOIN entities e ON e.id = r.entity_id WHERE r.entity_id = ?
       ORDER BY r.survey_year DESC, r.id`,
    ),
    count: db.prepare('SELECT COUNT(*) AS n FROM responses WHERE entity_id = ?'),
    touch: db.prepare('UPDATE responses SET updated_at = ? WHERE id = ?'),
    setStatus: db.prepare('UPDATE responses SET status = ?, survey_open = ? WHERE id = ?'),
    values: db.prepare('SELECT rowid AS id, * FROM response_values WHERE response_id = ? ORDER BY variable'),
    value: db.prepare('SELECT rowid AS id, * FROM response_values WHERE response_id = ? AND variable = ?'),
    insertValue:
      db.prepare(`INSERT INTO response_values (response_id, variable, value, lock_version, created_at,
      updated_at) VALUES (?, ?, ?, 1, ?, ?)`),
    updateValue: db.prepare(`UPDATE response_values SET value = ?, lock_version = lock_version + 1,
      updated_at = ? WHERE response_id = ? AND variable = ? AND lock_version = ?`),
    insertDocument:
      db.prepare(`INSERT INTO response_evidence_documents (response_id, answer_name, item_number,
      evidence_type, url, data_partner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    documents: db.prepare(
      'SELECT * FROM response_evidence_documents WHERE response_id = ? ORDER BY answer_name, item_number',
    ),
    answered: db.prepare(
      `SELECT COUNT(*) AS n FROM response_values WHERE response_id = ? AND value <> 'null' AND variable IN
       (SELECT value FROM json_each(?))`,
    ),
  };
  const catalogVariables = JSON.stringify(indicatorCatalog.map((d) => d.variable));

  const getValue = (responseId: number, variable: string): ResponseValue => {
    const row = st.value.get(responseId, variable) as ValueRow | undefined;
    return row
      ? toValue(row)
      : {
          id: null,
          response_id: responseId,
          variable,
          value: null,
          lock_version: 0,
          created_at: null,
          updated_at: null,
        };
  };

  /** Optimistic locking: lands only if `lockVersion` is the stored one (0 for a value never written). */
  const write = (
    responseId: number,
    variable: string,
    value: IndicatorValue,
    lockVersion: number,
  ): WriteOutcome => {
    const current = getValue(responseId, variable);
    if (current.lock_version !== lockVersion) return { ok: false, current };
    const ts = iso();
    if (lockVersion === 0) st.insertValue.run(responseId, variable, JSON.stringify(value), ts, ts);
    else st.updateValue.run(JSON.stringify(value), ts, responseId, variable, lockVersion);
    st.touch.run(ts, responseId);
    return { ok: true, value: getValue(responseId, variable) };
  };

  /** The highest item number any part of an answer's items was written under. */
  const highestItem = (responseId: number, answerName: string): number => {
    let highest = 0;
    for (const v of (st.values.all(responseId) as ValueRow[]).map((r) => r.variable)) {
      const part = parseEvidenceVariable(v);
      if (part?.answerName === answerName) highest = Math.max(highest, part.item);
    }
    return highest;
  };

  return {
    create(input: {
      entityId: number;
      surveyYear: number;
      status?: string;
      surveyOpen?: boolean;
      assessmentType?: string;
    }): PortfolioResponse {
      const ts = iso();
      const r = st.insert.run(
        input.entityId,
        input.surveyYear,
        input.status ?? 'in_progress',
        input.surveyOpen === false ? 0 : 1,
        input.assessmentType ?? 'real_estate',
        ts,
        ts,
      );
      return toResponse(st.get.get(Number(r.lastInsertRowid), input.entityId) as ResponseRow);
    },
    get(entityId: number, id: number): PortfolioResponse | undefined {
      const row = st.get.get(id, entityId) as ResponseRow | undefined;
      return row ? toResponse(row) : undefined;
    },
    list(entityId: number): PortfolioResponse[] {
      return (st.list.all(entityId) as ResponseRow[]).map(toResponse);
    },
    count(entityId: number): number {
      return (st.count.get(entityId) as { n: number }).n;
    },
    /** Closes or reopens a response (the portal's submit; tests use it to close one). */
    setStatus(responseId: number, status: string, surveyOpen: boolean): void {
      st.setStatus.run(status, surveyOpen ? 1 : 0, responseId);
    },
    isReadOnly(r: PortfolioResponse): boolean {
      return isReadOnlyResponse(r);
    },
    /** Share of the catalog's questions answered, as the summary's percent_completed. */
    percentCompleted(responseId: number): number {
      const n = (st.answered.get(responseId, catalogVariables) as { n: number }).n;
      return Math.round((100 * n) / indicatorCatalog.length);
    },
    values(responseId: number): ResponseValue[] {
      return (st.values.all(responseId) as ValueRow[]).map(toValue);
    },
    getValue,
    writeValue(
      responseId: number,
      variable: string,
      value: IndicatorValue,
      lockVersion: number,
    ): WriteOutcome {
      return db.transaction(() => write(responseId, variable, value, lockVersion))();
    },
    /**
     * A file posted by link: the next item of the answer, its TYPE and DOCID written and its NOTES and
     * SHARE opened (null), each at version 1, as the docs' follow-up writes expect.
     */
    addEvidenceDocument(input: {
      responseId: number;
      answerName: string;
      evidenceType: string;
      url: string;
      dataPartnerId: number | null;
    }): { item: number; document: EvidenceDocument; variables: Record<string, ResponseValue> } {
      return db.transaction(() => {
        const item = highestItem(input.responseId, input.answerName) + 1;
        const r = st.insertDocument.run(
          input.responseId,
          input.answerName,
          item,
          input.evidenceType,
          input.url,
          input.dataPartnerId,
          iso(),
        );
        const docId = Number(r.lastInsertRowid);
        const initial: Record<string, IndicatorValue> = {
          TYPE: input.evidenceType,
          DOCID: String(docId),
          NOTES: null,
          SHARE: null,
        };
        const variables: Record<string, ResponseValue> = {};
        for (const [part, value] of Object.entries(initial)) {
          const variable = evidenceVariable(input.answerName, part as 'TYPE', item);
          const outcome = write(
            input.responseId,
            variable,
            value,
            getValue(input.responseId, variable).lock_version,
          );
          variables[part] = outcome.ok ? outcome.value : outcome.current;
        }
        const document = (st.documents.all(input.responseId) as EvidenceDocument[]).find(
          (d) => d.id === docId,
        );
        if (!document) throw new Error(`evidence document ${docId} was not stored`);
        return { item, document, variables };
      })();
    },
    evidenceDocuments(responseId: number): EvidenceDocument[] {
      return st.documents.all(responseId) as EvidenceDocument[];
    },
  };
}

export type ResponsesRepo = ReturnType<typeof createResponsesRepo>;
