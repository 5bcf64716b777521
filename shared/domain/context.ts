import type { Asset, AreaUnit, CertificationScheme, EnergyRatingScheme } from './types';
import { countryCodes } from './countries';

/**
 * What the rules need beyond the asset itself.
 *
 * Update mode and merging: when `existingAsset` is given, `validateAsset` merges the patch into it
 * (see `mergeAssetPatch`) and validates the merged asset; result indexes then refer to the merged
 * asset's arrays. A caller that already merged passes the merged asset and leaves `existingAsset` out.
 */
export type ValidationContext = {
  mode: 'create' | 'update';
  assessmentYear: number;
  areaUnit: AreaUnit;
  certifications: readonly CertificationScheme[];
  /** Defaults to no energy-rating list check when absent. */
  energyRatings?: readonly EnergyRatingScheme[];
  /** Property type codes. An empty list disables the check (lists not loaded yet). */
  propertyTypes: readonly string[];
  /** ISO 3166 alpha-2 codes; defaults to the built-in full list. */
  countries?: readonly string[];
  /**
   * Where the lists come from. `shipped`: the app's built-in snapshot, used while the service's own
   * lists could not be loaded; a value outside it is then a warning, never an error, since the
   * service's list may well hold it. Defaults to `service`.
   */
  listSource?: 'service' | 'shipped';
  existingAsset?: Asset;
  /** Year used for "not in the future" checks (construction, certification year); defaults to assessmentYear. */
  currentYear?: number;
  /** Names of the entity's other assets clash with this one (the service rejects duplicate names). */
  isNameTaken?: (name: string) => boolean;
  /**
   * The app's own checks beyond the service's rules (the sandbox leaves them out, as the service
   * does): a data period (`*_data_from`/`*_data_to`) outside its row's year is a warning.
   */
  appChecks?: boolean;
  /**
   * The month the entity's reporting year ends in (`reporting_preferences.reporting_period_month`;
   * 12, the calendar year, when absent): a row's year is the reporting year ending then.
   */
  reportingPeriodMonth?: number;
};

/** Lookup structures built once per context object, not once per asset. */
export type CompiledContext = {
  readonly ctx: ValidationContext;
  readonly certifications: ReadonlyMap<number, CertificationScheme>;
  readonly energyRatings: ReadonlyMap<number, EnergyRatingScheme> | null;
  readonly propertyTypes: ReadonlySet<string> | null;
  readonly countries: ReadonlySet<string>;
  /** Whether a value outside a list is an error (lists from the service) or a warning (shipped). */
  readonly listsAuthoritative: boolean;
  readonly minYear: number;
  readonly maxYear: number;
  readonly currentYear: number;
};

const defaultCountries = new Set(countryCodes);
const compiled = new WeakMap<ValidationContext, CompiledContext>();

/** The reporting years an assessment takes (the annual year rule's range; meters create no other). */
export function acceptedYears(assessmentYear: number): { min: number; max: number } {
  return { min: assessmentYear - 5, max: assessmentYear };
}

export function compileContext(ctx: ValidationContext): CompiledContext {
  const hit = compiled.get(ctx);
  if (hit) return hit;
  const years = acceptedYears(ctx.assessmentYear);
  const c: CompiledContext = {
    ctx,
    certifications: new Map(ctx.certifications.map((s) => [s.id, s])),
    energyRatings: ctx.energyRatings ? new Map(ctx.energyRatings.map((s) => [s.id, s])) : null,
    propertyTypes: ctx.propertyTypes.length > 0 ? new Set(ctx.propertyTypes) : null,
    countries: ctx.countries ? new Set(ctx.countries) : defaultCountries,
    listsAuthoritative: ctx.listSource !== 'shipped',
    minYear: years.min,
    maxYear: years.max,
    currentYear: ctx.currentYear ?? ctx.assessmentYear,
  };
  compiled.set(ctx, c);
  return c;
}

/** Map the entity's `reporting_preferences.area_units_name` to the unit the maths uses. */
export function areaUnitFromName(name: string | null | undefined): AreaUnit {
  const n = (name ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
  if (n.includes('feet') || n.includes('foot') || n.includes('sqft') || n === 'ft2' || n === 'sf')
    return 'sqft';
  return 'm2';
}

export const SQFT_TO_M2 = 0.09290304;
