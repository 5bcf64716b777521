import type { ChangeSource } from '../../shared/history/change-source';
import { fromHand } from '../../shared/history/source-words';
import type { AssetDoc, Scalar } from '../../shared/sync/asset-doc';
import { placed, type CellHistory } from './cell-history';
import { cellsOf } from './cell-values';
import { rowDocBase, rowDocSql, unrecordedOriginSource } from './history-docs';
import { newestInTail } from './history-tail';

/** A cell's current value and where it came from: its latest history entry, else its document's arrival. */
export interface CellSource {
  path: string;
  value: Scalar;
  source: ChangeSource;
  /** Epoch ms. */
  at: number;
}

/**
 * For each asset, the cells an assurer asks about (issue 31, the workbook's Sources tab): those
 * whose current value did not come from the analyst's hand, and those with a history, each with
 * the source of its current value, as the cell's history would show it first. Reads the history's
 * small tables and each cell's latest entry once (by the "this cell, newest first" index), not a
 * statement per cell. `visit` is called per asset in the order given, with its cells in path order.
 */
export function cellSources(
  history: CellHistory,
  assets: Iterable<{ localId: string; doc: AssetDoc }>,
  visit: (localId: string, cells: CellSource[]) => void,
): void {
  const db = history.access;
  const docs = new Map<string, { id: number; at: number; source: number }>();
  for (const [ref, id, at, source] of db
    .sql("SELECT ref, id, origin_at, origin_source FROM cell_docs WHERE kind = 'asset'")
    .raw()
    .all() as Array<[string, number, number, number]>)
    docs.set(ref, { id, at, source });
  // The assets first seen by a change: their history's id is their row's (history-docs.ts).
  const rowDocs = new Map(
    db
      .sql(`SELECT local_id, ${rowDocSql('rowid')} FROM assets WHERE rowid < ${rowDocBase}`)
      .raw()
      .all() as Array<[string, number]>,
  );
  const pathIds = new Map(
    (db.sql('SELECT path, id FROM cell_paths').raw().all() as Array<[string, number]>).map(([p, id]) => [
      p,
      id,
    ]),
  );
  /** Each changed cell's latest entry, by document and path id: at, source, place. */
  const latest = new Map<number, Map<number, [number, number, string | null]>>();
  for (const [doc, path, at, source, place] of db
    .sql(
      'SELECT doc, path, at, source, place FROM cell_history WHERE id IN (SELECT MAX(id) FROM cell_history GROUP BY doc, path)',
    )
    .raw()
    .iterate() as Iterable<[number, number, number, number, string | null]>) {
    let cells = latest.get(doc);
    if (!cells) latest.set(doc, (cells = new Map()));
    cells.set(path, [at, source, place]);
  }
  // The analyst's latest edits, not yet in the table (history-tail.ts): each their cell's newest.
  const tail = newestInTail(db);
  const arrived = new Map(
    db
      .sql('SELECT local_id, arrived_updated_at FROM assets WHERE arrived_updated_at IS NOT NULL')
      .raw()
      .all() as Array<[string, string]>,
  );
  for (const { localId, doc } of assets) {
    const row = docs.get(localId);
    // Where the document came from: its row's origin, or a pull's arrival (or before history).
    const ref = { kind: 'asset' as const, id: localId };
    const origin =
      row && row.source !== unrecordedOriginSource
        ? {
            at: row.at,
            source: history.datedOrigin(ref, history.sourceOf(row.source), arrived.get(localId) ?? null),
          }
        : history.unrecordedOrigin(ref, arrived.get(localId) ?? null);
    const mineFromTheStart = fromHand(origin.source) === true;
    const docId = row?.id ?? rowDocs.get(localId);
    const changed = docId === undefined ? undefined : latest.get(docId);
    const out: CellSource[] = [];
    const cells = [...cellsOf('asset', doc)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [path, value] of cells) {
      if (value === null) continue;
      const pathId = pathIds.get(path);
      const newest = pathId === undefined ? undefined : tail.get(localId)?.get(pathId);
      const last: [number, number, string | null] | undefined = newest
        ? [newest.at, newest.source, null]
        : pathId === undefined
          ? undefined
          : changed?.get(pathId);
      if (last) {
        const [at, source, place] = last;
        out.push({ path, value, source: placed(history.sourceOf(source), place), at: history.msOf(at) });
      } else if (!mineFromTheStart) out.push({ path, value, source: origin.source, at: origin.at });
    }
    visit(localId, out);
  }
}
