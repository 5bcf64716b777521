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

/** What the write path and its document kinds need of a connection: statements, the clock, transactions. */
export type SqlAccess = Pick<StoreAccess, 'sql' | 'now' | 'transaction'>;

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
