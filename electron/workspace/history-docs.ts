import type Database from 'better-sqlite3';
import type { DocumentRef } from './change-recorder';

/** What resolving a history document needs of the connection (the store's statement cache). */
interface Sql {
  sql(text: string): Database.Statement;
}

/**
 * Which document a `cell_history.doc` means (issue 31's keypress). A document registered with an
 * origin (an import's or the analyst's new document, a meter, a reading, a response, an asset
 * that existed before this step) has a `cell_docs` row and a positive id. An asset first seen by
 * a change, the commonest case (a pulled asset's first edit), has none: its history's id is its
 * own row's rowid less 2^31 (`rowDocBase`), so its first edit writes no `cell_docs` row and key
 * (4 of its 14 pages) and looks nothing up but its own row. An asset's `cell_docs` row, when it
 * has one, wins (one read first).
 *
 * `assets` has no INTEGER PRIMARY KEY, so SQLite gives a new row max(rowid) + 1: the rowid of a
 * deleted last row comes back. A deleted asset's history therefore moves to a `cell_docs` row of
 * its own first (the trigger `assets_history_kept`, history-schema.ts), so a new asset never
 * inherits it. For the same reason the file must never be VACUUMed (which may renumber such
 * rowids); nothing here does.
 */
export function historyDocOf(db: Sql, ref: DocumentRef): number | undefined {
  const row = db.sql('SELECT id FROM cell_docs WHERE kind = ? AND ref = ?').get(ref.kind, ref.id) as
    { id: number } | undefined;
  if (row) return row.id;
  return ref.kind === 'asset' ? assetRowDoc(db, ref.id) : undefined;
}

/**
 * An asset row's history id: its rowid less 2^31, negative for every rowid below 2^31 (a row past
 * that, never seen, gets a `cell_docs` row instead). Not `-rowid`: a pull's assets are edited in
 * rowid order, and ids that grow with it append to the history's index (`doc` first) where
 * falling ones split its pages half full (71 against 63 bytes a changed cell on the pull bench);
 * 4 bytes a row where a `cell_docs` id takes 2 or 3, against that row and key not written at all.
 */
export const rowDocBase = 2_147_483_648;

/** `rowDocBase` in SQL: the history id of the row whose rowid is `column` (valid below 2^31). */
export const rowDocSql = (column: string): string => `(${column} - ${rowDocBase})`;

/** An asset's history id from its own row (`rowDocBase`), without its `cell_docs` row (see above). */
export function assetRowDoc(db: Sql, localId: string): number | undefined {
  const row = db.sql('SELECT rowid AS n FROM assets WHERE local_id = ?').get(localId) as
    { n: number } | undefined;
  return row && row.n < rowDocBase ? row.n - rowDocBase : undefined;
}

/** A document's history id with its `cell_docs` origin (an asset's own row's: origin unrecorded). */
export function historyDocRow(
  db: Sql,
  ref: DocumentRef,
): { id: number; origin_at: number; origin_source: number } | undefined {
  const registered = db
    .sql('SELECT id, origin_at, origin_source FROM cell_docs WHERE kind = ? AND ref = ?')
    .get(ref.kind, ref.id) as { id: number; origin_at: number; origin_source: number } | undefined;
  if (registered || ref.kind !== 'asset') return registered;
  const id = assetRowDoc(db, ref.id);
  return id === undefined ? undefined : { id, origin_at: 0, origin_source: unrecordedOriginSource };
}

/**
 * Whether an asset (an undone delete's, arriving as new) already has history under its own row's
 * id: it goes on there, not under a new `cell_docs` row.
 */
export function hasRowHistory(db: Sql, ref: DocumentRef): boolean {
  if (ref.kind !== 'asset') return false;
  const doc = assetRowDoc(db, ref.id);
  return (
    doc !== undefined &&
    db.sql('SELECT 1 FROM cell_history WHERE doc = ? LIMIT 1').get(doc) !== undefined &&
    db.sql('SELECT 1 FROM cell_docs WHERE kind = ? AND ref = ?').get(ref.kind, ref.id) === undefined
  );
}

/** The document a history id means, if it is still there (an asset's row id: its asset). */
export function historyRefOf(db: Sql, doc: number): DocumentRef | undefined {
  if (doc < 0) {
    const row = db.sql('SELECT local_id FROM assets WHERE rowid = ?').get(doc + rowDocBase) as
      { local_id: string } | undefined;
    return row ? { kind: 'asset', id: row.local_id } : undefined;
  }
  const row = db.sql('SELECT kind, ref FROM cell_docs WHERE id = ?').get(doc) as
    { kind: DocumentRef['kind']; ref: string } | undefined;
  return row ? { kind: row.kind, id: row.ref } : undefined;
}

/**
 * A `cell_docs` row's origin source that says "not recorded: as for a document without a row"
 * (`CellHistory.unrecordedOrigin`): the row a deleted asset's history moved to (no source has id 0).
 */
export const unrecordedOriginSource = 0;
