/**
 * Meters travel in the workbook (issue 32): the export writes Meters and Readings tabs, the asset
 * import leaves them alone, and the readings import reads the Readings tab back, into another
 * workspace with the same asset, to the same meters and readings (and in the same one, as duplicates).
 */
import { open } from 'node:fs/promises';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metersServiceOver } from '../../support/meters-service';
import { readWorkbook } from '../../../electron/workbook/read-workbook';
import { exportJob } from '../../../electron/workbook/workspace-workbook';
import { writeAssetWorkbook } from '../../../shared/workbook/write-workbook';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { parseReadingsRows } from '../../../shared/meters/import-rows';
import { withMetersTab } from '../../../shared/meters/workbook-tabs';
import { tempWorkspace } from '../../../support/sync-harness';

const csv = [
  'meter_id,meter_name,asset_partners_id,utility,space,area_served,start_date,end_date,quantity,unit,estimated',
  'W1,Water main,123456789,water,whole_building,900,2024-01-01,2024-06-30,120.5,m3,no',
  'W1,Water main,123456789,water,whole_building,900,2024-07-01,2024-12-31,130,m3,yes',
].join('\n');

const asset: AssetDoc = { name: 'Depot', partners_id: 123456789, annual_data: [{ year: 2024 }] };

function workspace(name: string) {
  const { store, file } = tempWorkspace(name);
  const created = store.step('adding an asset', () => store.createAsset(asset));
  const { service, pickPath: pick } = metersServiceOver(store);
  return { store, file, localId: created.localId, service, pick };
}

describe('meters in the workbook', () => {
  it('exports Meters and Readings tabs and reads the Readings tab back', async () => {
    const one = workspace('one');
    const source = join(dirname(one.file), 'water.csv');
    writeFileSync(source, csv);
    const preview = await one.service.handlers['meters.previewImport']({
      fileId: one.pick(source, 'water.csv'),
    });
    await one.service.handlers['meters.applyImport']({ planId: preview.planId });

    const book = join(dirname(one.file), 'assets.xlsx');
    const { job } = exportJob(one.store, book, { years: [2024] });
    if (job.job !== 'write-xlsx') throw new Error('an xlsx job');
    expect(job.opts.extraSheets?.map((s) => [s.name, s.rows.length])).toEqual([
      ['Meters', 1],
      ['Readings', 2],
    ]);
    const handle = await open(book, 'w');
    await writeAssetWorkbook(handle, job.docs, job.opts);
    await handle.close();

    // The asset import reads the asset tabs and says nothing of the meters' tabs.
    const parsed = await readWorkbook(book);
    expect(parsed.issues.filter((i) => /Meters|Readings/.test(i.reason))).toEqual([]);

    // Read back into another workspace with the same asset: the same meter and readings.
    const two = workspace('two');
    const back = await two.service.handlers['meters.previewImport']({
      fileId: two.pick(book, 'assets.xlsx'),
    });
    expect(back).toMatchObject({ valid: 2, duplicates: 0, problems: [] });
    await two.service.handlers['meters.applyImport']({ planId: back.planId });
    const listing = await two.service.handlers['meters.list']({});
    expect(listing.meters).toMatchObject([
      { id: 'W1', name: 'Water main', utility: 'water', areaServed: 900 },
    ]);
    expect(listing.readings.map((r) => [r.start, r.end, r.quantity, r.unit, r.estimated])).toEqual([
      ['2024-01-01', '2024-06-30', 120.5, 'm3', false],
      ['2024-07-01', '2024-12-31', 130, 'm3', true],
    ]);
    // Into the workspace that wrote it: every reading is already there.
    const again = await one.service.handlers['meters.previewImport']({
      fileId: one.pick(book, 'assets.xlsx'),
    });
    expect(again).toMatchObject({ valid: 0, duplicates: 2 });
  });

  it("reads the Meters tab's energy content back for a fuel measured by volume, and its figures follow", async () => {
    const gas = [
      'meter_id,meter_name,asset_partners_id,utility,space,area_served,start_date,end_date,quantity,unit,estimated',
      'G1,Boiler gas,123456789,fuel,whole_building,1000,2024-01-01,2024-12-31,1000,m3,no',
    ].join('\n');
    const one = workspace('gas-one');
    const source = join(dirname(one.file), 'gas.csv');
    writeFileSync(source, gas);
    const preview = await one.service.handlers['meters.previewImport']({
      fileId: one.pick(source, 'gas.csv'),
    });
    await one.service.handlers['meters.applyImport']({ planId: preview.planId });
    // The analyst states the gas's energy content (per the meter's unit, m3).
    await one.service.handlers['meters.edit']({
      meters: [{ id: 'G1', field: 'energyContentKwh', value: 10.55 }],
    });
    const rowOf = (w: ReturnType<typeof workspace>) =>
      (w.store.asset(w.localId)?.current?.['annual_data'] as Array<Record<string, unknown>>).find(
        (r) => r['year'] === 2024,
      );
    expect(rowOf(one)?.['en_abs_wf']).toBe(10_550); // 1000 m3 x 10.55 kWh/m3

    const book = join(dirname(one.file), 'gas.xlsx');
    const { job } = exportJob(one.store, book, { years: [2024] });
    if (job.job !== 'write-xlsx') throw new Error('an xlsx job');
    const handle = await open(book, 'w');
    await writeAssetWorkbook(handle, job.docs, job.opts);
    await handle.close();

    const two = workspace('gas-two');
    const back = await two.service.handlers['meters.previewImport']({ fileId: two.pick(book, 'gas.xlsx') });
    expect(back).toMatchObject({ valid: 1, problems: [] });
    await two.service.handlers['meters.applyImport']({ planId: back.planId });
    const listing = await two.service.handlers['meters.list']({});
    expect(listing.meters).toMatchObject([
      { id: 'G1', unit: 'm3', energyContent: { kwh: 10.55, per: 'm3' } },
    ]);
    expect(listing.issues).toEqual([]);
    expect(rowOf(two)?.['en_abs_wf']).toBe(10_550);
  });

  it("names a Meters tab's energy content that is none, and reads the meter without it", () => {
    const parsed = parseReadingsRows(
      [
        ['meter_id', 'asset_name', 'utility', 'space', 'start_date', 'end_date', 'quantity', 'unit'],
        ['G1', 'Depot', 'fuel', 'whole_building', '2024-01-01', '2024-12-31', '1000', 'm3'],
        ['O1', 'Depot', 'fuel', 'whole_building', '2024-01-01', '2024-12-31', '500', 'L'],
      ],
      { file: 'book.xlsx' },
    );
    const tab = [
      ['meter_id', 'unit', 'energy_content_kwh', 'energy_content_per'],
      ['G1', 'm3', 'lots', 'm3'],
      ['O1', 'L', '10.0', 'kWh'],
    ];
    const read = withMetersTab(parsed, tab, 'book.xlsx');
    expect(read.meters.map((m) => [m.meterId, m.energyContent])).toEqual([
      ['G1', null],
      ['O1', null],
    ]);
    expect(read.errors).toEqual([
      {
        file: 'book.xlsx',
        row: 2,
        column: 'energy_content_kwh',
        message: 'Meters tab, meter G1: "lots" is not an energy content in kWh.',
      },
      {
        file: 'book.xlsx',
        row: 3,
        column: 'energy_content_per',
        message: 'Meters tab, meter O1: "kWh" is not a unit of volume or mass.',
      },
    ]);
  });
});
