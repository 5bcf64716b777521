import {
  annualFieldByName,
  assetFieldCatalog,
  defaultCertificationSchemes,
  defaultEnergyRatingSchemes,
} from '../../shared/domain';
import { isIsoDate, toNumber } from './values';
import type {
  AnnualData,
  AnnualValue,
  Asset,
  AssetInput,
  AssetValidationResult,
  Certification,
  EnergyRating,
  InvalidAsset,
  Outlier,
  Validations,
} from '../../shared/domain';
import type { AssetDoc, StoredAsset, StoredValidations } from '../store';

/** Asset-level fields in response order, without the id (it comes first, from the row). */
export const assetDocFields: readonly string[] = assetFieldCatalog
  .map((d) => d.name)
  .filter((n) => n !== 'service_asset_id');
const assetFieldTypes = new Map(assetFieldCatalog.map((d) => [d.name, d.type]));

const certificationNames = new Map(defaultCertificationSchemes.map((s) => [s.id, s.name]));
const energyRatingNames = new Map(defaultEnergyRatingSchemes.map((s) => [s.id, s.name]));

export const cleanValidations = (): Validations => ({ errors: {} });

type ValueType = 'number' | 'integer' | 'boolean' | 'code' | 'date' | 'string';

/**
 * Stored values are typed. An `always_*` write keeps an asset whose values failed validation, and
 * like the service's typed columns, a value that cannot be read as its type is stored as null
 * instead of leaking `"abc"` into a numeric field of every later read.
 */
export function coerceValue(type: ValueType, v: unknown): AnnualValue {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'number': {
      const n = toNumber(v);
      return Number.isNaN(n) ? null : n;
    }
    case 'integer': {
      const n = toNumber(v);
      return Number.isInteger(n) ? n : null;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === '1' || v === 1) return true;
      if (v === 'false' || v === '0' || v === 0) return false;
      return null;
    case 'date':
      return typeof v === 'string' && isIsoDate(v) ? v : null;
    case 'code':
    case 'string':
      if (typeof v === 'string') return v.trim() === '' ? null : v;
      if (typeof v === 'number') return String(v);
      return null;
  }
}

function asRecords(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v)
    ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    : [];
}

export function isDestroyFlag(v: unknown): boolean {
  return v === true || v === '1' || v === 1 || v === 'true';
}

/** Normalises ids and years sent as numeric strings, so merging matches them to stored records. */
export function normalizeKeys(input: AssetInput): AssetInput {
  const out: AssetInput = { ...input };
  // Copies only the records that change: a batch carries tens of thousands of annual records.
  const fix = (records: unknown, key: string): Record<string, unknown>[] =>
    asRecords(records).map((r) => {
      const v = r[key];
      if (typeof v !== 'string') return r;
      const n = toNumber(v);
      return Number.isInteger(n) ? { ...r, [key]: n } : r;
    });
  if (Array.isArray(input.annual_data)) out.annual_data = fix(input.annual_data, 'year');
  if (Array.isArray(input.certifications)) out.certifications = fix(input.certifications, 'id');
  if (Array.isArray(input.energy_ratings)) out.energy_ratings = fix(input.energy_ratings, 'id');
  return out;
}

/**
 * Nested records that name an `id` the asset does not have. The service rejects ids it does not
 * know; the shared merge would otherwise keep them as new records carrying a foreign id.
 */
export function unknownNestedIds(
  merged: AssetInput,
  existing: { certifications: readonly number[]; energyRatings: readonly number[] },
  result: AssetValidationResult,
): void {
  const flag = (records: unknown, known: readonly number[], into: Validations[]): void => {
    asRecords(records).forEach((r, i) => {
      const id = r['id'];
      if (id === undefined || id === null || (typeof id === 'number' && known.includes(id))) return;
      const v = into[i] ?? cleanValidations();
      v.errors['id'] = [...(v.errors['id'] ?? []), 'does not exist on this asset'];
      into[i] = v;
    });
  };
  flag(merged.certifications, existing.certifications, result.certifications);
  flag(merged.energy_ratings, existing.energyRatings, result.energyRatings);
}

