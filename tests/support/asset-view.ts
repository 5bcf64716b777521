import { plainView } from '../../shared/bridge/asset-page';
import type { AssetView } from '../../shared/sync/types';

/** An asset view as main sends it, clean and with nothing staged unless the test says otherwise. */
export function assetView(localId: string, fields: Partial<Omit<AssetView, 'localId'>> = {}): AssetView {
  return { ...plainView([localId, null, null, 'clean', {}]), ...fields };
}
