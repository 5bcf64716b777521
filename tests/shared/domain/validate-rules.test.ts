import { describe, expect, it } from 'vitest';
import type { Asset, AssetInput, AssetValidationResult, ValidationContext } from '../../../shared/domain';
import { hasErrors, validateAsset } from '../../../shared/domain';
import { ASSESSMENT_YEAR, createCtx, expected, updateCtx, validAnnual, validAsset } from './fixtures';

type Case = {
  rule: string;
  valid: AssetInput;
  invalid: AssetInput;
  errors: AssetValidationResult;
  ctx?: ValidationContext;
};

const long = 'x'.repeat(256);
const annual0 = (extra: Record<string, unknown>): AssetInput =>
  validAsset({ annual_data: [validAnnual(2024, extra), validAnnual(2023)] });
const cert0 = (extra: Record<string, unknown>, more: Record<string, unknown>[] = []): AssetInput =>
  validAsset({
    certifications: [
      { certification_id: 1, level: 'Excellent', size: 10_000, year: 2021, ...extra },
      ...more,
    ],
  });
const rating0 = (extra: Record<string, unknown>): AssetInput =>
  validAsset({ energy_ratings: [{ energy_rating_id: 1, level: 'B', size: 10_000, ...extra }] });

const assetCases: Case[] = [
  {
    rule: 'required fields on create',
    valid: validAsset(),
    invalid: validAsset({
      name: undefined,
      country: '',
      state_province: null,
      city: '  ',
      ownership: undefined,
    }),
    errors: expected({
      asset: {
        name: ["can't be blank"],
        country: ["can't be blank"],
        state_province: ["can't be blank"],
        city: ["can't be blank"],
        ownership: ["can't be blank"],
      },
    }),
  },
  {
    rule: 'max length 255',
    valid: validAsset({ name: 'x'.repeat(255), address: 'y'.repeat(255) }),
    invalid: validAsset({ name: long, city: long, address: long }),
    errors: expected({
      asset: {
        name: ['is too long (maximum is 255 characters)'],
        city: ['is too long (maximum is 255 characters)'],
        address: ['is too long (maximum is 255 characters)'],
      },
    }),
  },
  {
    rule: 'strings must be strings',
    valid: validAsset({ state_province: 'Utrecht' }),
    invalid: validAsset({ state_province: 12 }),
    errors: expected({ asset: { state_province: ['must be a string'] } }),
  },
  {
    rule: 'ISO 3166 country',
    valid: validAsset({ country: 'GB' }),
    invalid: validAsset({ country: 'XX' }),
    errors: expected({ asset: { country: ['is not included in the list'] } }),
  },
  {
    rule: 'ISO dates, empty exempt',
    valid: validAsset({ ownership_from: '', ownership_to: null }),
    invalid: validAsset({ ownership_from: '2024-02-30', ownership_to: '01/03/2024' }),
    errors: expected({
      asset: {
        ownership_from: ['must be a valid date (YYYY-MM-DD)'],
        ownership_to: ['must be a valid date (YYYY-MM-DD)'],
      },
    }),
  },
  {
    rule: '_from not after _to',
    valid: validAsset({ ownership_from: '2024-03-01', ownership_to: '2024-03-01' }),
    invalid: validAsset({ ownership_from: '2024-06-01', ownership_to: '2024-03-01' }),
    errors: expected({ asset: { ownership_to: ['must be on or after ownership_from'] } }),
  },
  {
    rule: 'ownership 0..100',
    valid: validAsset({ ownership: 0 }),
    invalid: validAsset({ ownership: 100.5 }),
    errors: expected({ asset: { ownership: ['must be less than or equal to 100'] } }),
  },
  {
    rule: 'ownership not negative',
    valid: validAsset({ ownership: '55.5' }),
    invalid: validAsset({ ownership: -1 }),
    errors: expected({ asset: { ownership: ['must be greater than or equal to 0'] } }),
  },
  {
    rule: 'size is a number, reported as asset_size',
    valid: validAsset({ size: '10000' }),
    invalid: validAsset({ size: 'abc' }),
    errors: expected({ asset: { asset_size: ['is not a number'] } }),
  },
  {
    rule: 'size not negative',
    valid: validAsset({ size: 10_000.5 }),
    invalid: validAsset({ size: -5, annual_data: [], certifications: [], energy_ratings: [] }),
    errors: expected({
      asset: { asset_size: ['must be greater than or equal to 0'] },
      annualCount: 0,
      certCount: 0,
      ratingCount: 0,
    }),
  },
  {
    rule: 'gav a number, not negative',
    valid: validAsset({ gav: 0 }),
    invalid: validAsset({ gav: -3 }),
    errors: expected({ asset: { gav: ['must be greater than or equal to 0'] } }),
  },
  {
    rule: 'property type from the list',
    valid: validAsset({ property_type_code: 'DATC' }),
    invalid: validAsset({ property_type_code: 'CASTLE' }),
    errors: expected({ asset: { property_type_code: ['is not included in the list'] } }),
  },
  {
    rule: 'construction year an integer, not in the future',
    valid: validAsset({ construction_year: ASSESSMENT_YEAR }),
    invalid: validAsset({ construction_year: ASSESSMENT_YEAR + 1 }),
    errors: expected({ asset: { construction_year: ["can't be in the future"] } }),
  },
  {
    rule: 'integers must be integers',
    valid: validAsset({ partners_id: 17 }),
    invalid: validAsset({ partners_id: 1.5, construction_year: 'old' }),
    errors: expected({
      asset: { partners_id: ['must be an integer'], construction_year: ['is not a number'] },
    }),
  },
  {
    rule: 'latitude and longitude in range',
    valid: validAsset({ lat: 52.37, lng: 4.89 }),
    invalid: validAsset({ lat: 91, lng: -181 }),
    errors: expected({
      asset: { lat: ['must be less than or equal to 90'], lng: ['must be greater than or equal to -180'] },
    }),
  },
  {
    rule: 'asset names unique in the entity',
    valid: validAsset({ name: 'Fresh' }),
    invalid: validAsset({ name: 'Taken' }),
    ctx: { ...createCtx, isNameTaken: (n) => n === 'Taken' },
    errors: expected({ asset: { name: ['has already been taken'] } }),
  },
];

