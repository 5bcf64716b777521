/**
 * The meters service over a real workspace file: a utility portal's CSV with bills straddling the
 * year end and an estimate, previewed (duplicates and bad rows flagged, not added), applied as one
 * undo step with the derived annual cells, an override that survives a recompute, and undo back to
 * nothing. Figures computed by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../support/sync-harness';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import type { ChangeSource } from '../../../shared/history/change-source';
import { metersArgs } from '../../../shared/meters/bridge-args';
import { metersRig } from '../../support/meters-rig';

const portalCsv = [
  'Meter ID,Meter Name,Asset Name,Utility,Space,Area Served,Start Date,End Date,Quantity,Unit,Estimated',
  // 2023-12-02..2024-01-31: 61 days, 31 of them in 2024 -> 6100 x 31/61 = 3100 kWh
  'E1,Main electricity,Tower,Electricity,Whole building,800,2023-12-02,2024-01-31,6100,kWh,A',
  // 2024-02-01..2024-12-31: 335 days (a leap year), all in 2024, estimated -> 33500 kWh
  'E1,Main electricity,Tower,Electricity,Whole building,800,2024-02-01,2024-12-31,33.5,MWh,E',
  // the same bill twice: flagged, not added
  'E1,Main electricity,Tower,Electricity,Whole building,800,2023-12-02,2024-01-31,6100,kWh,A',
  // 2025-01-01..2025-01-31: 31 days of 2025 (a year row of its own: >= 28 days)
  'E1,Main electricity,Tower,Electricity,Whole building,800,2025-01-01,2025-01-31,3100,kWh,A',
  // gas in MWh over half of 2024 -> 12500 kWh; the asset's en_abs_wf was typed by hand
  'G1,Boiler gas,Tower,Fuel,Whole building,1000,2024-01-01,2024-06-30,12.5,MWh,no',
  // text in a quantity: a problem naming the row and column
  'G1,Boiler gas,Tower,Fuel,Whole building,1000,2024-07-01,2024-12-31,lots,MWh,no',
  // an asset the workspace doesn't have
  'Z1,Other,Nowhere,Electricity,Whole building,10,2024-01-01,2024-12-31,5,kWh,no',
].join('\r\n');

function setup() {
  return withTower('meters');
}

/** The Tower asset (a gas figure typed by hand), the portal's CSV picked, the meters service over them. */
function withTower(workspace: Parameters<typeof metersRig>[0]['workspace']) {
  const rig = metersRig({ workspace, annual: [{ year: 2024, en_abs_wf: 50_000, en_tot_wf: 1_000 }] });
  return { ...rig, fileId: rig.pick('portal.csv', portalCsv) };
}

