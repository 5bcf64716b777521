/**
 * Meter figures create annual rows only in the years the assessment takes (its year and the five
 * before, the annual year rule's range): a bill straddling the first of them writes nothing into the
 * year before, where a new row would be an error the analyst never made.
 */
import { describe, expect, it } from 'vitest';
import { MetersService } from '../../../electron/meters/meters-service';
import { PickedFiles } from '../../../electron/files/picked-files';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { tempWorkspace } from '../../../support/sync-harness';

const depot: AssetDoc = {
  name: 'Depot',
  country: 'NL',
  city: 'Utrecht',
  ownership: 100,
  property_type_code: 'OCHI',
  size: 1_000,
  annual_data: [],
};

describe('meter figures and the assessment years', () => {
  it('creates rows for accepted years only, even for a bill covering most of an earlier year', async () => {
    const { store } = tempWorkspace('accepted-years');
    const asset = store.step('adding an asset', () => store.createAsset(depot));
    const h = new MetersService({
      workspace: () => store,
      files: new PickedFiles(undefined),
      idName: () => 'service_asset_id',
      assessmentYear: 2025,
    }).handlers;
    await h['meters.saveMeters']({
      meters: [
        {
          id: 'E1',
          name: 'Main electricity',
          assetId: asset.localId,
          utility: 'electricity',
          space: 'whole_building',
          areaServed: 800,
          unit: 'kWh',
          energyContent: null,
        },
      ],
    });
    // 2019-02-01..2020-12-31: 334 days in 2019 (outside 2020..2025), 366 in 2020.
    await h['meters.addReadings']({
      readings: [
        {
          meterId: 'E1',
          start: '2019-02-01',
          end: '2020-12-31',
          quantity: 70_000,
          unit: 'kWh',
          estimated: false,
        },
      ],
    });
    const years = (store.asset(asset.localId)?.current?.['annual_data'] as Array<{ year: number }>).map(
      (r) => r.year,
    );
    expect(years).toEqual([2020]);
  });
});