const annualCases: Case[] = [
  {
    rule: 'year required',
    valid: annual0({ year: 2024 }),
    invalid: annual0({ year: null }),
    errors: expected({ annual: [{ year: ["can't be blank"] }] }),
  },
  {
    rule: 'year at most 5 before the assessment year',
    valid: annual0({ year: ASSESSMENT_YEAR - 5 }),
    invalid: annual0({ year: ASSESSMENT_YEAR - 6 }),
    errors: expected({ annual: [{ year: [`must be greater than or equal to ${ASSESSMENT_YEAR - 5}`] }] }),
  },
  {
    rule: 'year not after the assessment year',
    valid: annual0({ year: ASSESSMENT_YEAR }),
    invalid: annual0({ year: ASSESSMENT_YEAR + 1 }),
    errors: expected({ annual: [{ year: [`must be less than or equal to ${ASSESSMENT_YEAR}`] }] }),
  },
  {
    rule: 'one record per year',
    valid: validAsset({ annual_data: [validAnnual(2024), validAnnual(2022)] }),
    invalid: validAsset({ annual_data: [validAnnual(2024), validAnnual(2024)] }),
    errors: expected({ annual: [{}, { year: ['has already been taken'] }] }),
  },
  {
    rule: 'floor-area fields at most size',
    valid: annual0({ en_tot_we: 10_000, asset_size_tenant_tenant: 10_000 }),
    invalid: annual0({ en_tot_we: 10_001, asset_size_tenant_tenant: 12_000 }),
    errors: expected({
      annual: [
        {
          en_tot_we: ['Must be less than or equal to size'],
          asset_size_tenant_tenant: ['Must be less than or equal to size'],
        },
      ],
    }),
  },
  {
    rule: 'cov at most tot',
    valid: annual0({ wat_cov_w: 10_000 }),
    invalid: annual0({ wat_cov_w: 9000, wat_tot_w: 8000 }),
    errors: expected({ annual: [{ wat_cov_w: ['must be less than or equal to wat_tot_w'] }] }),
  },
  {
    // The service stores an absent tenant_ctrl as null and refuses it (the docs' batch example).
    rule: 'tenant_ctrl given (null refused)',
    valid: annual0({ tenant_ctrl: false }),
    invalid: annual0({ tenant_ctrl: null }),
    errors: expected({ annual: [{ tenant_ctrl: ['must be true or false'] }] }),
  },
  {
    // The docs refuse PATCH size 5000 -> 6000 on a tenant-controlled asset with these two messages.
    rule: 'tenant-controlled whole-building totals equal size',
    valid: annual0({ tenant_ctrl: true, ghg_tot_s3_w: 10_000, wat_tot_w: 10_000, en_tot_tc_te: 5000 }),
    invalid: annual0({ tenant_ctrl: true, ghg_tot_s3_w: 5000, wat_cov_w: 4000, wat_tot_w: 5000 }),
    errors: expected({
      annual: [
        {
          ghg_tot_s3_w: ['Must be equal to size if the whole building is tenant controlled'],
          wat_tot_w: ['must be equal to size'],
        },
      ],
    }),
  },
  {
    rule: 'tenant_ctrl is a boolean',
    valid: annual0({ tenant_ctrl: true }),
    invalid: annual0({ tenant_ctrl: 'yes' }),
    errors: expected({ annual: [{ tenant_ctrl: ['must be true or false'] }] }),
  },
  {
    rule: 'ownership dates required when owned_entire_period is false',
    valid: validAsset({
      ownership_from: '2024-04-01',
      annual_data: [validAnnual(2024, { owned_entire_period: false }), validAnnual(2023)],
    }),
    invalid: annual0({ owned_entire_period: false }),
    errors: expected({
      annual: [
        {
          owned_entire_period: [
            'ownership_from or ownership_to must be present when owned_entire_period is false',
          ],
        },
      ],
    }),
  },
  {
    rule: 'percentages 0..100',
    valid: annual0({ asset_vacancy: 100, was_pcov: 0 }),
    invalid: annual0({ asset_vacancy: 101, was_pabs_rec: 150 }),
    errors: expected({
      annual: [
        {
          asset_vacancy: ['must be less than or equal to 100'],
          was_pabs_rec: ['must be less than or equal to 100'],
        },
      ],
    }),
  },
  {
    rule: 'no negatives',
    valid: annual0({ ghg_abs_offset: 0 }),
    invalid: annual0({ en_abs_we: -1, ghg_abs_offset: -2 }),
    errors: expected({
      annual: [
        {
          en_abs_we: ['must be greater than or equal to 0'],
          ghg_abs_offset: ['must be greater than or equal to 0'],
        },
      ],
    }),
  },
  {
    rule: 'numbers are numbers',
    valid: annual0({ wat_abs_w: '8000.5' }),
    invalid: annual0({ wat_abs_w: 'lots', en_ren_ons_con: true }),
    errors: expected({ annual: [{ wat_abs_w: ['is not a number'], en_ren_ons_con: ['is not a number'] }] }),
  },
  {
    rule: 'codes from their lists',
    valid: annual0({ en_ren_ofs_proc_type: 'PPA', ncmr_status: 'Major Renovation Project' }),
    invalid: annual0({ en_ren_ofs_claim: 'XYZ', ncmr_status: 'Demolished' }),
    errors: expected({
      annual: [
        { en_ren_ofs_claim: ['is not included in the list'], ncmr_status: ['is not included in the list'] },
      ],
    }),
  },
  {
    rule: 'annual dates ISO, empty exempt',
    valid: annual0({ en_data_from: '', en_data_to: null }),
    invalid: annual0({ en_data_from: '2024/01/01' }),
    errors: expected({ annual: [{ en_data_from: ['must be a valid date (YYYY-MM-DD)'] }] }),
  },
  {
    rule: 'annual _from not after _to',
    valid: annual0({ ncmr_from: '2024-01-01', ncmr_to: '2024-06-30' }),
    invalid: annual0({ was_data_from: '2024-12-31', was_data_to: '2024-01-01' }),
    errors: expected({ annual: [{ was_data_to: ['must be on or after was_data_from'] }] }),
  },
  {
    rule: 'area splits add up to size',
    valid: annual0({ asset_size_common: 1000, asset_size_shared: 1000, asset_size_tenant: 8000 }),
    invalid: annual0({ asset_size_common: 1000, asset_size_shared: 1000, asset_size_tenant: 7000 }),
    errors: expected({
      annual: [
        {
          asset_size_common: [
            'asset_size_common, asset_size_shared and asset_size_tenant must add up to size',
          ],
        },
      ],
    }),
  },
  {
    rule: 'tenant split adds up',
    valid: annual0({
      asset_size_tenant_landlord: 3000,
      asset_size_tenant_tenant: 5000,
      asset_size_tenant: 8000,
    }),
    invalid: annual0({
      asset_size_tenant_landlord: 3000,
      asset_size_tenant_tenant: 4000,
      asset_size_tenant: 8000,
    }),
    errors: expected({
      annual: [
        { asset_size_tenant: ['must be equal to asset_size_tenant_landlord plus asset_size_tenant_tenant'] },
      ],
    }),
  },
];