describe('meters service', () => {
  it('imports a portal CSV, writes the derived annual cells as one step, keeps an override, and undoes', async () => {
    const { store, service, fileId, localId, row } = setup();
    const h = service.handlers;

    const preview = await await h['meters.previewImport']({ fileId });
    expect(preview.mapping).toMatchObject({
      meter_id: 'Meter ID',
      asset_name: 'Asset Name',
      quantity: 'Quantity',
    });
    expect(preview.valid).toBe(4);
    expect(preview.duplicates).toBe(1);
    expect(preview.unknownAssets).toEqual(['Nowhere']);
    expect(preview.problems).toContainEqual({
      file: 'portal.csv',
      row: 7,
      column: 'Quantity',
      message: '"lots" is not a number.',
    });
    expect(preview.problems.find((p) => p.row === 4)?.message).toMatch(/same reading/);
    expect(preview.meters.map((m) => [m.key, m.isNew, m.readings])).toEqual([
      ['E1', true, 3],
      ['G1', true, 1],
    ]);

    const applied = await h['meters.applyImport']({ planId: preview.planId });
    expect(applied.readings).toBe(4);
    expect(applied.meters).toBe(2);
    expect(applied.history.undo).toBe('import of 4 readings from portal.csv');
    expect(row(2024)).toMatchObject({
      en_abs_we: 36_600, // 3100 + 33500
      en_cov_we: 800,
      en_data_from: '2024-01-01',
      en_data_to: '2024-12-31',
      en_abs_wf: 50_000, // typed by hand: held, not replaced
    });
    expect(row(2025)).toMatchObject({
      en_abs_we: 3_100,
      en_data_from: '2025-01-01',
      en_data_to: '2025-01-31',
    });
    const held = applied.held.find((c) => c.field === 'en_abs_wf');
    expect(held).toMatchObject({ year: 2024, current: 50_000, derived: 12_500, state: 'typed' });

    // The derived mark says how the cell was made.
    const marks = await h['meters.derived']({ assetIds: [localId] });
    const abs = marks.find((m) => m.year === 2024 && m.field === 'en_abs_we');
    expect(abs).toMatchObject({ value: 36_600, meters: ['E1'], readings: 2 });
    expect(abs?.text).toMatch(/2 readings from 1 meter/);

    // The analyst types over the derived value: an override, kept through a recompute.
    store.step('edit of 1 cell', () => store.setValue(localId, 'annual_data/2024/en_abs_we', 40_000));
    const listing = await h['meters.list']({ assetId: localId });
    const estimated = listing.readings.find((r) => r.estimated);
    expect(estimated).toBeDefined();
    await h['meters.edit']({ readings: [{ id: estimated?.id as string, field: 'quantity', value: '33.6' }] });
    expect(row(2024)?.['en_abs_we']).toBe(40_000);
    const figures = await h['meters.figures']({ assetIds: [localId], years: [2024] });
    // 33.6 MWh now: 3100 + 33600
    expect(figures.cells.find((c) => c.field === 'en_abs_we')).toMatchObject({
      state: 'override',
      current: 40_000,
      derived: 36_700,
    });

    // "Apply meter figures" after old -> new: the typed gas figure is replaced, the override kept.
    const apply = await h['meters.applyFigures']({ assetIds: [localId], replaceTyped: true });
    expect(apply.views.map((v) => v.localId)).toEqual([localId]);
    expect(row(2024)).toMatchObject({ en_abs_wf: 12_500, en_cov_wf: 1_000, en_abs_we: 40_000 });

    // Undo, step by step, back to the asset as it was before the import.
    expect(store.undo()?.label).toBe('applying meter figures');
    expect(row(2024)?.['en_abs_wf']).toBe(50_000);
    expect(store.undo()?.label).toBe('edit of 1 meter cell');
    expect((await h['meters.list']({ assetId: localId })).readings.find((r) => r.estimated)?.quantity).toBe(
      33.5,
    );
    expect(store.undo()?.label).toBe('edit of 1 cell');
    expect(row(2024)?.['en_abs_we']).toBe(36_600);
    const undone = store.undo();
    expect(undone?.label).toBe('import of 4 readings from portal.csv');
    expect(undone?.meters).toBe(true);
    expect(undone?.touched).toEqual([localId]);
    expect(row(2024)).toEqual({ year: 2024, en_abs_wf: 50_000, en_tot_wf: 1_000 });
    expect(row(2025)).toBeUndefined();
    expect(await h['meters.list']({ assetId: localId })).toMatchObject({ meters: [], readings: [] });
    expect(await h['meters.derived']({ assetIds: [localId] })).toEqual([]);

    // And redo brings the import back whole.
    expect(store.redo()?.label).toBe('import of 4 readings from portal.csv');
    expect(row(2024)?.['en_abs_we']).toBe(36_600);
    expect((await h['meters.list']({ assetId: localId })).readings).toHaveLength(4);
  });

  it('remembers the corrected column mapping per workspace and asks for an ambiguous day/month order', async () => {
    const { service, localId, pick } = setup();
    const text = [
      'Compteur,Site,Type,Zone,Du,Au,Conso,Unite',
      'E9,Tower,electricity,whole_building,01/02/2024,10/02/2024,100,kWh',
    ].join('\n');
    const fileId = pick('fr.csv', text);
    const mapping = {
      meter_id: 'Compteur',
      asset_name: 'Site',
      utility: 'Type',
      space: 'Zone',
      start_date: 'Du',
      end_date: 'Au',
      quantity: 'Conso',
      unit: 'Unite',
    };
    const first = await await service.handlers['meters.previewImport']({ fileId, mapping });
    expect(first.needsDateOrder).toBe(true);
    expect(first.valid).toBe(0);
    // Asked: day first. The mapping is remembered without being sent again.
    const second = await await service.handlers['meters.previewImport']({
      planId: first.planId,
      dateOrder: 'dmy',
    });
    expect(second.mapping.start_date).toBe('Du');
    expect(second.sample[0]).toMatchObject({ start: '2024-02-01', end: '2024-02-10', quantity: 100 });
    await service.handlers['meters.applyImport']({ planId: second.planId });
    expect((await service.handlers['meters.list']({ assetId: localId })).meters.map((m) => m.id)).toEqual([
      'E9',
    ]);
  });
});

