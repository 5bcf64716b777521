import { pathLabel } from '../../shared/domain/path-labels';
import type { ChangeSource } from '../../shared/history/change-source';
import { sourceInWords } from '../../shared/history/source-words';
import { catalogIndicator } from '../../shared/responses/catalog';
import type { Scalar } from '../../shared/sync/asset-doc';
import { placed, type CellHistory, type HistoryAccess } from './cell-history';
import { decodeValue } from './cell-values';

/** Which changes an audit log holds: a period (epoch ms, `to` exclusive) and/or some assets. */
export interface AuditFilter {
  from?: number | undefined;
  to?: number | undefined;
  localIds?: readonly string[] | undefined;
}

/** One line of the audit log: a cell's change, or a document's arrival (`path` empty). */
export interface AuditRow {
  at: number;
  asset: string;
  field: string;
  path: string;
  previous: Scalar;
  value: Scalar;
  source: string;
}

export const auditColumns = ['Time (UTC)', 'Asset', 'Field', 'Path', 'Old value', 'New value', 'Source'];

/** Rows read per statement: each page is read whole, so nothing holds the connection between pages. */
const PAGE = 5_000;

interface HistoryRow {
  id: number;
  at: number;
  value: unknown;
  previous: unknown;
  source: number;
  place: string | null;
  kind: string;
  ref: string;
  path: string;
}

/**
 * The audit log's rows in time order, a page at a time (every change recorded, with the
 * documents' arrivals among them), worded as the analyst reads them. Pages are read by id, each in
 * one statement, so the export can yield between them while main answers other calls.
 */
export async function* auditPages(history: CellHistory, filter: AuditFilter): AsyncGenerator<AuditRow[]> {
  const db = history.access;
  const from = filter.from ?? 0;
  const to = filter.to ?? Number.MAX_SAFE_INTEGER;
  const ids = filter.localIds ? JSON.stringify(filter.localIds) : null;
  const docFilter = ids === null ? '' : "AND d.kind = 'asset' AND d.ref IN (SELECT value FROM json_each(?))";
  const names = assetNames(db);
  const sources = new Map<number, ChangeSource>();
  const words = (id: number, place: string | null): string => {
    let source = sources.get(id);
    if (!source) sources.set(id, (source = history.sourceOf(id)));
    return sourceInWords(placed(source, place));
  };
  const arrivals = (
    db
      .sql(
        `SELECT d.origin_at AS at, d.origin_source AS source, d.kind, d.ref FROM cell_docs d JOIN change_sources s ON s.id = d.origin_source
         WHERE s.json <> '{"kind":"before-history"}' AND d.origin_at >= ? AND d.origin_at < ? ${docFilter} ORDER BY d.origin_at, d.id`,
      )
      .all(...[from, to, ...(ids === null ? [] : [ids])]) as Array<{
      at: number;
      source: number;
      kind: string;
      ref: string;
    }>
  ).map((row) => ({ ...row, id: 0, value: null, previous: null, path: '', place: null }));
  const page = db.sql(
    `SELECT h.id, h.at, h.value, h.previous, h.source, h.place, d.kind, d.ref, p.path FROM cell_history h
     JOIN cell_docs d ON d.id = h.doc JOIN cell_paths p ON p.id = h.path
     WHERE h.id > ? AND h.at >= ? AND h.at < ? ${docFilter} ORDER BY h.id LIMIT ${PAGE}`,
  );
  const toRow = (row: HistoryRow): AuditRow => {
    const { asset, field } = describe(row.kind, row.ref, row.path, names);
    return {
      at: row.at,
      asset,
      field,
      path: row.path,
      previous: decodeValue(row.previous),
      value: decodeValue(row.value),
      source: words(row.source, row.place),
    };
  };
  let after = 0;
  let next = 0;
  for (;;) {
    const rows = page.all(...[after, from, to, ...(ids === null ? [] : [ids])]) as HistoryRow[];
    const out: AuditRow[] = [];
    for (const row of rows) {
      for (let arrival = arrivals[next]; arrival && arrival.at <= row.at; arrival = arrivals[++next])
        out.push(toRow(arrival));
      out.push(toRow(row));
    }
    if (rows.length < PAGE)
      for (; next < arrivals.length; next++) out.push(toRow(arrivals[next] as HistoryRow));
    if (out.length > 0) yield out;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id ?? after;
  }
}

/** Each asset's name (the analyst's copy, else the service's), read by SQLite out of the JSON. */
function assetNames(db: HistoryAccess): Map<string, string> {
  const rows = db
    .sql("SELECT local_id, json_extract(COALESCE(current, base), '$.name') AS name FROM assets")
    .all() as Array<{ local_id: string; name: unknown }>;
  return new Map(rows.map((row) => [row.local_id, typeof row.name === 'string' ? row.name : row.local_id]));
}

function describe(
  kind: string,
  ref: string,
  path: string,
  names: ReadonlyMap<string, string>,
): { asset: string; field: string } {
  if (kind === 'answer') {
    const [responseId, variable = ''] = ref.split(':');
    return {
      asset: `Portfolio response ${responseId}`,
      field: catalogIndicator(variable)?.label ?? variable,
    };
  }
  const asset = kind === 'asset' ? (names.get(ref) ?? `${ref} (removed)`) : `${kind} ${ref}`;
  return { asset, field: path === '' ? `(the ${kind} was added)` : pathLabel(path) };
}
