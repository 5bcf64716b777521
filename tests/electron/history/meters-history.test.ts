/**
 * Meters through the cell history (issues 31, 32) over a real workspace file and its own recorder:
 * a readings CSV imported, the derived annual cell's history says "from 1 meter (2 readings)"; the
 * meter, reading and derived documents are recorded without error; undo and a restart keep it.
 */
import { describe, expect, it } from 'vitest';
import { historyService } from '../../../electron/history/history-service';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { sourceInWords } from '../../../shared/history/source-words';
import { metersRig } from '../../support/meters-rig';

const csvText = [
  'Meter ID,Meter Name,Asset Name,Utility,Space,Area Served,Start Date,End Date,Quantity,Unit,Estimated',
  'E1,Main electricity,Tower,Electricity,Whole building,800,2024-01-01,2024-06-30,1000,kWh,A',
  'E1,Main electricity,Tower,Electricity,Whole building,800,2024-07-01,2024-12-31,1200,kWh,A',
].join('\r\n');

describe('meters in the cell history', () => {
  it('a derived annual cell reads "from 1 meter (2 readings)", after undo and a restart too', async () => {
    const { store, file, asset, service: meters, pick } = metersRig({ workspace: 'meters-history' });
    const fileId = pick('readings.csv', csvText);
    const preview = await meters.handlers['meters.previewImport']({ fileId });
    expect(preview.valid).toBe(2);
    await meters.handlers['meters.applyImport']({ planId: preview.planId });
    const path = 'annual_data/2024/en_abs_we';

    const history = historyService({ store: () => store }).handlers;
    const entries = await history['workspace.cellHistory']({ localId: asset.localId, path });
    expect(entries.map((e) => [e.value, e.previous, e.source.kind])).toEqual([[2_200, null, 'meters']]);
    const [derived] = entries;
    if (!derived || derived.source.kind !== 'meters') throw new Error('no meters entry');
    expect(derived.source.meters).toHaveLength(1);
    expect(derived.source.readings).toBe(2);
    expect(sourceInWords(derived.source)).toBe('from 1 meter (2 readings)');

    // The meters' own documents are in the history too (their cells, each from the CSV).
    const meterId = derived.source.meters[0]!;
    const meterRow = store.cells.access
      .sql(
        'SELECT d.kind, s.json FROM cell_docs d JOIN change_sources s ON s.id = d.origin_source WHERE d.ref = ?',
      )
      .get(meterId) as { kind: string; json: string } | undefined;
    expect(meterRow?.kind).toBe('meter');
    const kinds = store.cells.access.sql('SELECT DISTINCT kind FROM cell_docs ORDER BY kind').pluck().all();
    expect(kinds).toEqual(expect.arrayContaining(['derived', 'meter', 'reading']));

    // Undo takes the derived value back: the history says so; a restart keeps it all.
    expect(store.undo()?.label).toMatch(/readings\.csv/);
    const undone = await history['workspace.cellHistory']({ localId: asset.localId, path });
    expect(undone.map((e) => [e.value, e.previous, e.source.kind])).toEqual([
      [null, 2_200, 'undo'],
      [2_200, null, 'meters'],
    ]);
    store.close();
    const reopened = WorkspaceStore.open(file);
    const again = historyService({ store: () => reopened }).handlers;
    const kept = await again['workspace.cellHistory']({ localId: asset.localId, path });
    expect(kept.map((e) => sourceInWords(e.source))).toEqual(['undone', 'from 1 meter (2 readings)']);
    reopened.close();
  });
});
