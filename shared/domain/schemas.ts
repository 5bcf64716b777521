/**
 * zod schemas for every body the app exchanges, and `ParseResult` parsers over them.
 *
 * Request-side schemas (`assetInputSchema`, `batchRequestSchema`, ...) reject only broken structure:
 * not an object, or an array field that is not an array of objects. Field values stay `unknown` so the
 * rules can answer with the service's messages (`asset_size: ["is not a number"]`).
 *
 * Response-side schemas (`assetSchema`, `entitySchema`, ...) are typed but forgiving where Rails-style
 * services are known to vary: decimals may arrive as strings, optional fields may be missing.
 */
import { z } from 'zod';
import { withLocalIdName } from '../sync/asset-id-name';
import type {
  AnnualData,
  AnnualValue,
  Asset,
  AssetInput,
  BatchRequest,
  BatchResponse,
  Certification,
  CertificationScheme,
  CodeList,
  CodeListSummary,
  EnergyRating,
  EnergyRatingScheme,
  Entity,
  InvalidAsset,
  Outlier,
  ParseResult,
  ReportingPreferences,
  ValidationRequest,
  ValidationResponse,
  Validations,
} from './types';

export const BATCH_MAX_PER_FIELD = 5000;

const fieldMessagesSchema = z.record(z.string(), z.array(z.string()));

export const validationsSchema: z.ZodType<Validations> = z.object({
  errors: fieldMessagesSchema,
  warnings: fieldMessagesSchema.optional(),
});

// ---- request side -------------------------------------------------------------------------------

const looseRecord = z.looseObject({});
/** null is accepted for nested arrays because PATCH clears values with explicit nulls. */
const looseRecordArray = z.array(looseRecord).nullish();

export const certificationInputSchema = looseRecord;
export const energyRatingInputSchema = looseRecord;
export const annualDataInputSchema = looseRecord;

export const assetInputSchema: z.ZodType<AssetInput> = z.looseObject({
  certifications: looseRecordArray,
  energy_ratings: looseRecordArray,
  annual_data: looseRecordArray,
});

const assetInputArray = z.array(assetInputSchema).max(BATCH_MAX_PER_FIELD);

export const batchRequestSchema: z.ZodType<BatchRequest> = z.looseObject({
  create: assetInputArray.optional(),
  always_create: assetInputArray.optional(),
  update: assetInputArray.optional(),
  always_update: assetInputArray.optional(),
  delete: z.array(looseRecord).max(BATCH_MAX_PER_FIELD).optional(),
});

export const validationRequestSchema: z.ZodType<ValidationRequest> = z.looseObject({
  create: assetInputArray.optional(),
  update: assetInputArray.optional(),
});

// ---- response side ------------------------------------------------------------------------------

/** Rails serialises decimals as strings ("6000.0"); accept both and hand the app a number. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
    .transform(Number),
]);
/** Integers, also when they come as "1800" or 1800.0. */
const integer = numeric.pipe(z.number().int());
const nullableNumeric = numeric.nullable().optional();
const nullableInt = integer.nullable().optional();
const nullableString = z.string().nullable().optional();
/** Ids of records the service created: an integer, tolerated as a numeric string. */
const recordId = integer.nullable().default(null);

export const reportingPreferencesSchema: z.ZodType<ReportingPreferences> = z.object({
  currency: z.string(),
  area_units_name: z.string(),
  reporting_period: z.string(),
  reporting_period_month: z.number().int(),
  reporting_period_month_name: z.string(),
});

export const entitySchema: z.ZodType<Entity> = z.object({
  id: z.number().int(),
  name: z.string(),
  manager: z.string().nullable().default(null),
  hq_country_code: z.string().nullable().default(null),
  hq_country_name: z.string().nullable().default(null),
  address: z.string().nullable().default(null),
  reporting_preferences: reportingPreferencesSchema,
  created_at: z.string().nullable().default(null),
  updated_at: z.string().nullable().default(null),
});

export const outlierSchema: z.ZodType<Outlier> = z.object({
  kpi: z.enum(['en', 'ghg', 'was', 'wat']),
  type: z.enum(['lfl', 'intensity']),
  accepted: z.boolean(),
  value: z.union([z.string(), z.number().transform(String)]),
});