const certificationCases: Case[] = [
  {
    rule: 'certification_id and size required',
    valid: cert0({}),
    invalid: validAsset({ certifications: [{ level: null, year: 2020 }] }),
    errors: expected({ certs: [{ certification_id: ["can't be blank"], size: ["can't be blank"] }] }),
  },
  {
    rule: 'certification_id from the list',
    valid: cert0({ certification_id: 10, level: null }),
    invalid: cert0({ certification_id: 999, level: null }),
    // The service's key and wording for an unknown certification (its docs' example).
    errors: expected({ certs: [{ certification: ['must exist'] }] }),
  },
  {
    rule: 'level required when the scheme has levels',
    valid: cert0({ certification_id: 3, level: 'Gold' }),
    invalid: cert0({ certification_id: 3, level: '' }),
    errors: expected({ certs: [{ level: ["can't be blank"] }] }),
  },
  {
    rule: 'level from the scheme',
    valid: cert0({ level: 'Outstanding' }),
    invalid: cert0({ level: 'Superb' }),
    errors: expected({ certs: [{ level: ['is not included in the list'] }] }),
  },
  {
    rule: 'no level when the scheme has none',
    valid: cert0({ certification_id: 10, level: null }),
    invalid: cert0({ certification_id: 10, level: 'Gold' }),
    errors: expected({ certs: [{ level: ['must be blank'] }] }),
  },
  {
    rule: 'certification size a number at most size',
    valid: cert0({ size: '500' }),
    invalid: validAsset({
      certifications: [
        { certification_id: 1, level: 'Good', size: 'big', year: 2020 },
        { certification_id: 1, level: 'Pass', size: 20_000, year: 2020 },
      ],
    }),
    errors: expected({
      certs: [{ size: ['is not a number'] }, { size: ['Must be less than or equal to size'] }],
    }),
  },
  {
    rule: 'unique certification + level + year per asset',
    valid: cert0({}, [{ certification_id: 1, level: 'Excellent', size: 100, year: 2022 }]),
    invalid: cert0({}, [{ certification_id: 1, level: 'Excellent', size: 100, year: 2021 }]),
    errors: expected({ certs: [{}, { certification_id: ['has already been taken'] }] }),
  },
  {
    rule: 'certification year not in the future',
    valid: cert0({ year: ASSESSMENT_YEAR }),
    invalid: cert0({ year: ASSESSMENT_YEAR + 2 }),
    errors: expected({ certs: [{ year: ["can't be in the future"] }] }),
  },
  {
    rule: 'records marked _destroy are not validated',
    valid: validAsset({ certifications: [{ id: 4, _destroy: '1' }] }),
    invalid: validAsset({ certifications: [{ id: 4, _destroy: '0' }] }),
    errors: expected({
      certs: [{ certification_id: ["can't be blank"], size: ["can't be blank"], year: ["can't be blank"] }],
    }),
  },
  {
    rule: 'energy rating id, level and size',
    valid: rating0({ level: 'A+' }),
    invalid: rating0({ energy_rating_id: null, size: -1 }),
    errors: expected({
      ratings: [{ energy_rating_id: ["can't be blank"], size: ['must be greater than or equal to 0'] }],
    }),
  },
  {
    rule: 'energy rating level from the scheme',
    valid: rating0({ level: 'G' }),
    invalid: rating0({ level: 'Z' }),
    errors: expected({ ratings: [{ level: ['is not included in the list'] }] }),
  },
];

