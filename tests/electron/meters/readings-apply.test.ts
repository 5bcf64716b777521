/**
 * The readings import written by a worker thread (electron/meters/readings-apply.ts) on its own
 * connection to a real workspace file: main refuses writes and sees the workspace as before while
 * it runs, the import is one undo step once done, and a process killed while the worker writes
 * leaves no part of the import in the file.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MeterStore } from '../../../electron/workspace/meter-store';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { tempWorkspace } from '../../../support/sync-harness';
import { metersServiceOver } from '../../support/meters-service';
import { monthlyReadingsCsv } from './fixtures/readings-csv';

const child = fileURLToPath(new URL('./fixtures/import-child.ts', import.meta.url));

/** A workspace file with the asset Tower, and a readings CSV of `meters` x 120 monthly bills beside it. */
function workspaceWithCsv(name: string, meters: number) {
  const { store, file } = tempWorkspace(name);
  const asset = store.step('adding an asset', () =>
    store.createAsset({ name: 'Tower', annual_data: [{ year: 2024 }] }),
  );
  const { csv, readings } = monthlyReadingsCsv(meters, 120);
  const path = join(dirname(file), 'readings.csv');
  writeFileSync(path, csv);
  return { store, file, asset, path, readings };
}

const counts = (store: WorkspaceStore) => {
  const { access, path } = store.meterAccess;
  const meters = new MeterStore(access, path);
  return { meters: meters.meters().length, readings: meters.readingCount() };
};

describe('a readings import written by a worker thread', () => {
  it('refuses main its writes while it runs, shows the workspace as before, then is one undo step', async () => {
    const { store, asset, path, readings } = workspaceWithCsv('apply-worker', 20);
    expect(store.writableElsewhere).toBe(true);
    const { service, pickPath } = metersServiceOver(store);
    const fileId = pickPath(path, 'readings.csv');
    const preview = await service.handlers['meters.previewImport']({ fileId });
    expect(preview.valid).toBe(readings);

    const applying = service.handlers['meters.applyImport']({ planId: preview.planId });
    expect(() => store.step('edit of 1 cell', () => store.setValue(asset.localId, 'city', 'Gouda'))).toThrow(
      /still being written/,
    );
    expect(() => store.setMeta('meters.importMapping', '{}')).toThrow(/still being written/);
    // Reads go on, on the workspace as it was before the import.
    expect(counts(store)).toEqual({ meters: 0, readings: 0 });
    expect(store.historyState().undo).toBe('adding an asset');

    const result = await applying;
    expect(result).toMatchObject({ meters: 20, readings });
    expect(result.history.undo).toBe(`import of ${readings} readings from readings.csv`);
    expect(counts(store)).toEqual({ meters: 20, readings });
    // The derived cell of 2024: 20 meters x 12 bills of 2024 (the 10th year: 208..219 kWh each).
    const row = (store.asset(asset.localId)?.current?.['annual_data'] as Array<Record<string, unknown>>).find(
      (r) => r['year'] === 2024,
    );
    expect(row?.['en_abs_we']).toBe(20 * (208 + 219) * 6);
    expect(store.imports.recent(1)[0]).toMatchObject({ kind: 'readings', cells: readings });

    // Main writes again, and the import undoes as one step.
    store.step('edit of 1 cell', () => store.setValue(asset.localId, 'city', 'Gouda'));
    store.undo();
    expect(store.undo()?.label).toBe(`import of ${readings} readings from readings.csv`);
    expect(counts(store)).toEqual({ meters: 0, readings: 0 });
    store.close();
  });

  it(
    'killed while the worker writes, leaves nothing of the import in the file',
    { timeout: 60_000 },
    async () => {
      const { store, file, path, readings } = workspaceWithCsv('apply-killed', 60);
      store.close();
      const wal = `${file}-wal`;
      const lines = await new Promise<string[]>((resolve, reject) => {
        const proc = spawn(process.execPath, ['--import', 'tsx', child, file, path], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const out: string[] = [];
        let stderr = '';
        let watch: NodeJS.Timeout | undefined;
        proc.stdout.on('data', (chunk: Buffer) => {
          out.push(...chunk.toString().split('\n').filter(Boolean));
          if (!out.includes('applying') || watch) return;
          // Killed once the worker's transaction has grown the log by 1 MB (of several): mid-write.
          const from = existsSync(wal) ? statSync(wal).size : 0;
          watch = setInterval(() => {
            if (existsSync(wal) && statSync(wal).size > from + 1024 * 1024) proc.kill('SIGKILL');
          }, 2);
        });
        proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        proc.on('error', reject);
        proc.on('exit', (code, signal) => {
          clearInterval(watch);
          if (signal !== 'SIGKILL') reject(new Error(`child was not killed (${code}): ${stderr}`));
          else resolve(out);
        });
      });
      expect(lines).toContain('applying');
      expect(lines).not.toContain('done');

      const reopened = WorkspaceStore.open(file);
      expect(counts(reopened)).toEqual({ meters: 0, readings: 0 });
      expect(reopened.historyState().undo).toBe('adding an asset');
      expect(reopened.imports.recent(5).filter((r) => r.kind === 'readings')).toEqual([]);
      expect(readings).toBe(7200);
      reopened.close();
    },
  );
});
