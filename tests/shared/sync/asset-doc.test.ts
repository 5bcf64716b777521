import { describe, expect, it } from 'vitest';
import { entryKey, flattenDoc, isCellField, type AssetDoc } from '../../../shared/sync/asset-doc';

describe('isCellField', () => {
  it("asks of one field what flattenDoc lists of the whole document (a new asset's unsent cells)", () => {
    const doc: AssetDoc = {
      name: 'Amsterdam Office 1',
      city: 'Amsterdam',
      size: null,
      service_asset_id: 7,
      partners_id: 3,
      asset_size: 1200,
      annual_data: [
        { year: 2024, en_abs_wf: 5, en_cov_wf: null, id: 9, _validations: { en_abs_wf: ['x'] } },
        { year: 2025, owned_entire_period: false },
      ],
      certifications: [{ id: 1, certification_id: 4, year: 2020, level: 'Gold', name: 'BREEAM' }],
      energy_ratings: [{ energy_rating_id: 2, _key: 'k1', covered_floor_area: 300 }],
    };
    const asked: string[] = [];
    for (const [field, value] of Object.entries(doc))
      if (!Array.isArray(value) && value !== null && value !== undefined && isCellField('doc', field))
        asked.push(field);
    for (const collection of ['annual_data', 'certifications', 'energy_ratings'] as const)
      for (const entry of doc[collection] as Record<string, unknown>[])
        for (const [field, value] of Object.entries(entry))
          if (value !== null && value !== undefined && isCellField('entry', field))
            asked.push(`${collection}/${entryKey(collection, entry)}/${field}`);
    // flattenDoc also lists each entry itself (`collection/key`), which is no cell.
    const cells = [...flattenDoc(doc).keys()].filter((path) => path.split('/').length !== 2);
    expect(asked.sort()).toEqual(cells.sort());
    expect(asked).toContain('annual_data/2024/en_abs_wf');
    expect(asked).not.toContain('service_asset_id');
  });
});