/*
 * Entries and assets are loose objects: a field the app does not know is kept as the service sent
 * it (shown read-only, never dropped), so a new field on the service never fails a page.
 */
const certificationObjectSchema = z.looseObject({
  id: recordId,
  certification_id: recordId,
  name: nullableString,
  level: z.string().nullable().default(null),
  size: numeric.nullable().default(null),
  year: integer.nullable().default(null),
  energy_rating_id: nullableInt,
  _validations: validationsSchema.optional(),
});
export const certificationSchema: z.ZodType<Certification> = certificationObjectSchema;

const energyRatingObjectSchema = z.looseObject({
  id: recordId,
  energy_rating_id: recordId,
  name: nullableString,
  level: nullableString,
  size: numeric.nullable().default(null),
  _validations: validationsSchema.optional(),
});
export const energyRatingSchema: z.ZodType<EnergyRating> = energyRatingObjectSchema;

/** Catalog fields are scalars; anything else the service sends in a record is kept as JSON. */
const annualValue = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const annualDataSchema: z.ZodType<AnnualData> = z
  .object({ year: integer, _validations: validationsSchema.optional() })
  .catchall(z.union([annualValue, z.json()]).transform((v) => v as AnnualValue));

const assetObjectSchema = z.looseObject({
  service_asset_id: integer.nullable().default(null),
  partners_id: z.union([z.number(), z.string()]).nullable().optional(),
  name: z.string().nullable().default(null),
  country: z.string().nullable().default(null),
  state_province: z.string().nullable().default(null),
  city: z.string().nullable().default(null),
  address: nullableString,
  lat: nullableNumeric,
  lng: nullableNumeric,
  construction_year: nullableInt,
  ownership: numeric.nullable().default(null),
  ownership_from: nullableString,
  ownership_to: nullableString,
  property_type_code: nullableString,
  gav: nullableNumeric,
  size: numeric.nullable().default(null),
  asset_size: z.union([z.number(), z.string()]).nullable().optional(),
  certifications: z.array(certificationSchema).default([]),
  energy_ratings: z.array(energyRatingSchema).optional(),
  annual_data: z.array(annualDataSchema).default([]),
  _outliers: z.array(outlierSchema).default([]),
  created_at: z.string().nullable().default(null),
  updated_at: z.string().nullable().default(null),
  _validations: validationsSchema.optional(),
});

/** Each loose schema's own keys in its order (a fast reader of the usual answers builds the same objects). */
export const schemaKeys = {
  asset: Object.keys(assetObjectSchema.shape),
  certification: Object.keys(certificationObjectSchema.shape),
  energyRating: Object.keys(energyRatingObjectSchema.shape),
};

/**
 * Older answers named some fields differently (`asset_ownership`, `asset_size` without `size`, the
 * name and property type inside each annual record). Where our field is missing, it is read from
 * the older one; the older field itself is kept as the service sent it.
 */
export const assetSchema: z.ZodType<Asset> = z.preprocess(
  // The real service names the id `gresb_asset_id`: read under our name (shared/sync/asset-id-name.ts).
  withLocalIdName,
  assetObjectSchema.transform((asset) => {
    const out = { ...asset };
    const loose = asset as Record<string, unknown>;
    const latest = [...asset.annual_data].sort((a, b) => b.year - a.year)[0] as
      Record<string, unknown> | undefined;
    if (out.ownership === null) out.ownership = numericOrNull(loose['asset_ownership']);
    if (out.size === null) out.size = numericOrNull(asset.asset_size);
    if (out.name === null && typeof latest?.['asset_name'] === 'string') out.name = latest['asset_name'];
    if (out.property_type_code == null && typeof latest?.['property_type_code'] === 'string')
      out.property_type_code = latest['property_type_code'];
    return out;
  }),
);

