import type { DocumentRef } from './change-recorder';
import { rowDocBase, rowDocSql } from './history-docs';
import { newestInTail } from './history-tail';
import type { SqlAccess } from './store-access';

/**
 * Each asked id's history document (`@ids`, a JSON array, of kind `@kind`): its `cell_docs` row,
 * else (an asset first seen by a change) its own row's id (`rowDocSql`, history-docs.ts).
 */
const docs = `(SELECT j.value AS ref, COALESCE(
    (SELECT c.id FROM cell_docs c WHERE c.kind = @kind AND c.ref = j.value),
    (SELECT ${rowDocSql('a.rowid')} FROM assets a WHERE @kind = 'asset' AND a.local_id = j.value AND a.rowid < ${rowDocBase})) AS id
  FROM json_each(@ids) j) d`;

/** Each asked cell's newest history row (exported for its plan's test). */
export const newestHandSql = `SELECT d.ref, h.path, h.hand, MAX(h.id) FROM ${docs} CROSS JOIN cell_history h ON h.doc = d.id GROUP BY h.doc, h.path`;

/**
 * The cells of the given documents of a kind whose value came from the analyst's hand, by
 * document id (one without such a cell is left out). Only the rows a grid draws are asked: a
 * workspace's every hand cell is millions of rows (issue 31's grid regression). A cell's newest
 * history row says it (`hand`, read from the index `cell_history_cell` alone); a cell without a
 * row is the analyst's if its document was made by hand (`cell_hand`). CROSS JOIN keeps the ids
 * the outer loop (left to itself, SQLite's planner scans every document of the kind instead).
 */
export function handCellsOf(
  db: Pick<SqlAccess, 'sql'>,
  kind: DocumentRef['kind'],
  ids: readonly string[],
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const args = { ids: JSON.stringify(ids), kind };
  // The bare `hand` is the newest row's, the one MAX(id) picks (SQLite's rule for a lone max()).
  const newest = db.sql(newestHandSql).all(args) as Array<{ ref: string; path: number; hand: number | null }>;
  const made = db
    .sql(
      `SELECT d.ref, m.path FROM ${docs} JOIN cell_hand m ON m.doc = d.id WHERE NOT EXISTS (SELECT 1 FROM cell_history h WHERE h.doc = m.doc AND h.path = m.path)`,
    )
    .all(args) as Array<{ ref: string; path: number }>;
  // The analyst's latest edits, not yet in the table (history-tail.ts), are each cell's newest.
  const tail =
    kind === 'asset' ? newestInTail(db, new Set(ids)) : new Map<string, Map<number, { hand: boolean }>>();
  const found = [...newest.filter((row) => row.hand === 1), ...made].filter(
    (row) => !tail.get(row.ref)?.has(row.path),
  );
  for (const [ref, cells] of tail) for (const [path, cell] of cells) if (cell.hand) found.push({ ref, path });
  if (found.length === 0) return out;
  const pathOf = new Map(
    (
      db
        .sql('SELECT id, path FROM cell_paths WHERE id IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify([...new Set(found.map((row) => row.path))])) as Array<{
        id: number;
        path: string;
      }>
    ).map((row) => [row.id, row.path]),
  );
  const pairs = found
    .map((row) => ({ ref: row.ref, path: pathOf.get(row.path) ?? '' }))
    .sort((a, b) => compare(a.ref, b.ref) || compare(a.path, b.path));
  for (const { ref, path } of pairs) {
    const list = out.get(ref);
    if (list) list.push(path);
    else out.set(ref, [path]);
  }
  return out;
}

/** Text order, as SQLite's ORDER BY on text (binary). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