/** A workspace whose store tells a recorder each change and its source, with the portal's CSV picked. */
function recordingSetup(name: string) {
  const { file } = tempWorkspace(name);
  const recorded: Array<{ kind: string; id: string; source: ChangeSource }> = [];
  const store = WorkspaceStore.open(`${file}-2.sqlite`, {
    recorder: {
      record: (changes, source) => {
        for (const c of changes) recorded.push({ ...c.doc, source });
      },
    },
  });
  return { ...withTower({ store, file }), recorded };
}

describe('meters through the one write path', () => {
  it('tells the cell history each derived cell with the meters and readings it came from', async () => {
    const { store, asset, fileId, service, recorded } = recordingSetup('recorded');
    const preview = await service.handlers['meters.previewImport']({ fileId });
    recorded.length = 0;
    await service.handlers['meters.applyImport']({ planId: preview.planId });
    const kinds = new Set(recorded.map((r) => r.kind));
    expect(kinds).toEqual(new Set(['meter', 'reading', 'asset', 'derived']));
    expect(recorded.filter((r) => r.kind === 'reading').map((r) => r.source)).toEqual(
      Array(4).fill({ kind: 'csv', file: 'portal.csv', import: expect.any(Number) }),
    );
    const cell = recorded.find((r) => r.kind === 'asset');
    expect(cell).toMatchObject({ id: asset.localId, source: { kind: 'meters', meters: ['E1'] } });
    expect(cell?.source.kind === 'meters' && cell.source.readings).toBeGreaterThan(0);
    store.close();
  });
});

