/**
 * Resource types of the Submission Service (see shared/spec/submission-service.md).
 *
 * Two families on purpose:
 * - `Asset`, `Certification`, ... describe what the service returns: typed fields, nullable where the
 *   service may send null.
 * - `AssetInput`, `CertificationInput`, ... describe what a client sends. Their field values are
 *   `unknown` because a wrong type (`size: "abc"`) is a validation error the rules must report with the
 *   service's wording, not a parse failure.
 */

/** Field name to messages. `{}` when clean. */
export type FieldMessages = Record<string, string[]>;

/**
 * `_validations` as the spec shapes it. `warnings` is our addition: present only when there is at least
 * one warning, so a clean result is exactly `{ errors: {} }` as the spec shows. Warnings never block.
 */
export type Validations = {
  errors: FieldMessages;
  warnings?: FieldMessages;
};

/** The area unit the rules and outlier maths work in; see `areaUnitFromName` for the entity's names. */
export type AreaUnit = 'm2' | 'sqft';

export type ReportingPreferences = {
  currency: string;
  area_units_name: string;
  reporting_period: string;
  reporting_period_month: number;
  reporting_period_month_name: string;
};

export type Entity = {
  id: number;
  name: string;
  manager: string | null;
  hq_country_code: string | null;
  hq_country_name: string | null;
  address: string | null;
  reporting_preferences: ReportingPreferences;
  created_at: string | null;
  updated_at: string | null;
};

export type OutlierKpi = 'en' | 'ghg' | 'was' | 'wat';
export type OutlierType = 'lfl' | 'intensity';

export type Outlier = {
  kpi: OutlierKpi;
  type: OutlierType;
  accepted: boolean;
  /** Decimal as a string: the intensity, or for `lfl` the percent change from the previous year. */
  value: string;
};

export type Certification = {
  id: number | null;
  certification_id: number | null;
  name?: string | null;
  level: string | null;
  size: number | null;
  year: number | null;
  energy_rating_id?: number | null;
  _validations?: Validations;
};

/** Per-asset energy rating entry; same life cycle as a certification (id, `_destroy`). */
export type EnergyRating = {
  id: number | null;
  energy_rating_id: number | null;
  name?: string | null;
  level?: string | null;
  size: number | null;
  _validations?: Validations;
};

/** Values an annual field may hold once it is well typed. */
export type AnnualValue = number | string | boolean | null;

/** One element of `annual_data`. Field names come from `annualFieldCatalog`. */
export type AnnualData = {
  year: number;
  _validations?: Validations;
  [field: string]: AnnualValue | Validations | undefined;
};

/**
 * An asset as the service returns it. Fields the app does not know are kept at run time as they
 * came (the schema is loose), shown read-only and never dropped; `extraFields` lists them.
 */
export type Asset = {
  service_asset_id: number | null;
  /** An integer now; older answers sent strings ("USGOV_DC456123G"). Kept as the service sent it. */
  partners_id?: number | string | null;
  name: string | null;
  country: string | null;
  state_province: string | null;
  city: string | null;
  address?: string | null;
  lat?: number | null;
  lng?: number | null;
  construction_year?: number | null;
  ownership: number | null;
  ownership_from?: string | null;
  ownership_to?: string | null;
  property_type_code?: string | null;
  gav?: number | null;
  size: number | null;
  /** Seen in responses beside `size`, sometimes as a string. */
  asset_size?: number | string | null;
  certifications: Certification[];
  energy_ratings?: EnergyRating[];
  annual_data: AnnualData[];
  _outliers: Outlier[];
  created_at: string | null;
  updated_at: string | null;
  _validations?: Validations;
};

export type CertificationInput = {
  id?: unknown;
  certification_id?: unknown;
  level?: unknown;
  size?: unknown;
  year?: unknown;
  energy_rating_id?: unknown;
  /** `"1"` (or true) removes the record with this `id`. */
  _destroy?: unknown;
  [field: string]: unknown;
};

