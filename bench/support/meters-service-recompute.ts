/**
 * The recompute after one edited reading as the app runs it (issue 32): a workspace file on disk
 * with `assets` assets of 8 meters x 36 monthly readings, written through the meters service; then
 * one reading of one asset edited at a time through `meters.edit`: the write path's step (the
 * reading, the derived cells, their records, journalled, committed with synchronous=FULL) and, in
 * it, the recompute of that asset's touched reporting year from its meters and readings read back
 * from SQLite. The recompute alone (read + roll-up + compare) is timed too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PickedFiles } from '../../electron/files/picked-files';
import { assetMeters, figuresOf } from '../../electron/meters/meter-figures';
import { MeterStore } from '../../electron/workspace/meter-store';
import { MetersService } from '../../electron/meters/meters-service';
import { WorkspaceStore } from '../../electron/workspace/workspace-store';
import type { Meter, Reading } from '../../shared/meters/types';

export async function serviceRecompute(
  data: { meters: Meter[]; readings: Reading[] },
  assets: number,
  year: number,
  runs: number,
): Promise<{ recompute: number[]; edit: number[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-desk-bench-meters-'));
  const store = WorkspaceStore.open(join(dir, 'workspace.sqlite'));
  try {
    const service = new MetersService({
      workspace: () => store,
      files: new PickedFiles(undefined),
      idName: () => 'service_asset_id',
      assessmentYear: year + 1,
    });
    const local = new Map<string, string>();
    for (let a = 0; a < assets; a++) {
      const record = store.step('adding an asset', () =>
        store.createAsset({ name: `Bench ${a}`, annual_data: [{ year }] }),
      );
      local.set(`a${a}`, record.localId);
    }
    const byAsset = new Map<string, Meter[]>();
    for (const m of data.meters) {
      const localId = local.get(m.assetId);
      if (!localId) continue;
      const list = byAsset.get(localId) ?? [];
      list.push({ ...m, assetId: localId });
      byAsset.set(localId, list);
    }
    for (const list of byAsset.values()) {
      await service.handlers['meters.saveMeters']({ meters: list });
      const readings = data.readings
        .filter((r) => list.some((m) => m.id === r.meterId))
        .map(({ source: _s, ...r }) => r);
      await service.handlers['meters.addReadings']({ readings });
    }
    const target = local.get('a77') ?? (local.values().next().value as string);
    const { access, path } = store.meterAccess;
    const meters = new MeterStore(access, path);
    const readings = meters.readingsOf(meters.meters(target).map((m) => m.id));
    const recompute: number[] = [];
    const edit: number[] = [];
    for (let i = 0; i < runs; i++) {
      const reading = readings[i % readings.length]!;
      let t0 = performance.now();
      await service.handlers['meters.edit']({
        readings: [{ id: reading.id, field: 'quantity', value: reading.quantity + 1 + i }],
      });
      edit.push(performance.now() - t0);
      t0 = performance.now();
      figuresOf(
        assetMeters(meters, target, store.asset(target)?.current ?? null),
        meters.derived(target),
        12,
        [year],
      );
      recompute.push(performance.now() - t0);
    }
    return { recompute, edit };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
