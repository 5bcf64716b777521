import { pathLabel } from '../../shared/domain/path-labels';
import { sourceInWords } from '../../shared/history/source-words';
import { catalogIndicator } from '../../shared/responses/catalog';
import type { Scalar } from '../../shared/sync/asset-doc';
import { placed, type CellHistory, type HistoryAccess } from '../workspace/cell-history';
import { decodeValue } from '../workspace/cell-values';
import { rowDocBase, rowDocSql, unrecordedOriginSource } from '../workspace/history-docs';
import { readTail } from '../workspace/history-tail';

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

/** A `cell_history` row as read for the log: id, at, value, previous, source, place, doc, path. */
type RawRow = [number, number, unknown, unknown, number, string | null, number, number];

/**
 * The audit log's rows in time order, a page at a time (every change recorded, with the
 * documents' arrivals among them), worded as the analyst reads them. Pages are read by id, each in
 * one statement of the history table alone (documents, paths and sources are small tables, read
 * into maps first), so the export yields between them while main answers other calls.
 */
export async function* auditPages(history: CellHistory, filter: AuditFilter): AsyncGenerator<AuditRow[]> {
  const db = history.access;
  const from = filter.from ?? 0;
  const to = filter.to ?? Number.MAX_SAFE_INTEGER;
  const names = assetNames(db);
  const wanted = filter.localIds ? new Set(filter.localIds) : null;
  const docs = new Map<number, { kind: string; ref: string }>();
  for (const [id, kind, ref] of db.sql('SELECT id, kind, ref FROM cell_docs').raw().all() as Array<
    [number, string, string]
  >) {
    if (wanted && !(kind === 'asset' && wanted.has(ref))) continue;
    docs.set(id, { kind, ref });
  }
  // The assets first seen by a change: their history's id is their row's (history-docs.ts).
  const registered = new Set([...docs.values()].filter((d) => d.kind === 'asset').map((d) => d.ref));
  for (const [id, ref] of db
    .sql(`SELECT ${rowDocSql('rowid')}, local_id FROM assets WHERE rowid < ${rowDocBase}`)
    .raw()
    .all() as Array<[number, string]>) {
    if (registered.has(ref) || (wanted && !wanted.has(ref))) continue;
    docs.set(id, { kind: 'asset', ref });
  }
  const paths = new Map(db.sql('SELECT id, path FROM cell_paths').raw().all() as Array<[number, string]>);
  // A source's words once per source id, and a placed source's once per place (an import's cells
  // each have a place of their own, so that cache is bounded).
  const sourceWords = new Map<number, string>();
  const placedWords = new Map<number, Map<string, string>>();
  const words = (id: number, place: string | null): string => {
    if (place !== null) {
      let byPlace = placedWords.get(id);
      if (!byPlace) placedWords.set(id, (byPlace = new Map()));
      let text = byPlace.get(place);
      if (text === undefined) {
        if (byPlace.size > 50_000) byPlace.clear();
        byPlace.set(place, (text = sourceInWords(placed(history.sourceOf(id), place))));
      }
      return text;
    }
    let text = sourceWords.get(id);
    if (text === undefined) sourceWords.set(id, (text = sourceInWords(history.sourceOf(id))));
    return text;
  };
  const arrivedDates = new Map(
    db
      .sql('SELECT local_id, arrived_updated_at FROM assets WHERE arrived_updated_at IS NOT NULL')
      .raw()
      .all() as Array<[string, string]>,
  );
  const arrivals: AuditRow[] = [];
  for (const [id, at, source] of db
    .sql(
      `SELECT d.id, d.origin_at, d.origin_source FROM cell_docs d JOIN change_sources s ON s.id = d.origin_source
       WHERE s.json <> '{"kind":"before-history"}' AND d.origin_at >= ? AND d.origin_at < ? ORDER BY d.origin_at, d.id`,
    )
    .raw()
    .all(from, to) as Array<[number, number, number]>) {
    const doc = docs.get(id);
    if (!doc) continue;
    const { asset, field } = describe(doc.kind, doc.ref, '', names);
    // A pulled asset's row keeps no date: the one it arrived with (CellHistory.datedOrigin).
    const origin = history.sourceOf(source);
    const text =
      origin.kind === 'service' && origin.updatedAt === null && doc.kind === 'asset'
        ? sourceInWords(
            history.datedOrigin({ kind: 'asset', id: doc.ref }, origin, arrivedDates.get(doc.ref) ?? null),
          )
        : words(source, null);
    arrivals.push({ at, asset, field, path: '', previous: null, value: null, source: text });
  }
  // A pull's new assets have no row there: their ids say when they arrived (CellHistory.arrival).
  const recorded = new Set(
    db
      .sql("SELECT ref FROM cell_docs WHERE kind = 'asset' AND origin_source <> ?")
      .pluck()
      .all(unrecordedOriginSource) as string[],
  );
  for (const localId of names.keys()) {
    if (recorded.has(localId) || (wanted && !wanted.has(localId))) continue;
    const origin = history.unrecordedOrigin(
      { kind: 'asset', id: localId },
      arrivedDates.get(localId) ?? null,
    );
    if (origin.source.kind !== 'service' || origin.at < from || origin.at >= to) continue;
    const { asset, field } = describe('asset', localId, '', names);
    arrivals.push({
      at: origin.at,
      asset,
      field,
      path: '',
      previous: null,
      value: null,
      source: sourceInWords(origin.source),
    });
  }
  arrivals.sort((x, y) => x.at - y.at);
  const page = db
    .sql(
      `SELECT id, at, value, previous, source, place, doc, path FROM cell_history
       WHERE id > ? AND at >= ? AND at < ? ORDER BY id LIMIT ${PAGE}`,
    )
    .raw();
  // What a row repeats, worked out once per id rather than per row (a log of a million changes
  // names a few thousand documents and a few dozen paths): by document its asset (and an answer's
  // field), by path its text and label.
  const assetOf: Array<string | undefined> = [];
  /** A document's field without a path: an answer's on every row, anyone's for a path no row names. */
  const ownField: string[] = [];
  const answers = new Set<number>();
  for (const [id, doc] of docs) {
    const { asset, field } = describe(doc.kind, doc.ref, '', names);
    assetOf[id] = asset;
    ownField[id] = field;
    if (doc.kind === 'answer') answers.add(id);
  }
  const pathText: string[] = [];
  const pathField: string[] = [];
  for (const [id, path] of paths) {
    pathText[id] = path;
    pathField[id] = pathLabel(path);
  }
  // The period in the table's whole seconds: `from` inclusive, `to` exclusive.
  const startSecond = Math.floor(history.historyStartedAt() / 1_000);
  const fromSecond = Math.ceil(from / 1_000) - startSecond;
  const toSecond = Math.min(Math.ceil(to / 1_000), Number.MAX_SAFE_INTEGER / 1_000) - startSecond;
  const startMs = history.msOf(0);
  let after = 0;
  let next = 0;
  for (;;) {
    const rows = page.all(after, fromSecond, toSecond) as RawRow[];
    // The analyst's latest edits, not yet in the table (history-tail.ts), after its last page: read
    // in the same turn, so a move meanwhile neither drops nor repeats them.
    if (rows.length < PAGE) rows.push(...tailRows(history, docs, fromSecond, toSecond));
    const out: AuditRow[] = [];
    for (const [, second, value, previous, source, place, docId, pathId] of rows) {
      const asset = assetOf[docId];
      if (asset === undefined) continue;
      const at = startMs + second * 1_000;
      for (let arrival = arrivals[next]; arrival && arrival.at <= at; arrival = arrivals[++next])
        out.push(arrival);
      const path = pathText[pathId];
      out.push({
        at,
        asset,
        field: !path || answers.has(docId) ? ownField[docId]! : pathField[pathId]!,
        path: path ?? '',
        previous: decodeValue(previous),
        value: decodeValue(value),
        source: words(source, place),
      });
    }
    const last = rows.length < PAGE || rows[rows.length - 1]?.[0] === tailId;
    if (last) for (; next < arrivals.length; next++) out.push(arrivals[next] as AuditRow);
    if (out.length > 0) yield out;
    if (last) return;
    after = rows[rows.length - 1]?.[0] ?? after;
  }
}

/** The id a tail row is read with (it has none yet): no row of the table has it. */
const tailId = -1;

/** The tail's cells (history-tail.ts) as the table's rows, of the documents asked and the period. */
function tailRows(
  history: CellHistory,
  docs: ReadonlyMap<number, { kind: string; ref: string }>,
  fromSecond: number,
  toSecond: number,
): RawRow[] {
  const { cells } = readTail(history.access);
  if (cells.length === 0) return [];
  const docOf = new Map<string, number>();
  for (const [id, doc] of docs) if (doc.kind === 'asset') docOf.set(doc.ref, id);
  return cells.flatMap((cell): RawRow[] => {
    const doc = docOf.get(cell.ref);
    if (doc === undefined || cell.at < fromSecond || cell.at >= toSecond) return [];
    return [[tailId, cell.at, cell.value, cell.previous, cell.source, null, doc, cell.path]];
  });
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
