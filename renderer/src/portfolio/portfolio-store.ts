/**
 * The portfolio model of the open workspace, kept up to date as assets change: each asset view that
 * is new or replaced goes in, each one gone comes out, so an edit recomputes one asset's share.
 */
import { areaUnitFromName } from '../../../shared/domain';
import { PortfolioModel } from '../../../shared/portfolio/portfolio-model';
import type { AssetView } from '../../../shared/sync/types';
import type { AssetTable } from '../store/asset-table';

let current: { key: string; model: PortfolioModel; seen: Map<string, AssetView> } | undefined;

/** The model for this workspace (connection, entity and area unit), updated to these assets. */
export function portfolioOf(workspaceKey: string, areaUnitsName: string, assets: AssetTable): PortfolioModel {
  if (current?.key !== workspaceKey) {
    current = {
      key: workspaceKey,
      model: new PortfolioModel({ areaUnit: areaUnitFromName(areaUnitsName) }),
      seen: new Map(),
    };
  }
  const { model, seen } = current;
  for (const [localId, view] of assets) {
    if (view.status === 'deleted') {
      if (seen.delete(localId)) model.delete(localId);
      continue;
    }
    if (seen.get(localId) === view) continue;
    seen.set(localId, view);
    model.set(localId, view.doc);
  }
  for (const localId of [...seen.keys()]) {
    if (!assets.has(localId)) {
      seen.delete(localId);
      model.delete(localId);
    }
  }
  return model;
}
