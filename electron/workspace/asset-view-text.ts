import type { AssetPage, PlainView } from '../../shared/bridge/asset-page';
import { jsonText } from '../../shared/bridge/json-text';
import type { FieldConflict } from '../../shared/sync/asset-doc';
import type { AssetStatus, AssetView } from '../../shared/sync/types';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import { toRecord } from './asset-record';
import { toAssetView } from './asset-views';
import type { ViewRow } from './workspace-reads';
import type { WorkspaceStore } from './workspace-store';

/**
 * A later page of the snapshot (`workspace.assets`) as one JSON text of its views, written from the
 * rows' stored texts: the document, the service's verdict and the outliers go in as SQLite holds
 * them, unparsed. Parsing 5,000 documents here and writing them out again was two thirds of a
 * page's cost in main, and main's pages were what the window waited on for its last rows (issue 33;
 * the floor sends the stored texts as they are). Only an asset whose staged changes must be found
 * (a service's asset edited here) is parsed, and its view is `toAssetView`'s; every other view says
 * what `toAssetView` would (tests/electron/workspace/asset-view-text.test.ts holds them equal).
 */
export function assetViewPageText(
  store: WorkspaceStore,
  after: number,
  limit: number,
  idName?: AssetIdName,
  through?: number,
): AssetPage {
  const conflicts = store.conflictsByAsset();
  const { rows, last } = store.rowsForViews(after, limit, through);
  const parts = rows.map((row) => viewText(row, conflicts.get(row.local_id) ?? [], idName));
  return {
    views: jsonText<Array<AssetView | PlainView>>(`[${parts.join(',')}]`),
    next: limit > 0 && rows.length === limit ? last : null,
  };
}

/** One view's JSON: a `PlainView` when the asset has nothing to show but its copy. */
function viewText(row: ViewRow, conflicts: readonly FieldConflict[], idName?: AssetIdName): string {
  const status = plainStatus(row);
  if (status === null)
    return JSON.stringify(toAssetView({ ...toRecord(row), inStep: false }, conflicts, idName));
  const doc = row.current ?? row.base ?? '{}';
  // As `toRecord` reads them: an empty text is no verdict and no outliers.
  const verdict = row.server_validations || 'null';
  const outliers = row.outliers || '[]';
  const plain =
    conflicts.length === 0 &&
    row.remote_deleted === 0 &&
    row.not_found === 0 &&
    verdict === 'null' &&
    outliers === '[]';
  if (plain)
    return `[${JSON.stringify(row.local_id)},${row.service_asset_id},${row.partners_id},"${status}",${doc}]`;
  const lean: Omit<AssetView, 'doc' | 'serverValidations' | 'outliers'> = {
    localId: row.local_id,
    serviceAssetId: row.service_asset_id,
    partnersId: row.partners_id,
    status,
    changedPaths: [],
    conflicts: conflicts.map(({ path, base, mine, theirs }) => ({ path, base, mine, theirs })),
    remoteDeleted: row.remote_deleted === 1,
    notFound: row.not_found === 1,
  };
  return `{"doc":${doc},"serverValidations":${verdict},"outliers":${outliers},${JSON.stringify(lean).slice(1)}`;
}

/**
 * The status of an asset with no staged changes to find, told from its row alone, as `toAssetView`
 * tells it: its copy is the service's, it is new (all of it unsent), or it is deleted. Null: an
 * asset the service has, edited here, whose changes (and so its status) need both documents.
 */
function plainStatus(row: ViewRow): AssetStatus | null {
  if (row.current === null) return 'deleted';
  if (row.service_asset_id === null) return 'new';
  return row.in_step === 1 ? 'clean' : null;
}
