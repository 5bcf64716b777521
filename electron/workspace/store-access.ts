import type Database from 'better-sqlite3';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { AssetRecord } from './asset-record';

/**
 * What the store's parts (edits, merges) use of the store, so they share its statement cache, its
 * clock and its transactions rather than opening their own.
 */
export interface StoreAccess {
  sql(text: string): Database.Statement;
  now(): number;
  mustGet(localId: string): AssetRecord;
  transaction<T>(fn: () => T): T;
}

/**
 * Writes the analyst's copy, as edits and undo both do. The first write to an asset whose batch is
 * out keeps the copy that was sent (copy on write), so the answer can be merged under the edits;
 * SET expressions read the row as it was. A copy that is the base again is stored as no copy (see
 * `localColumns`).
 */
export function writeCurrent(store: StoreAccess, localId: string, doc: AssetDoc | null): void {
  store
    .sql(
      `UPDATE assets SET sent = CASE WHEN in_flight IS NOT NULL AND sent IS NULL THEN current ELSE sent END,
       local = NULLIF(?, base), deleted = ?, updated_at = ? WHERE local_id = ?`,
    )
    .run(doc === null ? null : JSON.stringify(doc), doc === null ? 1 : 0, store.now(), localId);
}

/**
 * The analyst's copy as the `assets` row stores it beside a new base: `local` only where it differs
 * from the base, `deleted` where it is gone (`current`, which every read uses, is computed from the
 * three; see the schema's fifth step in migrations.ts).
 */
export function localColumns(
  currentJson: string | null,
  baseJson: string | null,
): { local: string | null; deleted: 0 | 1 } {
  return { local: currentJson === baseJson ? null : currentJson, deleted: currentJson === null ? 1 : 0 };
}
