import type { AssetInput, AssetValidationResult, FieldMessages, InvalidAsset, Validations } from './types';
import type { ValidationContext } from './context';
import { compileContext } from './context';
import { mergeAssetPatch } from './merge';
import { validateAssetFields, usableSize } from './rules/asset-rules';
import { validateAnnualRecord } from './rules/annual-rules';
import { isDestroyed, validateCertification, validateEnergyRating } from './rules/certification-rules';
import { isBlank } from './values';

function finish(errors: FieldMessages, warnings: FieldMessages): Validations {
  for (const _ in warnings) return { errors, warnings };
  return { errors };
}

const clean = (): Validations => ({ errors: {} });

/**
 * Validate one asset. Pure and independent of the rest of the workspace, which is what makes
 * incremental revalidation cheap: an edit revalidates only the edited asset.
 * In update mode with `ctx.existingAsset`, the patch is merged first (see `ValidationContext`).
 */
export function validateAsset(input: AssetInput, ctx: ValidationContext): AssetValidationResult {
  const cc = compileContext(ctx);
  const asset =
    ctx.mode === 'update' && ctx.existingAsset ? mergeAssetPatch(ctx.existingAsset, input) : input;

  const errors: FieldMessages = {};
  const warnings: FieldMessages = {};
  validateAssetFields(asset, cc, errors, warnings);
  const size = usableSize(asset);
  const ownershipDatesGiven = !isBlank(asset.ownership_from) || !isBlank(asset.ownership_to);

  const annual = Array.isArray(asset.annual_data) ? asset.annual_data : [];
  const annualResults: Validations[] = new Array<Validations>(annual.length);
  const seenYears = new Set<number>();
  for (let i = 0; i < annual.length; i++) {
    const rec = annual[i];
    const e: FieldMessages = {};
    const w: FieldMessages = {};
    if (rec !== null && typeof rec === 'object') {
      validateAnnualRecord(rec, cc, size, ownershipDatesGiven, seenYears, e, w);
    }
    annualResults[i] = finish(e, w);
  }

  const certs = Array.isArray(asset.certifications) ? asset.certifications : [];
  const certResults: Validations[] = new Array<Validations>(certs.length);
  const seenCerts = new Set<string>();
  for (let i = 0; i < certs.length; i++) {
    const rec = certs[i];
    if (rec === null || typeof rec !== 'object' || isDestroyed(rec)) {
      certResults[i] = clean();
      continue;
    }
    const e: FieldMessages = {};
    const w: FieldMessages = {};
    validateCertification(rec, cc, size, seenCerts, e, w);
    certResults[i] = finish(e, w);
  }

  const ratings = Array.isArray(asset.energy_ratings) ? asset.energy_ratings : [];
  const ratingResults: Validations[] = new Array<Validations>(ratings.length);
  for (let i = 0; i < ratings.length; i++) {
    const rec = ratings[i];
    if (rec === null || typeof rec !== 'object' || isDestroyed(rec)) {
      ratingResults[i] = clean();
      continue;
    }
    const e: FieldMessages = {};
    const w: FieldMessages = {};
    validateEnergyRating(rec, cc, size, e, w);
    ratingResults[i] = finish(e, w);
  }

  return {
    asset: finish(errors, warnings),
    annualData: annualResults,
    certifications: certResults,
    energyRatings: ratingResults,
  };
}

function anyKey(o: FieldMessages): boolean {
  for (const _ in o) return true;
  return false;
}

/** True when any level has an error. Warnings never count: they must not block a push. */
export function hasErrors(result: AssetValidationResult): boolean {
  if (anyKey(result.asset.errors)) return true;
  for (const v of result.annualData) if (anyKey(v.errors)) return true;
  for (const v of result.certifications) if (anyKey(v.errors)) return true;
  for (const v of result.energyRatings) if (anyKey(v.errors)) return true;
  return false;
}

export function hasWarnings(result: AssetValidationResult): boolean {
  const w = (v: Validations): boolean => v.warnings !== undefined && anyKey(v.warnings);
  return (
    w(result.asset) ||
    result.annualData.some(w) ||
    result.certifications.some(w) ||
    result.energyRatings.some(w)
  );
}

/**
 * Copy of `asset` with `_validations` set at every level, as the service's responses carry them.
 * The result's indexes must match the asset's arrays (validate the same object you annotate).
 */
export function withValidations<T extends AssetInput>(
  asset: T,
  result: AssetValidationResult,
): T & InvalidAsset {
  const out: T & InvalidAsset = { ...asset, _validations: result.asset };
  if (Array.isArray(asset.annual_data)) {
    out.annual_data = asset.annual_data.map((rec, i) => ({
      ...rec,
      _validations: result.annualData[i] ?? clean(),
    }));
  }
  if (Array.isArray(asset.certifications)) {
    out.certifications = asset.certifications.map((rec, i) => ({
      ...rec,
      _validations: result.certifications[i] ?? clean(),
    }));
  }
  if (Array.isArray(asset.energy_ratings)) {
    out.energy_ratings = asset.energy_ratings.map((rec, i) => ({
      ...rec,
      _validations: result.energyRatings[i] ?? clean(),
    }));
  }
  return out;
}

/**
 * Per-workspace cache for the renderer: results are keyed by asset key and reused while the asset
 * object is the same reference (the store replaces an asset object when it is edited), so after one
 * edit only that asset is revalidated.
 */
export class ValidationCache {
  private readonly entries = new Map<string, { asset: AssetInput; result: AssetValidationResult }>();
  private ctx: ValidationContext;

  constructor(ctx: ValidationContext) {
    this.ctx = ctx;
  }

  /** A new context (assessment year, lists, area unit) invalidates everything. */
  setContext(ctx: ValidationContext): void {
    this.ctx = ctx;
    this.entries.clear();
  }

  get(key: string, asset: AssetInput): AssetValidationResult {
    const hit = this.entries.get(key);
    if (hit && hit.asset === asset) return hit.result;
    const result = validateAsset(asset, this.ctx);
    this.entries.set(key, { asset, result });
    return result;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
