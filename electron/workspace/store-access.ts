import type Database from 'better-sqlite3';
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