export type EnergyRatingInput = {
  id?: unknown;
  energy_rating_id?: unknown;
  level?: unknown;
  size?: unknown;
  _destroy?: unknown;
  [field: string]: unknown;
};

export type AnnualDataInput = {
  year?: unknown;
  [field: string]: unknown;
};

/**
 * What a client sends on create or update: every field optional, values untyped until the rules check
 * them. An `Asset` is assignable to it, so a stored asset can be revalidated as is.
 */
export type AssetInput = {
  service_asset_id?: unknown;
  partners_id?: unknown;
  name?: unknown;
  country?: unknown;
  state_province?: unknown;
  city?: unknown;
  address?: unknown;
  lat?: unknown;
  lng?: unknown;
  construction_year?: unknown;
  ownership?: unknown;
  ownership_from?: unknown;
  ownership_to?: unknown;
  property_type_code?: unknown;
  gav?: unknown;
  size?: unknown;
  asset_size?: unknown;
  certifications?: CertificationInput[] | null;
  energy_ratings?: EnergyRatingInput[] | null;
  annual_data?: AnnualDataInput[] | null;
  [field: string]: unknown;
};

/** An element of `invalid`: what was sent, with `_validations` at the three levels. */
export type InvalidAsset = AssetInput & { _validations: Validations };

/** Result of `validateAsset`: the three spec levels plus energy ratings, indexed like the asset's arrays. */
export type AssetValidationResult = {
  asset: Validations;
  annualData: Validations[];
  certifications: Validations[];
  energyRatings: Validations[];
};

export type BatchRequest = {
  create?: AssetInput[];
  always_create?: AssetInput[];
  update?: AssetInput[];
  always_update?: AssetInput[];
  delete?: { service_asset_id?: unknown; [field: string]: unknown }[];
};

export type BatchCounts = {
  created: number;
  always_created: number;
  updated: number;
  always_updated: number;
  deleted: number;
  invalid: number;
  not_found: number;
};

export type BatchResponse = {
  created: Asset[];
  always_created: Asset[];
  updated: Asset[];
  always_updated: Asset[];
  deleted: Asset[];
  invalid: InvalidAsset[];
  not_found: AssetInput[];
  counts: BatchCounts;
};

export type ValidationRequest = {
  create?: AssetInput[];
  update?: AssetInput[];
};

export type ValidationCounts = { valid: number; invalid: number; not_found: number };

export type ValidationResponse = {
  valid: Asset[];
  invalid: InvalidAsset[];
  not_found: AssetInput[];
  counts: ValidationCounts;
};

export type OAuthTokenResponse = {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  created_at?: number;
  refresh_token?: string;
};

export type TokenInfoResponse = {
  resource_owner_id: number;
  scope: string[];
  expires_in: number;
  application: { uid: string };
  created_at: number;
};

export type PageLinks = { first?: string; prev?: string; next?: string; last?: string };

/** Pagination of GET /entities/{id}/assets, read from the `per-page`, `total` and `link` headers. */
export type PageMeta = {
  page: number;
  perPage: number;
  total: number;
  links: PageLinks;
};

/** Item of GET /certifications. `levels` empty when the scheme has none (then `level` may be null). */
export type CertificationScheme = {
  id: number;
  name: string;
  levels: string[];
  /** The scheme's country (ISO 3166) when it is national; absent for international schemes. */
  country?: string | null;
  /** Which assets it applies to, as the service says: `operational`, `design` or `both`. */
  status?: string | null;
};

/** Item of GET /energy_ratings; modelled like certifications (EPC with levels A..G). */
export type EnergyRatingScheme = { id: number; name: string; levels: string[] };

/** An item of a v0 list as the service serves it: `{label, value}` (`value` is the code sent). */
export type ListItem = { value: string; label: string };

/** GET /api/v0/lists/:slug. GET /api/v0/lists returns the summaries without `items`. */
export type CodeList = { slug: string; name: string; updated_at?: string | null; items: ListItem[] };
export type CodeListSummary = { slug: string; name: string; updated_at?: string | null };

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };
