import type { DocumentKind } from './document-kind';
import type { SqlAccess } from './store-access';

/**
 * A portfolio answer as a document of the write path: its `response_values` row (the service's
 * value with its lock version, the analyst's, a conflict kept for the analyst, the service's word).
 * Every statement that writes that table is here; the responses store says what to write (its
 * merge rules), through the write path. Its id is `<responseId>:<variable>`; its journal rows are
 * keyed `response:<id>` (older files: `response:<responseId>`, the answer named by its images).
 */

/** The columns of an answer's row a step may change, and undo put back. */
export const answerColumns = [
  'base_value',
  'base_lock_version',
  'current_value',
  'conflict_value',
  'conflict_lock_version',
  'server_errors',
] as const;
export type AnswerColumn = (typeof answerColumns)[number];

/** Every column of the row besides its key. */
const writable = [...answerColumns, 'unavailable', 'remote_updated_at', 'updated_at'] as const;
export type AnswerValues = Partial<Record<(typeof writable)[number], unknown>>;

/**
 * An answer as a step found or left it. Older files' journal rows also carry `columns` (what that
 * step changed); newer ones keep those in the row's payload.
 */
export interface AnswerImage {
  responseId: number;
  variable: string;
  /** The answer's row, or null: there was none. */
  row: Record<AnswerColumn, unknown> | null;
  columns?: readonly AnswerColumn[];
}

const journalPrefix = 'response:';

/** An answer's document id. */
export function answerId(responseId: number, variable: string): string {
  return `${responseId}:${variable}`;
}

/** The response a journal key of an answer names; undefined: not an answer's. */
export function responseOfJournalKey(key: string): number | undefined {
  if (!key.startsWith(journalPrefix)) return undefined;
  return Number(key.slice(journalPrefix.length).split(':')[0]);
}

function splitId(id: string): [number, string] {
  const at = id.indexOf(':');
  return [Number(id.slice(0, at)), id.slice(at + 1)];
}

function checked(values: AnswerValues): Array<[string, unknown]> {
  const entries = Object.entries(values);
  for (const [column] of entries)
    if (!(writable as readonly string[]).includes(column)) throw new Error(`Not an answer column: ${column}`);
  return entries;
}

export type AnswerWriter = ReturnType<typeof answerWriter>;

function answerWriter(access: SqlAccess) {
  const { sql } = access;
  return {
    insert(responseId: number, variable: string, values: AnswerValues): void {
      const entries = checked(values);
      sql(
        `INSERT INTO response_values (response_id, variable, ${entries.map(([c]) => c).join(', ')})
         VALUES (?, ?, ${entries.map(() => '?').join(', ')})`,
      ).run(responseId, variable, ...entries.map(([, v]) => v));
    },
    /** Sets `values` on the answer's row; returns whether there was one. */
    update(responseId: number, variable: string, values: AnswerValues): boolean {
      const entries = checked(values);
      if (entries.length === 0) return false;
      return (
        sql(
          `UPDATE response_values SET ${entries.map(([c]) => `${c} = ?`).join(', ')}
           WHERE response_id = ? AND variable = ?`,
        ).run(...entries.map(([, v]) => v), responseId, variable).changes > 0
      );
    },
    remove(responseId: number, variable: string): void {
      sql('DELETE FROM response_values WHERE response_id = ? AND variable = ?').run(responseId, variable);
    },
  };
}

/** The answer kind over a connection (the responses store's own, or the workspace store's for undo). */
export function answerDocuments(access: SqlAccess): DocumentKind<AnswerImage, AnswerWriter> {
  const writer = answerWriter(access);
  const read = (id: string): AnswerImage | null => {
    const [responseId, variable] = splitId(id);
    const row = access
      .sql(`SELECT ${answerColumns.join(', ')} FROM response_values WHERE response_id = ? AND variable = ?`)
      .get(responseId, variable) as AnswerImage['row'] | undefined;
    return row ? { responseId, variable, row } : null;
  };
  return {
    kind: 'answer',
    journalKey: (id) => `${journalPrefix}${id}`,
    // Older files key an answer's rows by its response alone: the answer is the one its image names.
    idOfJournalKey(key, image) {
      if (!key.startsWith(journalPrefix)) return undefined;
      const rest = key.slice(journalPrefix.length);
      if (rest.includes(':')) return rest;
      return image ? answerId(image.responseId, image.variable) : null;
    },
    read,
    document: (image) => image?.row?.current_value ?? null,
    writer,
    /** Puts an answer's changed columns back (a first answer undone: its row goes). */
    restore(id, image, journal) {
      const [responseId, variable] = splitId(id);
      const payload = JSON.parse(journal.payload) as { columns?: AnswerColumn[] };
      const row = image?.row ?? null;
      if (row === null) {
        writer.remove(responseId, variable);
        return;
      }
      const now = access.now();
      const exists = access
        .sql('SELECT 1 FROM response_values WHERE response_id = ? AND variable = ?')
        .get(responseId, variable);
      if (!exists) {
        const values: AnswerValues = { updated_at: now };
        for (const c of answerColumns) values[c] = row[c] ?? null;
        writer.insert(responseId, variable, values);
        return;
      }
      const columns = (image?.columns ?? payload.columns ?? answerColumns).filter((c) =>
        (answerColumns as readonly string[]).includes(c),
      );
      if (columns.length === 0) return;
      const values: AnswerValues = {};
      for (const c of columns) values[c] = row[c] ?? null;
      writer.update(responseId, variable, { ...values, updated_at: now });
    },
  };
}