function countOf(a: AssetInput, k: 'annual_data' | 'certifications' | 'energy_ratings'): number {
  const v = a[k];
  return Array.isArray(v) ? v.length : 0;
}

describe.each([
  ['asset level', assetCases],
  ['annual-data level', annualCases],
  ['certification level', certificationCases],
])('%s rules', (_level, cases) => {
  it.each(cases)('$rule: valid case is clean', ({ valid, ctx }) => {
    const result = validateAsset(valid, ctx ?? createCtx);
    expect(result).toEqual(
      expected({
        annualCount: countOf(valid, 'annual_data'),
        certCount: countOf(valid, 'certifications'),
        ratingCount: countOf(valid, 'energy_ratings'),
      }),
    );
    expect(hasErrors(result)).toBe(false);
  });
  it.each(cases)('$rule: invalid case gives the exact _validations', ({ invalid, errors, ctx }) => {
    const result = validateAsset(invalid, ctx ?? createCtx);
    expect(result).toEqual(errors);
    expect(hasErrors(result)).toBe(true);
  });
});

describe('warnings', () => {
  it('gav above 5,500 millions warns without blocking', () => {
    const result = validateAsset(validAsset({ gav: 6000 }), createCtx);
    expect(result).toEqual(
      expected({
        assetWarnings: { gav: ["is above 5,500 million: check it is in millions of the entity's currency"] },
      }),
    );
    expect(hasErrors(result)).toBe(false);
    expect(validateAsset(validAsset({ gav: 5500 }), createCtx)).toEqual(expected({}));
  });

  it('consumption with no covered area warns on the consumption field', () => {
    const result = validateAsset(annual0({ en_abs_we: 500, en_cov_we: 0 }), createCtx);
    expect(result).toEqual(
      expected({
        annual: [
          { errors: {}, warnings: { en_abs_we: ['consumption is reported with no covered floor area'] } },
        ],
      }),
    );
    expect(hasErrors(result)).toBe(false);
  });
});

