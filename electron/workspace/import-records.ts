import { pathLabel } from '../../shared/domain/path-labels';
import { changeSourceSchema, type ChangeSource } from '../../shared/history/change-source';
import {
  importCellsWindow,
  type ImportCell,
  type ImportDetail,
  type ImportFacts,
  type ImportKind,
  type ImportSummary,
} from '../../shared/history/import-record';
import { decodeValue } from './cell-values';
import { historyDocOf, historyRefOf } from './history-docs';
import type { SqlAccess } from './store-access';

/** The source an import's changes are recorded with: its file, and its record's id. */
export type ImportSource = Extract<ChangeSource, { kind: 'workbook' | 'csv' }>;

/** How many cells a window shows before the one asked about (`importCellsWindow` in all). */
const WINDOW = importCellsWindow;
const BEFORE = 20;

const factsKeys = ['kind', 'sheets', 'created', 'updated', 'cells', 'skipped', 'skippedWhat', 'label'];

/**
 * The imports applied to a workspace (issue 31), one `import_records` row each (its table in
 * history-schema.ts), so a cell's history can show the import an entry came from after the file is
 * gone. Nothing is copied: the file's name is in the import's source row (whose id the row keeps),
 * and what it changed is the cell history's rows of that source, read by the id ranges `begin` and
 * `finish` note around the import's writes (no index on the source is needed, nor paid by every
 * change). Both run inside the import's own step and transaction: a record is never kept without
 * the import, nor the reverse.
 */
export class ImportRecords {
  constructor(
    private readonly db: Pick<SqlAccess, 'sql' | 'now'>,
    private readonly step: () => number | null,
  ) {}

  /** Before an import writes: its record's id, and the source its changes are to carry. */
  begin(kind: ImportKind, file: string): { id: number; source: ImportSource } {
    const { id } = this.db
      .sql(
        `INSERT INTO import_records (at, step, first_change, first_doc, json) VALUES (?, ?,
         (SELECT COALESCE(MAX(id), 0) + 1 FROM cell_history), (SELECT COALESCE(MAX(id), 0) + 1 FROM cell_docs), '{}')
         RETURNING id`,
      )
      .get(this.db.now(), this.step()) as { id: number };
    const name = file.slice(0, 255);
    const source: ImportSource =
      kind === 'workbook'
        ? { kind: 'workbook', file: name, import: id }
        : { kind: 'csv', file: name, import: id };
    return { id, source };
  }

  /** After its writes: what it did, and where its changes end. `source`: as `begin` gave it. */
  finish(id: number, source: ImportSource, facts: ImportFacts): void {
    // The same row the cell history made for this source, or made here (a file without history).
    const { id: sourceId } = this.db
      .sql(
        'INSERT INTO change_sources (json) VALUES (?) ON CONFLICT (json) DO UPDATE SET json = excluded.json RETURNING id',
      )
      .get(JSON.stringify(source)) as { id: number };
    const json = JSON.stringify(
      Object.fromEntries(factsKeys.map((key) => [key, facts[key as keyof ImportFacts]])),
    );
    this.db
      .sql(
        `UPDATE import_records SET source = ?, json = ?,
         last_change = (SELECT COALESCE(MAX(id), 0) FROM cell_history), last_doc = (SELECT COALESCE(MAX(id), 0) FROM cell_docs)
         WHERE id = ?`,
      )
      .run(sourceId, json, id);
  }

  /** Undone by the Import card's own "Undo import" (Ctrl+Z's undo is its step's). */
  markUndone(id: number): void {
    this.db
      .sql("UPDATE import_records SET json = json_set(json, '$.undone', json('true')) WHERE id = ?")
      .run(id);
  }

  /** The latest imports, newest first. */
  recent(limit = 10): ImportSummary[] {
    const rows = this.db
      .sql(`${summarySql} WHERE r.last_change IS NOT NULL ORDER BY r.id DESC LIMIT ?`)
      .all(limit) as SummaryRow[];
    return rows.flatMap((row) => summaryOf(row) ?? []);
  }

