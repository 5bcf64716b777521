import type {
  AnnualDataInput,
  AssetInput,
  AssetValidationResult,
  FieldMessages,
  ValidationContext,
  Validations,
} from '../../../shared/domain';
import {
  defaultCertificationSchemes,
  defaultEnergyRatingSchemes,
  defaultPropertyTypeCodes,
} from '../../../shared/domain';

export const ASSESSMENT_YEAR = 2025;

export const createCtx: ValidationContext = {
  mode: 'create',
  assessmentYear: ASSESSMENT_YEAR,
  areaUnit: 'm2',
  certifications: defaultCertificationSchemes,
  energyRatings: defaultEnergyRatingSchemes,
  propertyTypes: defaultPropertyTypeCodes,
};

export const updateCtx: ValidationContext = { ...createCtx, mode: 'update' };

/** A complete, clean annual record for a 10,000 m2 office. */
export function validAnnual(year = 2024, extra: AnnualDataInput = {}): AnnualDataInput {
  return {
    year,
    tenant_ctrl: false,
    whole_building: true,
    owned_entire_period: true,
    asset_vacancy: 5,
    en_data_from: `${year}-01-01`,
    en_data_to: `${year}-12-31`,
    en_abs_we: 1_500_000,
    en_cov_we: 9000,
    en_tot_we: 10_000,
    ghg_abs_s1_w: 100,
    ghg_cov_s1_w: 9000,
    ghg_tot_s1_w: 10_000,
    wat_abs_w: 8000,
    wat_cov_w: 9000,
    wat_tot_w: 10_000,
    was_abs_nhaz: 50,
    was_pcov: 100,
    en_ren_ofs_claim: 'BUN',
    ...extra,
  };
}

export function validAsset(extra: AssetInput = {}): AssetInput {
  return {
    name: 'Herengracht 1',
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    address: 'Herengracht 1',
    ownership: 100,
    property_type_code: 'OCHI',
    construction_year: 1998,
    gav: 120,
    size: 10_000,
    certifications: [{ certification_id: 1, level: 'Excellent', size: 10_000, year: 2021 }],
    energy_ratings: [{ energy_rating_id: 1, level: 'B', size: 10_000 }],
    annual_data: [validAnnual(2024), validAnnual(2023)],
    ...extra,
  };
}

/** The whole expected result for `validAsset`-shaped input: clean except where given. */
export function expected(parts: {
  asset?: FieldMessages;
  assetWarnings?: FieldMessages;
  annual?: (FieldMessages | Validations)[];
  certs?: FieldMessages[];
  ratings?: FieldMessages[];
  annualCount?: number;
  certCount?: number;
  ratingCount?: number;
}): AssetValidationResult {
  const v = (e: FieldMessages | Validations | undefined): Validations =>
    e === undefined
      ? { errors: {} }
      : 'errors' in e && typeof e.errors === 'object' && !Array.isArray(e.errors)
        ? (e as Validations)
        : { errors: e as FieldMessages };
  const fill = <T>(given: T[] | undefined, count: number): (T | undefined)[] =>
    Array.from({ length: Math.max(count, given?.length ?? 0) }, (_, i) => given?.[i]);
  return {
    asset: parts.assetWarnings
      ? { errors: parts.asset ?? {}, warnings: parts.assetWarnings }
      : { errors: parts.asset ?? {} },
    annualData: fill(parts.annual, parts.annualCount ?? 2).map(v),
    certifications: fill(parts.certs, parts.certCount ?? 1).map(v),
    energyRatings: fill(parts.ratings, parts.ratingCount ?? 1).map(v),
  };
}