describe('Portfolio Manager XML through the import', () => {
  it('asks for the asset, then previews and applies the meters and their consumption', async () => {
    const { service, localId, row, pick } = setup();
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<export>
<meter><id>300</id><type>Electric</type><name>Main</name><unitOfMeasure>kWh (thousand Watt-hours)</unitOfMeasure></meter>
<meterData>
  <meterConsumption estimatedValue="false"><id>1</id><startDate>2024-01-01</startDate><endDate>2024-06-30</endDate><usage>1000</usage></meterConsumption>
  <meterConsumption estimatedValue="true"><id>2</id><startDate>2024-07-01</startDate><endDate>2024-12-31</endDate><usage>1200</usage></meterConsumption>
</meterData>
</export>`;
    const first = await service.handlers['meters.previewImport']({ fileId: pick('pm.xml', xml) });
    expect(first).toMatchObject({ format: 'portfolio_manager', needsAsset: true, valid: 0 });
    const second = await service.handlers['meters.previewImport']({ planId: first.planId, asset: localId });
    expect(second).toMatchObject({ needsAsset: false, valid: 2, problems: [] });
    await service.handlers['meters.applyImport']({ planId: second.planId });
    expect(row(2024)).toMatchObject({
      en_abs_we: 2_200,
      en_data_from: '2024-01-01',
      en_data_to: '2024-12-31',
    });
    expect((await service.handlers['meters.list']({ assetId: localId })).meters.map((m) => m.id)).toEqual([
      'pm:300',
    ]);
  });
});

describe('assets the readings name and the workspace lacks', () => {
  it('are left out by default, or created with their meters and readings in the same undo step', async () => {
    const { store, service, fileId } = setup();
    const preview = await service.handlers['meters.previewImport']({ fileId });
    expect(preview.unknownAssets).toEqual(['Nowhere']);
    const applied = await service.handlers['meters.applyImport']({
      planId: preview.planId,
      createAssets: true,
    });
    expect(applied.readings).toBe(5); // the 4 of Tower and the one of Nowhere
    expect(applied.history.undo).toBe('import of readings from portal.csv, with 1 new asset');
    const nowhere = store.listAssets().find((a) => a.current?.['name'] === 'Nowhere');
    expect(nowhere).toBeDefined();
    const listing = await service.handlers['meters.list']({ assetId: nowhere!.localId });
    expect(listing.meters.map((m) => m.id)).toEqual(['Z1']);
    expect(listing.readings.map((r) => [r.start, r.end, r.quantity])).toEqual([
      ['2024-01-01', '2024-12-31', 5],
    ]);
    store.undo();
    expect(store.listAssets().some((a) => a.current?.['name'] === 'Nowhere')).toBe(false);
    expect((await service.handlers['meters.list']({})).readings).toEqual([]);
  });
});

describe('editing meters and readings in their grids', () => {
  it('recomputes every year of a meter whose area changed, shows rule problems, and refuses what is no value', async () => {
    const { service, fileId, localId, row } = setup();
    const h = service.handlers;
    const preview = await h['meters.previewImport']({ fileId });
    await h['meters.applyImport']({ planId: preview.planId });
    expect(row(2024)?.['en_cov_we']).toBe(800);

    // The meter's floor area: its coverage cells in every year move, in one step.
    const edited = await h['meters.edit']({ meters: [{ id: 'E1', field: 'areaServed', value: '850' }] });
    expect(edited.history.undo).toBe('edit of 1 meter cell');
    expect(row(2024)?.['en_cov_we']).toBe(850);
    expect(row(2025)?.['en_cov_we']).toBe(850);

    // A negative quantity is kept and shown as the rule's error in its cell.
    const listing = await h['meters.list']({ assetId: localId });
    const reading = listing.readings.find((r) => r.meterId === 'E1' && r.start === '2025-01-01')!;
    await h['meters.edit']({ readings: [{ id: reading.id, field: 'quantity', value: -5 }] });
    const after = await h['meters.list']({ assetId: localId });
    expect(after.issues).toContainEqual(
      expect.objectContaining({ rule: 'negative_quantity', readingId: reading.id, column: 'quantity' }),
    );

    // Text that is no number, a utility that isn't one, a date that isn't: refused, nothing written.
    await expect(
      Promise.resolve().then(() =>
        h['meters.edit']({ readings: [{ id: reading.id, field: 'quantity', value: 'lots' }] }),
      ),
    ).rejects.toThrow('"lots" is not a number (quantity).');
    await expect(
      Promise.resolve().then(() =>
        h['meters.edit']({ meters: [{ id: 'E1', field: 'utility', value: 'gas' }] }),
      ),
    ).rejects.toThrow(/"gas" is not a utility/);
    await expect(
      Promise.resolve().then(() =>
        h['meters.edit']({ readings: [{ id: reading.id, field: 'start', value: '31/01/2025' }] }),
      ),
    ).rejects.toThrow(/The reading's start/);
    expect(
      (await h['meters.list']({ assetId: localId })).readings.find((r) => r.id === reading.id)?.quantity,
    ).toBe(-5);
  });
});

describe("the grids' paste, fill, replace and clear", () => {
  it('labels the step by what the hand did, records it as the source, and recomputes in the same step', async () => {
    const { store, fileId, service, recorded, row } = recordingSetup('hand');
    const h = service.handlers;
    await h['meters.applyImport']({ planId: (await h['meters.previewImport']({ fileId })).planId });
    const en = () => row(2024)?.['en_abs_we'];
    // 3,100 (January's share of the straddling bill) + 33,500.
    expect(en()).toBe(36_600);
    const readings = (await h['meters.list']({})).readings.filter(
      (r) => r.meterId === 'E1' && r.start.startsWith('2024'),
    );
    const estimated = readings.find((r) => r.estimated)!;

    // A paste of two cells (the quantity as text, as the clipboard gives it, and its unit).
    recorded.length = 0;
    const pasted = await h['meters.edit']({
      readings: [
        { id: estimated.id, field: 'quantity', value: '34' },
        { id: estimated.id, field: 'unit', value: 'MWh' },
      ],
      source: 'paste',
    });
    expect(pasted.history.undo).toBe('paste of 2 meter cells');
    // The label is main's, from the source: the bridge takes none.
    const labelled = { readings: [{ id: estimated.id, field: 'unit', value: 'MWh' }], label: 'mine' };
    expect(metersArgs.edit.safeParse(labelled).success).toBe(false);
    expect(recorded.filter((r) => r.kind === 'reading').map((r) => r.source)).toEqual([{ kind: 'paste' }]);
    // Recomputed in the same step: 3,100 + 34,000.
    expect(en()).toBe(37_100);

    // A clear of "estimated" (it becomes "no"), a replace, a fill: each its own verb.
    const cleared = await h['meters.edit']({
      readings: [{ id: estimated.id, field: 'estimated', value: null }],
      source: 'clear',
    });
    expect(cleared.history.undo).toBe('clear of 1 meter cell');
    expect((await h['meters.list']({})).readings.find((r) => r.id === estimated.id)?.estimated).toBe(false);
    const replaced = await h['meters.edit']({
      readings: [{ id: estimated.id, field: 'unit', value: 'kWh' }],
      source: 'replace',
    });
    expect(replaced.history.undo).toBe('replace of 1 meter cell');
    // 34 kWh now: 3,100 + 34.
    expect(en()).toBe(3_134);
    store.undo();
    expect(en()).toBe(37_100);
    store.close();
  });
});
