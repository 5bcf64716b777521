/**
 * A listed asset as the workspace takes it in: the analyst's document apart from what the service
 * owns, its outliers, and how its verdict reads. The pull's reader builds it straight from a page
 * (electron/service-client/fast-asset.ts, one object per asset); `listedOf` builds it from zod's.
 */
import type { Asset, Outlier } from '../domain';
import type { AssetDoc } from './asset-doc';
import { verdictKind, type VerdictKind } from './server-verdict';

export interface ListedAsset {
  id: Asset['service_asset_id'];
  partnersId: Asset['partners_id'];
  /** As `docFromRemote` makes it of zod's asset: the same keys, in the same order. */
  doc: AssetDoc;
  outliers: Outlier[];
  verdict: VerdictKind;
  /** The service's `updated_at` for the asset (null: it gave none): a pulled value's "updated 3 Mar 2026". */
  updatedAt: string | null;
  /** Zod's asset, for what needs all of it (a verdict with messages, an adoption). */
  asset(): Asset;
}

/** The service's asset reduced to the document the analyst edits (service-owned keys kept aside). */
export function docFromRemote(asset: Asset): AssetDoc {
  const { _validations: _v, _outliers: _o, created_at: _c, updated_at: _u, asset_size: _s, ...rest } = asset;
  const doc: AssetDoc = { ...rest };
  doc.annual_data = asset.annual_data.map(({ _validations: _av, ...entry }) => entry);
  doc.certifications = asset.certifications.map(({ _validations: _cv, ...entry }) => entry);
  if (asset.energy_ratings)
    doc.energy_ratings = asset.energy_ratings.map(({ _validations: _ev, ...entry }) => entry);
  return doc;
}

export function listedOf(asset: Asset): ListedAsset {
  return new ParsedListed(asset);
}

/**
 * A listed asset read from zod's (or the fast reader's) asset: a class, not an object with a closure
 * per asset (a batch answer settles 5,000 of them).
 */
class ParsedListed implements ListedAsset {
  readonly id: Asset['service_asset_id'];
  readonly partnersId: Asset['partners_id'];
  readonly doc: AssetDoc;
  readonly outliers: Outlier[];
  readonly verdict: VerdictKind;
  readonly updatedAt: string | null;

  constructor(private readonly parsed: Asset) {
    this.id = parsed.service_asset_id;
    this.partnersId = parsed.partners_id;
    this.doc = docFromRemote(parsed);
    this.outliers = parsed._outliers;
    this.verdict = verdictKind(parsed);
    this.updatedAt = parsed.updated_at;
  }

  asset(): Asset {
    return this.parsed;
  }
}