describe("data periods outside the row's year (the app's own check)", () => {
  const periods = { en_data_from: '2025-01-01', en_data_to: '2025-12-31', wat_data_from: '2024-01-01' };
  it('warns on each date in another year than the row, never refuses', () => {
    const result = validateAsset(annual0(periods), { ...createCtx, appChecks: true });
    expect(hasErrors(result)).toBe(false);
    expect(result.annualData[0]?.warnings).toEqual({
      en_data_from: ["falls outside the row's year (2024)"],
      en_data_to: ["falls outside the row's year (2024)"],
    });
  });

  it('leaves them alone without the app checks (the service, the sandbox)', () => {
    expect(validateAsset(annual0(periods), createCtx).annualData[0]?.warnings).toBeUndefined();
  });

  it("judges a fiscal year's row by the reporting year ending in the entity's month", () => {
    // Year 2024 ending in March: 2023-04-01 .. 2024-03-31.
    const fiscal = { ...createCtx, appChecks: true, reportingPeriodMonth: 3 };
    const inside = { en_data_from: '2023-04-01', en_data_to: '2024-03-31' };
    expect(validateAsset(annual0(inside), fiscal).annualData[0]?.warnings).toBeUndefined();
    const outside = { en_data_from: '2023-03-31', en_data_to: '2024-04-01' };
    expect(validateAsset(annual0(outside), fiscal).annualData[0]?.warnings).toEqual({
      en_data_from: ["falls outside the row's reporting year 2024 (2023-04-01 to 2024-03-31)"],
      en_data_to: ["falls outside the row's reporting year 2024 (2023-04-01 to 2024-03-31)"],
    });
  });
});

