import { describe, expect, it } from 'vitest';
import {
  defaultCertificationSchemes,
  defaultPropertyTypeCodes,
  validateAsset,
} from '../../../../shared/domain';
import type { AssetDoc } from '../../../../shared/sync/asset-doc';
import {
  blockedKeyToPath,
  countIssues,
  indexIssues,
  localIssues,
  markFixedHere,
  mergeIssues,
  serviceIssues,
  tooltipText,
} from '../../../../renderer/src/validation/issues';
import { pathLabel } from '../../../../renderer/src/validation/labels';
import { outlierSeries } from '../../../../renderer/src/outliers/series';

const ctx = {
  mode: 'update' as const,
  assessmentYear: 2025,
  areaUnit: 'm2' as const,
  certifications: defaultCertificationSchemes,
  propertyTypes: defaultPropertyTypeCodes,
};

const doc: AssetDoc = {
  name: 'A',
  country: 'NL',
  state_province: 'NH',
  city: 'Amsterdam',
  ownership: 150,
  size: 1000,
  property_type_code: 'OCHI',
  annual_data: [
    { year: 2023, en_abs_wf: 100_000, en_cov_wf: 1000, en_tot_wf: 1000 },
    { year: 2024, en_abs_wf: 100_000, en_cov_wf: 1200, en_tot_wf: 1200 },
  ],
};

describe('validation results on document paths', () => {
  const issues = localIssues('L', doc, validateAsset(doc, ctx));

  it('maps asset and annual messages to the cells edits write', () => {
    const paths = issues.map((i) => i.path);
    expect(paths).toContain('ownership');
    expect(paths).toContain('annual_data/2024/en_cov_wf');
    expect(paths).not.toContain('annual_data/2023/en_cov_wf');
    const index = indexIssues(issues);
    expect(index.get('annual_data/2024/en_cov_wf')!.errors).toContain('Must be less than or equal to size');
    expect(tooltipText(index.get('ownership'))).toBe('Error: must be less than or equal to 100');
    expect(countIssues(issues).errors).toBe(issues.length);
  });

  it("shows the service's _validations beside the offline ones, once when they agree", () => {
    const service = serviceIssues('L', {
      asset: { errors: { asset_size: ['is not a number'] } },
      annualData: [
        { year: 2024, _validations: { errors: { en_cov_wf: ['Must be less than or equal to size'] } } },
      ],
      certifications: [],
    });
    expect(service.map((i) => i.path)).toEqual(['size', 'annual_data/2024/en_cov_wf']);
    const merged = mergeIssues(issues, service);
    expect(merged.filter((i) => i.path === 'annual_data/2024/en_cov_wf')).toHaveLength(1);
    expect(merged.find((i) => i.path === 'annual_data/2024/en_cov_wf')!.confirmed).toBe(true);
    expect(merged.find((i) => i.path === 'size')!.source).toBe('service');
  });

  it('takes a flagged value changed here since as fixed here: not counted, said in the tooltip', () => {
    const service = markFixedHere(
      serviceIssues('L', {
        asset: { errors: { asset_size: ['is not a number'], city: ["can't be blank"] } },
        annualData: [],
        certifications: [],
      }),
      ['size'],
    );
    expect(countIssues(service)).toEqual({ errors: 1, warnings: 0 });
    const cell = indexIssues(service).get('size')!;
    expect(cell.service).toEqual([]);
    expect(tooltipText(cell)).toBe('The service said "is not a number": fixed here, checked again at sync');
  });

  it("maps the sync's held-back keys and labels paths for people", () => {
    expect(blockedKeyToPath(doc, 'annual_data[1].en_cov_wf')).toBe('annual_data/2024/en_cov_wf');
    expect(blockedKeyToPath(doc, 'asset_size')).toBe('size');
    expect(pathLabel('annual_data/2024/en_cov_wf')).toBe(
      '2024 · Energy covered floor area, whole building, fuel',
    );
    expect(pathLabel('certifications/id:7/level')).toBe('Certification #7 · Level');
  });
});

describe('outlier series', () => {
  it('gives the intensity per year, the like-for-like change and the thresholds', () => {
    const asset: AssetDoc = {
      ...doc,
      annual_data: [
        { year: 2023, en_abs_wf: 100_000, en_cov_wf: 1000, en_tot_wf: 1000 },
        { year: 2024, en_abs_wf: 300_000, en_cov_wf: 1000, en_tot_wf: 1000 },
      ],
    };
    const [energy] = outlierSeries(asset, 'm2');
    expect(energy!.kpi).toBe('en');
    expect(energy!.points).toEqual([
      { year: 2023, intensity: 100, lfl: null, outside: false },
      { year: 2024, intensity: 300, lfl: 200, outside: false },
    ]);
    expect(energy!.range).toEqual({ min: 80, max: 600 });
    expect(energy!.flags.map((f) => f.type)).toEqual(['lfl']);
  });
});