function numericOrNull(value: unknown): number | null {
  const parsed = numeric.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const invalidAssetSchema: z.ZodType<InvalidAsset> = z.preprocess(
  withLocalIdName,
  z.looseObject({
    certifications: looseRecordArray,
    energy_ratings: looseRecordArray,
    annual_data: looseRecordArray,
    _validations: validationsSchema,
  }),
);

/** An asset an answer names as not found (by either name of its id). */
const notFoundAssetSchema: z.ZodType<AssetInput> = z.preprocess(withLocalIdName, assetInputSchema);

const count = z.number().int().nonnegative();

export const batchResponseSchema: z.ZodType<BatchResponse> = z.object({
  created: z.array(assetSchema).default([]),
  always_created: z.array(assetSchema).default([]),
  updated: z.array(assetSchema).default([]),
  always_updated: z.array(assetSchema).default([]),
  deleted: z.array(assetSchema).default([]),
  invalid: z.array(invalidAssetSchema).default([]),
  not_found: z.array(notFoundAssetSchema).default([]),
  counts: z.object({
    created: count,
    always_created: count,
    updated: count,
    always_updated: count,
    deleted: count,
    invalid: count,
    not_found: count,
  }),
});

export const validationResponseSchema: z.ZodType<ValidationResponse> = z.object({
  valid: z.array(assetSchema).default([]),
  invalid: z.array(invalidAssetSchema).default([]),
  not_found: z.array(notFoundAssetSchema).default([]),
  counts: z.object({ valid: count, invalid: count, not_found: count }),
});

export const certificationSchemeSchema: z.ZodType<CertificationScheme> = z.object({
  id: integer,
  name: z.string(),
  levels: z
    .array(z.string())
    .nullable()
    .default([])
    .transform((l) => l ?? []),
  country: nullableString,
  status: nullableString,
});

export const energyRatingSchemeSchema: z.ZodType<EnergyRatingScheme> = z.object({
  id: integer,
  name: z.string(),
  levels: z
    .array(z.string())
    .nullable()
    .default([])
    .transform((l) => l ?? []),
});

export const codeListSummarySchema: z.ZodType<CodeListSummary> = z.object({
  slug: z.string(),
  name: z.string(),
  updated_at: nullableString,
});

/** `{label, value}` as the docs show; a numeric value is taken as its text. */
const listItemSchema = z.object({
  label: z.string(),
  value: z.union([z.string(), z.number().transform(String)]),
});

export const codeListSchema: z.ZodType<CodeList> = z
  .object({
    slug: z.string(),
    name: z.string().optional(),
    updated_at: nullableString,
    items: z.array(listItemSchema),
  })
  .transform((list) => ({ ...list, name: list.name ?? list.slug }));

// ---- parsers ------------------------------------------------------------------------------------

function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}

/** Parse untrusted JSON against a schema; never throws. */
export function parseWith<T>(schema: z.ZodType<T>, json: unknown): ParseResult<T> {
  const r = schema.safeParse(json);
  return r.success ? { ok: true, value: r.data } : { ok: false, errors: formatIssues(r.error) };
}

export const parseAssetInput = (json: unknown): ParseResult<AssetInput> => parseWith(assetInputSchema, json);
export const parseAsset = (json: unknown): ParseResult<Asset> => parseWith(assetSchema, json);
export const parseAssetList = (json: unknown): ParseResult<Asset[]> => parseWith(z.array(assetSchema), json);
export const parseEntity = (json: unknown): ParseResult<Entity> => parseWith(entitySchema, json);
export const parseEntityList = (json: unknown): ParseResult<Entity[]> =>
  parseWith(z.array(entitySchema), json);
export const parseBatchRequest = (json: unknown): ParseResult<BatchRequest> =>
  parseWith(batchRequestSchema, json);
export const parseBatchResponse = (json: unknown): ParseResult<BatchResponse> =>
  parseWith(batchResponseSchema, json);
export const parseValidationRequest = (json: unknown): ParseResult<ValidationRequest> =>
  parseWith(validationRequestSchema, json);
export const parseValidationResponse = (json: unknown): ParseResult<ValidationResponse> =>
  parseWith(validationResponseSchema, json);
export const parseCertificationSchemes = (json: unknown): ParseResult<CertificationScheme[]> =>
  parseWith(z.array(certificationSchemeSchema), json);
export const parseEnergyRatingSchemes = (json: unknown): ParseResult<EnergyRatingScheme[]> =>
  parseWith(z.array(energyRatingSchemeSchema), json);
export const parseCodeList = (json: unknown): ParseResult<CodeList> => parseWith(codeListSchema, json);