describe('floor areas without consumption, consumption without floor areas', () => {
  it('takes a total floor area alone (the docs create assets with totals only)', () => {
    const result = validateAsset(
      annual0({ en_tot_wd: 4000, en_tot_wf: 100, en_tot_lc_te: 112.4 }),
      createCtx,
    );
    expect(hasErrors(result)).toBe(false);
    expect(result.annualData[0]?.warnings).toBeUndefined();
  });

  it('warns, never refuses, consumption given without its floor areas', () => {
    const result = validateAsset(annual0({ en_abs_lc_bsf: 100 }), createCtx);
    expect(hasErrors(result)).toBe(false);
    expect(result.annualData[0]?.warnings).toEqual({
      en_abs_lc_bsf: ['consumption is reported without its covered and total floor area'],
    });
  });
});

describe("lists still shipped (the service's could not be loaded)", () => {
  it('turns a value outside them into a warning, never an error', () => {
    const ctx = { ...createCtx, listSource: 'shipped' as const };
    const result = validateAsset(
      validAsset({
        property_type_code: 'ZZZZ',
        certifications: [{ certification_id: 4242, size: 10, year: 2020 }],
      }),
      ctx,
    );
    expect(hasErrors(result)).toBe(false);
    expect(result.asset.warnings?.['property_type_code']?.[0]).toMatch(/built-in property type list/);
    expect(result.certifications[0]?.warnings?.['certification']?.[0]).toMatch(
      /built-in certification_id list/,
    );
  });
});

describe('create versus update', () => {
  it('required fields apply on create only; an asset without a numeric size is refused either way', () => {
    const patch: AssetInput = { gav: 10 };
    expect(validateAsset(patch, updateCtx)).toEqual(
      expected({ asset: { asset_size: ['is not a number'] }, annualCount: 0, certCount: 0, ratingCount: 0 }),
    );
    expect(validateAsset(patch, createCtx).asset.errors).toEqual({
      name: ["can't be blank"],
      country: ["can't be blank"],
      state_province: ["can't be blank"],
      city: ["can't be blank"],
      ownership: ["can't be blank"],
      asset_size: ['is not a number'],
    });
  });

  it('size rules use the stored size when the patch merges into existingAsset', () => {
    const existing: Asset = {
      service_asset_id: 7,
      name: 'Stored',
      country: 'NL',
      state_province: 'NH',
      city: 'Amsterdam',
      ownership: 100,
      size: 5000,
      certifications: [],
      energy_ratings: [],
      annual_data: [],
      _outliers: [],
      created_at: null,
      updated_at: null,
    };
    const result = validateAsset(
      { annual_data: [{ year: 2024, tenant_ctrl: false, en_abs_wf: 1, en_cov_wf: 6000, en_tot_wf: 6000 }] },
      { ...updateCtx, existingAsset: existing },
    );
    expect(result).toEqual(
      expected({
        annual: [
          {
            en_cov_wf: ['Must be less than or equal to size'],
            en_tot_wf: ['Must be less than or equal to size'],
          },
        ],
        annualCount: 1,
        certCount: 0,
        ratingCount: 0,
      }),
    );
  });
});