/** Records that `_destroy` without a matching id have nothing to remove and are dropped. */
export function dropDestroyed(input: AssetInput): AssetInput {
  const out: AssetInput = { ...input };
  if (Array.isArray(input.certifications))
    out.certifications = asRecords(input.certifications).filter((r) => !isDestroyFlag(r['_destroy']));
  if (Array.isArray(input.energy_ratings))
    out.energy_ratings = asRecords(input.energy_ratings).filter((r) => !isDestroyFlag(r['_destroy']));
  return out;
}

type IdAllocator = (sequence: 'certification' | 'energy_rating') => number;

/**
 * The typed, persisted form of a (merged, validated) input, with validations re-indexed to the
 * arrays that survive: annual records without a usable year cannot be stored and are dropped.
 * New nested records get their ids here, so the response shows the ids a later PATCH must send.
 */
export function toDoc(
  input: AssetInput,
  result: AssetValidationResult,
  allocate: IdAllocator,
): { doc: AssetDoc; validations: StoredValidations } {
  const doc: Record<string, unknown> = {};
  for (const f of assetDocFields) {
    const v = f === 'size' && input.size === undefined ? input.asset_size : input[f];
    doc[f] = coerceValue((assetFieldTypes.get(f) ?? 'string') as ValueType, v);
  }

  // Records travel with their validations so sorting by year keeps them aligned.
  const annualPairs: { rec: AnnualData; v: Validations }[] = [];
  const seenYears = new Set<number>();
  asRecords(input.annual_data).forEach((rec, i) => {
    const year = coerceValue('integer', rec['year']);
    if (typeof year !== 'number' || seenYears.has(year)) return;
    seenYears.add(year);
    const out: AnnualData = { year };
    for (const k in rec) {
      const def = annualFieldByName.get(k);
      if (!def) continue;
      const v = rec[k];
      // Fast path: a number where a number belongs needs no coercion.
      const value =
        typeof v === 'number' && def.type === 'number' && Number.isFinite(v) ? v : coerceValue(def.type, v);
      if (value !== null) out[k] = value;
    }
    annualPairs.push({ rec: out, v: result.annualData[i] ?? cleanValidations() });
  });
  annualPairs.sort((x, y) => x.rec.year - y.rec.year);

  const certs: Certification[] = [];
  const certV: Validations[] = [];
  asRecords(input.certifications).forEach((rec, i) => {
    if (isDestroyFlag(rec['_destroy'])) return;
    const certificationId = coerceValue('integer', rec['certification_id']) as number | null;
    const id = coerceValue('integer', rec['id']) as number | null;
    certs.push({
      id: id ?? allocate('certification'),
      certification_id: certificationId,
      name: certificationId === null ? null : (certificationNames.get(certificationId) ?? null),
      level: coerceValue('string', rec['level']) as string | null,
      size: coerceValue('number', rec['size']) as number | null,
      year: coerceValue('integer', rec['year']) as number | null,
      energy_rating_id: coerceValue('integer', rec['energy_rating_id']) as number | null,
    });
    certV.push(result.certifications[i] ?? cleanValidations());
  });

  const ratings: EnergyRating[] = [];
  const ratingV: Validations[] = [];
  asRecords(input.energy_ratings).forEach((rec, i) => {
    if (isDestroyFlag(rec['_destroy'])) return;
    const ratingId = coerceValue('integer', rec['energy_rating_id']) as number | null;
    const id = coerceValue('integer', rec['id']) as number | null;
    ratings.push({
      id: id ?? allocate('energy_rating'),
      energy_rating_id: ratingId,
      name: ratingId === null ? null : (energyRatingNames.get(ratingId) ?? null),
      level: coerceValue('string', rec['level']) as string | null,
      size: coerceValue('number', rec['size']) as number | null,
    });
    ratingV.push(result.energyRatings[i] ?? cleanValidations());
  });

  doc['certifications'] = certs;
  doc['energy_ratings'] = ratings;
  doc['annual_data'] = annualPairs.map((p) => p.rec);
  return {
    doc: doc as AssetDoc,
    validations: {
      asset: result.asset,
      annualData: annualPairs.map((p) => p.v),
      certifications: certV,
      energyRatings: ratingV,
    },
  };
}

