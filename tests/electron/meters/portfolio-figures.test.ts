/**
 * The figures of a portfolio (`meters.figures` for many assets) read by a worker thread on a
 * read-only connection of its own (electron/meters/portfolio-figures.ts): the same cells and
 * warnings, in the same order, as reading them on main; and that connection writes nothing.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metersServiceOver } from '../../support/meters-service';
import { figuresEach, OFF_MAIN_FROM } from '../../../electron/meters/portfolio-figures';
import { MeterStore } from '../../../electron/workspace/meter-store';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { tempWorkspace } from '../../../support/sync-harness';

const ASSETS = OFF_MAIN_FROM + 20;

/** `ASSETS` assets, each with an electricity meter of 14 monthly bills (Dec 2023 .. Jan 2025). */
async function portfolio() {
  const { store, file } = tempWorkspace('portfolio-figures');
  const ids: string[] = [];
  store.step('adding assets', () => {
    for (let a = 0; a < ASSETS; a++)
      ids.push(store.createAsset({ name: `Asset ${a}`, annual_data: [{ year: 2024 }] }).localId);
  });
  const rows = ['Meter ID,Asset Name,Utility,Space,Start Date,End Date,Quantity,Unit,Estimated'];
  for (let a = 0; a < ASSETS; a++)
    for (let m = 0; m < 14; m++) {
      const start = new Date(Date.UTC(2023, 11 + m, 1));
      const end = new Date(Date.UTC(2023, 12 + m, 0));
      const day = (d: Date) => d.toISOString().slice(0, 10);
      // A negative bill on every 7th asset: its figures are held back with a warning.
      const quantity = a % 7 === 3 && m === 5 ? -10 : 100 + a + m;
      rows.push(`E${a},Asset ${a},Electricity,Whole building,${day(start)},${day(end)},${quantity},kWh,no`);
    }
  const csv = join(dirname(file), 'readings.csv');
  writeFileSync(csv, rows.join('\n'));
  const { service, pickPath } = metersServiceOver(store);
  const fileId = pickPath(csv);
  const preview = await service.handlers['meters.previewImport']({ fileId });
  await service.handlers['meters.applyImport']({ planId: preview.planId });
  return { store, file, ids, service };
}

describe('a portfolio’s meter figures', () => {
  it('are read by a worker thread as main would read them', async () => {
    const { store, ids, service } = await portfolio();
    try {
      // Asked for out of order, with an asset that is not there: skipped, as on main.
      const asked = [...ids.slice(60), 'no-such-asset', ...ids.slice(0, 60)];
      const offMain = await service.handlers['meters.figures']({ assetIds: asked });
      const { access, path } = store.meterAccess;
      const meters = new MeterStore(access, path);
      const onMain = { cells: [] as unknown[], warnings: [] as unknown[] };
      for (const one of figuresEach(store, meters, {
        assetIds: asked,
        years: undefined,
        month: 12,
        accepted: { min: 2020, max: 2025 },
      })) {
        onMain.cells.push(...one.cells);
        onMain.warnings.push(...one.warnings);
      }
      // 2024 and 2025 (Jan 2025's 31 days make its row) for each asset: more than a chunk's worth.
      expect(offMain.cells.length).toBeGreaterThan(ASSETS * 2);
      expect(offMain.cells.some((c) => c.heldBack)).toBe(true);
      expect(offMain).toEqual(onMain);
      // The 2024 electricity of asset 0: 12 bills of 101..112 kWh = 1278 kWh.
      expect(
        offMain.cells.find((c) => c.localId === ids[0] && c.year === 2024 && c.field === 'en_abs_we'),
      ).toMatchObject({ derived: 1278, state: 'same' });
    } finally {
      store.close();
    }
  });

  it('come through a connection that refuses any write', () => {
    const { store, file } = tempWorkspace('portfolio-figures-read-only');
    store.close();
    const reader = WorkspaceStore.open(file, { readOnly: true });
    try {
      expect(reader.listAssets()).toEqual([]);
      expect(() => reader.createAsset({ name: 'Tower' })).toThrow(/readonly|read-only|query_only/i);
    } finally {
      reader.close();
    }
  });
});