  /**
   * One import's record: what it did, and a window of the cells it changed (`WINDOW` at most): from
   * `offset` (the panel's paging), else around `cell` (a history entry's), else from the start;
   * `cell` highlighted where the window holds it. Undefined: no such record.
   */
  detail(
    importId: number,
    cell?: { localId: string; path: string },
    offset?: number,
  ): ImportDetail | undefined {
    const row = this.db.sql(`${summarySql} WHERE r.id = ? AND r.last_change IS NOT NULL`).get(importId) as
      SummaryRow | undefined;
    const summary = row && summaryOf(row);
    if (!row || !summary) return undefined;
    const span = [row.first_change, row.last_change, row.source] as const;
    const added: Record<string, number> = {};
    for (const { kind, n } of this.db
      .sql(
        'SELECT kind, COUNT(*) AS n FROM cell_docs WHERE id BETWEEN ? AND ? AND origin_source = ? GROUP BY kind ORDER BY kind',
      )
      .all(row.first_doc, row.last_doc, row.source) as Array<{ kind: string; n: number }>)
      added[kind] = n;
    const count = (below = Number.MAX_SAFE_INTEGER): number =>
      (
        this.db
          .sql('SELECT COUNT(*) AS n FROM cell_history WHERE id BETWEEN ? AND ? AND source = ? AND id < ?')
          .get(...span, below) as { n: number }
      ).n;
    // The cell's document's history id (an asset's own row's, or its `cell_docs` row's: history-docs.ts).
    const docId = cell ? historyDocOf(this.db, { kind: 'asset', id: cell.localId }) : undefined;
    const found =
      cell && docId !== undefined
        ? (this.db
            .sql(
              `SELECT h.id FROM cell_history h JOIN cell_paths p ON p.id = h.path
               WHERE h.id BETWEEN ? AND ? AND h.source = ? AND h.doc = ? AND p.path = ? ORDER BY h.id LIMIT 1`,
            )
            .get(...span, docId, cell.path) as { id: number } | undefined)
        : undefined;
    const at = found ? count(found.id) : null;
    const changes = count();
    // An offset past the end (a page asked of a record since read) shows the last cell.
    const start =
      offset !== undefined
        ? Math.max(0, Math.min(offset, changes - 1))
        : at === null
          ? 0
          : Math.max(0, at - BEFORE);
    const refs = new Map<number, string | undefined>();
    const refOf = (doc: number): string | undefined => {
      if (!refs.has(doc)) refs.set(doc, historyRefOf(this.db, doc)?.id);
      return refs.get(doc);
    };
    const cells = (
      this.db
        .sql(
          `SELECT h.doc, p.path, h.value, h.previous, h.place FROM cell_history h
           JOIN cell_paths p ON p.id = h.path
           WHERE h.id BETWEEN ? AND ? AND h.source = ? ORDER BY h.id LIMIT ? OFFSET ?`,
        )
        .all(...span, WINDOW, start) as Array<{
        doc: number;
        path: string;
        value: unknown;
        previous: unknown;
        place: string | null;
      }>
    ).flatMap((c) => {
      const ref = refOf(c.doc);
      return ref === undefined ? [] : [{ ...c, ref }];
    });
    const names = new Map<string, string>();
    const nameOf = (localId: string): string => {
      let name = names.get(localId);
      if (name === undefined) {
        const found = this.db
          .sql(
            "SELECT json_extract(COALESCE(current, base), '$.name') AS name FROM assets WHERE local_id = ?",
          )
          .get(localId) as { name: unknown } | undefined;
        name =
          found === undefined
            ? `${localId} (removed)`
            : typeof found.name === 'string'
              ? found.name
              : localId;
        names.set(localId, name);
      }
      return name;
    };
    const rows: ImportCell[] = cells.map((c) => ({
      localId: c.ref,
      asset: nameOf(c.ref),
      path: c.path,
      field: pathLabel(c.path),
      place: c.place,
      value: decodeValue(c.value),
      previous: decodeValue(c.previous),
    }));
    const shown = at !== null && at >= start && at < start + rows.length;
    return { ...summary, added, changes, offset: start, rows, highlighted: shown ? at - start : null };
  }
}

/** A record with its source's text and its undo step's state (null: the step was let go). */
const summarySql = `SELECT r.id, r.at, r.json, r.source, r.first_change, r.last_change, r.first_doc, r.last_doc,
  s.json AS source_json, st.undone FROM import_records r JOIN change_sources s ON s.id = r.source
  LEFT JOIN steps st ON st.id = r.step`;

interface SummaryRow {
  id: number;
  at: number;
  json: string;
  source: number;
  first_change: number;
  last_change: number;
  first_doc: number;
  last_doc: number;
  source_json: string;
  undone: number | null;
}

function summaryOf(row: SummaryRow): ImportSummary | undefined {
  const source = changeSourceSchema.safeParse(JSON.parse(row.source_json));
  if (!source.success || (source.data.kind !== 'workbook' && source.data.kind !== 'csv')) return undefined;
  const { undone, ...facts } = JSON.parse(row.json) as ImportFacts & { undone?: boolean };
  return {
    ...facts,
    importId: row.id,
    at: row.at,
    file: source.data.file,
    step: undone === true || row.undone === 1 ? 'undone' : row.undone === null ? 'gone' : 'done',
  };
}
