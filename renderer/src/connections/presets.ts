import type { AssetIdName, AssetIdNameState } from '../../../shared/sync/asset-id-name';
import type { ConnectionDraft } from './validate';

/**
 * The real service's connection as its docs give it (the API at api.gresb.com, OAuth applications
 * registered at portal.gresb.com). Added from this preset, the connection states the name the real
 * service gives the asset id, so its first request is named right before any answer shows it.
 */
export const realServicePreset: ConnectionDraft & { assetIdName: AssetIdName } = {
  name: 'GRESB',
  baseUrl: 'https://api.gresb.com',
  portalUrl: 'https://portal.gresb.com',
  authUrl: 'https://api.gresb.com',
  assetIdName: 'gresb_asset_id',
};

/** How the connection's details word the asset id's name and how the app knows it. */
export function describeAssetIdName({ name, source }: AssetIdNameState): string {
  const whose = name === 'gresb_asset_id' ? "the real service's name" : "our spec's stand-in name";
  const how =
    source === 'stated'
      ? 'stated for this connection'
      : source === 'learned'
        ? 'learned from its answers'
        : 'assumed until its answers show it';
  return `Asset id sent as ${name} (${whose}; ${how})`;
}
