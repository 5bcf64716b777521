import type { AnnualDataInput, Asset, AssetInput, CertificationInput } from './types';

function isDestroy(v: unknown): boolean {
  return v === true || v === '1' || v === 1 || v === 'true';
}

/** Nested records are matched by `id`; `_destroy` removes; a record without `id` is new. */
function mergeById<T extends CertificationInput>(existing: readonly T[], patch: readonly T[]): T[] {
  const out: T[] = existing.slice();
  for (const p of patch) {
    if (p === null || typeof p !== 'object') continue;
    const id = p.id;
    const at = id === undefined || id === null ? -1 : out.findIndex((e) => e.id === id);
    if (isDestroy(p._destroy)) {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at >= 0) {
      const base = out[at];
      out[at] = { ...base, ...p } as T;
    } else {
      out.push(p);
    }
  }
  return out;
}

/** Annual records are matched by `year`: an existing year is updated, a new one created. */
function mergeAnnual(
  existing: readonly AnnualDataInput[],
  patch: readonly AnnualDataInput[],
): AnnualDataInput[] {
  const out = existing.slice();
  for (const p of patch) {
    if (p === null || typeof p !== 'object') continue;
    const at = out.findIndex((e) => e.year === p.year);
    if (at >= 0) out[at] = { ...out[at], ...p };
    else out.push(p);
  }
  return out;
}

/**
 * PATCH semantics: supplied fields replace stored ones, explicit null clears, absent fields stay.
 * The stored `service_asset_id` wins over one in the body.
 */
export function mergeAssetPatch(existing: Asset, patch: AssetInput): AssetInput {
  const merged: AssetInput = { ...existing, ...patch, service_asset_id: existing.service_asset_id };
  delete merged._validations;
  if (Array.isArray(patch.annual_data))
    merged.annual_data = mergeAnnual(existing.annual_data, patch.annual_data);
  else merged.annual_data = existing.annual_data;
  if (Array.isArray(patch.certifications)) {
    merged.certifications = mergeById<CertificationInput>(existing.certifications, patch.certifications);
  } else merged.certifications = existing.certifications;
  if (Array.isArray(patch.energy_ratings)) {
    merged.energy_ratings = mergeById<CertificationInput>(
      existing.energy_ratings ?? [],
      patch.energy_ratings,
    );
  } else if (existing.energy_ratings) merged.energy_ratings = existing.energy_ratings;
  return merged;
}
