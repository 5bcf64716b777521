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
 * SET expressions read the row as it was.
 */
export function writeCurrent(store: StoreAccess, localId: string, doc: AssetDoc | null): void {
  store
    .sql(
      `UPDATE assets SET sent = CASE WHEN in_flight IS NOT NULL AND sent IS NULL THEN current ELSE sent END,
       current = ?, updated_at = ? WHERE local_id = ?`,
    )
    .run(doc === null ? null : JSON.stringify(doc), store.now(), localId);
}