/** The stored asset as the plain `Asset` (no `_validations`), as the rules and outlier maths read it. */
export function storedToAsset(s: StoredAsset): Asset {
  return {
    service_asset_id: s.id,
    ...s.doc,
    _outliers: s.outliers,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export interface ResourceOptions {
  /** `_validations` on the asset and its annual records. */
  validations: boolean;
  /** `_validations` on certification and energy-rating entries (absent in GET of one asset). */
  nestedValidations: boolean;
}

/**
 * The API's Asset: every field present (null when unset), in a stable order.
 * Takes ownership of `s`: nested records are reused in the response rather than copied (a batch
 * answer holds tens of thousands), so call it once per StoredAsset and do not reuse `s` after.
 */
export function assetResource(s: StoredAsset, opts: ResourceOptions): Asset {
  const doc = s.doc as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { service_asset_id: s.id };
  for (const f of assetDocFields) out[f] = doc[f] ?? null;
  const v = s.validations;
  const withV = <T extends object>(records: readonly T[], vs: readonly Validations[], on: boolean): T[] =>
    records.map((r, i) => {
      if (!on) {
        delete (r as Record<string, unknown>)['_validations'];
        return r;
      }
      (r as Record<string, unknown>)['_validations'] = vs[i] ?? cleanValidations();
      return r;
    });
  out['certifications'] = withV(s.doc.certifications, v.certifications, opts.nestedValidations);
  out['energy_ratings'] = withV(s.doc.energy_ratings ?? [], v.energyRatings, opts.nestedValidations);
  out['annual_data'] = withV(s.doc.annual_data, v.annualData, opts.validations);
  out['asset_size'] = decimalString(doc['size']);
  out['_outliers'] = s.outliers;
  out['created_at'] = s.createdAt;
  out['updated_at'] = s.updatedAt;
  if (opts.validations) out['_validations'] = v.asset;
  return out as Asset;
}

/** The service echoes `size` as `asset_size`, a Rails decimal string ("6000.0"). */
function decimalString(size: unknown): string | null {
  if (typeof size !== 'number' || !Number.isFinite(size)) return null;
  return Number.isInteger(size) ? `${size}.0` : String(size);
}

/**
 * DELETE's answer: the last snapshot, with `annual_data` and `certifications` emptied (the spec).
 * A batch's `deleted` items also carry the asset's `_validations` (the docs' batch example).
 */
export function deletedResource(s: StoredAsset, opts: { validations?: boolean } = {}): Asset {
  const r = assetResource(s, { validations: opts.validations ?? false, nestedValidations: false });
  return { ...r, annual_data: [], certifications: [], energy_ratings: [] };
}

/**
 * What a rejected write answers with: every asset field of the (merged) input, nested records as
 * sent, and `_validations` at every level, indexed as validated.
 */
export function invalidResource(
  input: AssetInput,
  result: AssetValidationResult,
  meta: { id: number | null; createdAt: string | null; updatedAt: string | null; outliers?: Outlier[] },
): InvalidAsset {
  const out: Record<string, unknown> = { service_asset_id: meta.id };
  for (const f of assetDocFields) out[f] = input[f] ?? null;
  const nested = (records: unknown, vs: Validations[]): Record<string, unknown>[] =>
    asRecords(records).map((r, i) => ({ ...r, _validations: vs[i] ?? cleanValidations() }));
  out['certifications'] = nested(input.certifications, result.certifications);
  out['energy_ratings'] = nested(input.energy_ratings, result.energyRatings);
  out['annual_data'] = nested(input.annual_data, result.annualData);
  out['_outliers'] = meta.outliers ?? [];
  out['created_at'] = meta.createdAt;
  out['updated_at'] = meta.updatedAt;
  out['_validations'] = result.asset;
  return out as InvalidAsset;
}
