import { describe, expect, it } from 'vitest';
import { annualFieldCatalog, assetFieldCatalog } from '../../../../shared/domain';
import type { AssetView } from '../../../../shared/sync/types';
import {
  annualColumns,
  areaLabel,
  assetColumns,
  entryColumns,
  unitLabel,
} from '../../../../renderer/src/grid-model/columns';
import {
  annualRowsOf,
  cellOfPath,
  entryRowsOf,
  pathOf,
  rawValueOf,
} from '../../../../renderer/src/grid-model/rows';
import {
  formatValue,
  getPathValue,
  dateProblem,
  parseInput,
  parseNumber,
} from '../../../../renderer/src/grid-model/values';
import { assetView } from '../../../support/asset-view';

const metres = { area_units_name: 'square metres', currency: 'EUR' };
const feet = { area_units_name: 'square feet', currency: 'USD' };

function view(doc: AssetView['doc'], localId = 'L1'): AssetView {
  return assetView(localId, { serviceAssetId: 7, partnersId: 1, doc });
}

describe('columns derived from the catalog', () => {
  it('has one asset column per catalog field, the name first and pinned, service ids read-only and last', () => {
    const cols = assetColumns(assetFieldCatalog, metres);
    expect(cols.map((c) => c.field).sort()).toEqual(assetFieldCatalog.map((d) => d.name).sort());
    expect(cols[0]).toMatchObject({ field: 'name', pinned: 'left', editable: true });
    expect(cols.slice(-2).map((c) => [c.field, c.editable])).toEqual([
      ['service_asset_id', false],
      ['partners_id', false],
    ]);
  });

  it('puts units from the entity preferences into the headers', () => {
    const m = assetColumns(assetFieldCatalog, metres);
    const f = assetColumns(assetFieldCatalog, feet);
    expect(m.find((c) => c.field === 'size')!.headerName).toBe('Floor area (m²)');
    expect(f.find((c) => c.field === 'size')!.headerName).toBe('Floor area (sq ft)');
    expect(f.find((c) => c.field === 'gav')!.headerName).toBe('Gross asset value (USD m)');
    expect(m.find((c) => c.field === 'ownership')!.headerName).toBe('Ownership (%)');
    expect(unitLabel('m3', metres)).toBe('m³');
    expect(areaLabel('Square Feet')).toBe('sq ft');
  });

  it('groups every annual field by topic, energy first, with code lists as dropdown values', () => {
    const groups = annualColumns(annualFieldCatalog, metres);
    expect(groups.map((g) => g.headerName)).toEqual([
      'Energy',
      'GHG emissions',
      'Water',
      'Waste',
      'Reporting characteristics',
      'Efficiency measures',
    ]);
    const all = groups.flatMap((g) => g.children);
    expect(all).toHaveLength(annualFieldCatalog.length);
    const cov = all.find((c) => c.field === 'en_cov_wf')!;
    expect(cov.headerName).toBe('Covered floor area, whole building, fuel (m²)');
    expect(all.find((c) => c.field === 'en_abs_wf')!.headerName).toContain('(kWh)');
    expect(all.find((c) => c.field === 'en_ren_ofs_claim')!.codes).toContain('BUN');
  });

  it('has entry columns per collection', () => {
    expect(entryColumns('certifications', metres).map((c) => c.field)).toEqual([
      'certification_id',
      'level',
      'size',
      'year',
    ]);
    expect(entryColumns('energy_ratings', feet).map((c) => c.field)).toEqual([
      'energy_rating_id',
      'level',
      'size',
    ]);
  });
});

describe('row models', () => {
  const asset = view({
    name: 'A',
    size: 100,
    annual_data: [
      { year: 2024, en_abs_wf: 5 },
      { year: 2023, en_abs_wf: 4 },
    ],
    certifications: [
      { id: 7, certification_id: 2, level: 'Good' },
      { _key: 'k1', certification_id: 3 },
    ],
  });

  it('makes one annual row per asset and year, sorted, with ids localId:year', () => {
    const rows = annualRowsOf(asset, 2025);
    expect(rows.map((r) => r.id)).toEqual(['L1:2023', 'L1:2024']);
    expect(pathOf(rows[0]!, 'en_abs_wf')).toBe('annual_data/2023/en_abs_wf');
    expect(rawValueOf(rows[1]!, 'en_abs_wf')).toBe(5);
  });

  it('gives an asset without annual data a placeholder row to type into', () => {
    const rows = annualRowsOf(view({ name: 'B' }, 'L2'), 2025);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 'L2:2025', rec: undefined });
  });

  it('makes entry rows keyed like the sync paths', () => {
    const rows = entryRowsOf(asset, 'certifications');
    expect(rows.map((r) => pathOf(r, 'level'))).toEqual([
      'certifications/id:7/level',
      'certifications/new:k1/level',
    ]);
  });

  it('maps a path back to its grid, row and column', () => {
    expect(cellOfPath('L1', 'annual_data/2024/en_cov_wf')).toEqual({
      grid: 'annual',
      rowId: 'L1:2024',
      colId: 'en_cov_wf',
    });
    expect(cellOfPath('L1', 'asset_size')).toEqual({ grid: 'assets', rowId: 'L1', colId: 'size' });
    expect(cellOfPath('L1', 'certifications/id:7/level').rowId).toBe('L1|id:7');
  });
});

describe('typed values', () => {
  it('parses numbers as spreadsheets write them, keeping text that is not a number', () => {
    expect(parseInput('12,500', 'number')).toBe(12500);
    expect(parseInput('12,5', 'number')).toBe(12.5);
    expect(parseInput('1.234,5', 'number')).toBe(1234.5);
    expect(parseInput(' 42 ', 'integer')).toBe(42);
    expect(parseInput('abc', 'number')).toBe('abc');
    expect(parseInput('', 'number')).toBe(null);
    expect(parseNumber('1e3')).toBe(1000);
  });

  it('parses booleans and dates', () => {
    expect(parseInput('TRUE', 'boolean')).toBe(true);
    expect(parseInput('no', 'boolean')).toBe(false);
    expect(parseInput('maybe', 'boolean')).toBe('maybe');
    expect(parseInput('31/12/2024', 'date')).toBe('2024-12-31');
    expect(parseInput('2024-01-05', 'date')).toBe('2024-01-05');
    // 1 March or 3 January? Kept as typed (the cell says it is no valid date), never guessed.
    expect(parseInput('01/03/2025', 'date')).toBe('01/03/2025');
    expect(dateProblem('01/03/2025')).toMatch(/ambiguous.*YYYY-MM-DD/);
    expect(dateProblem('13/03/2025')).toBeNull();
  });

  it('formats values for cells and copy', () => {
    expect(formatValue(true)).toBe('TRUE');
    expect(formatValue(null)).toBe('');
    expect(formatValue(1.5)).toBe('1.5');
  });

  it('reads values at document paths', () => {
    expect(getPathValue(asset(), 'annual_data/2024/en_abs_wf')).toBe(5);
    expect(getPathValue(asset(), 'annual_data/2020/en_abs_wf')).toBe(null);
    expect(getPathValue(asset(), 'certifications/id:7/level')).toBe('Good');
    expect(getPathValue(asset(), 'name')).toBe('A');
  });
});

function asset(): AssetView['doc'] {
  return {
    name: 'A',
    annual_data: [{ year: 2024, en_abs_wf: 5 }],
    certifications: [{ id: 7, level: 'Good' }],
  };
}
