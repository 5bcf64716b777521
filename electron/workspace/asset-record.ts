import type { Outlier } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { ServerVerdict } from '../../shared/sync/types';

/** One asset of the workspace: the copy last seen on the service (`base`) and the analyst's (`current`). */
export interface AssetRecord {
  localId: string;
  serviceAssetId: number | null;
  partnersId: number | null;
  base: AssetDoc | null;
  current: AssetDoc | null;
  serverValidations: ServerVerdict | null;
  outliers: Outlier[];
  remoteDeleted: boolean;
  notFound: boolean;
  inFlight: string | null;
  updatedAt: number;
  /** The local copy is byte-for-byte the service's copy: nothing to diff (unset: not known). */
  inStep?: boolean;
}

/** A row of `assets` as SQLite hands it back: documents and verdicts as JSON text. */
export interface AssetRow {
  local_id: string;
  service_asset_id: number | null;
  partners_id: number | null;
  base: string | null;
  current: string | null;
  server_validations: string | null;
  outliers: string | null;
  remote_deleted: number;
  not_found: number;
  in_flight: string | null;
  updated_at: number;
}

/** The columns an `AssetRow` is read from (the stored `local` and `deleted` are behind `current`). */
export const assetColumns =
  'local_id, service_asset_id, partners_id, base, current, server_validations, outliers, remote_deleted, not_found, in_flight, updated_at';

/**
 * The row's local copy is the service's: no copy of its own and not deleted (a stored copy is never
 * the base, see localColumns), told from the flags without computing `current` or comparing texts.
 */
export const inStep = '(base IS NOT NULL AND local IS NULL AND deleted = 0)';

export const parseDoc = (text: string | null): AssetDoc | null =>
  text === null ? null : (JSON.parse(text) as AssetDoc);

/** An asset's documents parsed before from the very texts a row holds now (see `toRecord`). */
export interface ParsedDocs {
  base: AssetDoc | null;
  current: AssetDoc | null;
}

/**
 * The record of a row. A copy in step with the service's (the same text: most of a pulled
 * workspace) is parsed once and shared by `base` and `current`: documents are never changed in place
 * (every edit makes a new one, see `setPathValue`). `parsed`: the row's documents as parsed before
 * from the same texts (the sync's plan), taken instead of parsing them again.
 */
export function toRecord(row: AssetRow, parsed?: ParsedDocs): AssetRecord {
  const base = parsed ? parsed.base : parseDoc(row.base);
  return {
    localId: row.local_id,
    serviceAssetId: row.service_asset_id,
    partnersId: row.partners_id,
    base,
    current: parsed ? parsed.current : row.current === row.base ? base : parseDoc(row.current),
    serverValidations: row.server_validations ? (JSON.parse(row.server_validations) as ServerVerdict) : null,
    outliers: row.outliers ? (JSON.parse(row.outliers) as Outlier[]) : [],
    remoteDeleted: row.remote_deleted === 1,
    notFound: row.not_found === 1,
    inFlight: row.in_flight,
    updatedAt: row.updated_at,
    inStep: row.base !== null && row.base === row.current,
  };
}
