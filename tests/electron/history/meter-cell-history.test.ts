/**
 * A Meters tab cell's history (`workspace.meterCellHistory`) over a real workspace file: a reading's
 * quantity from a readings CSV, typed over, pasted over and undone; a meter's name and energy
 * content (one field in the history, its kWh read out of it); a cell of a reading deleted since.
 */
import { describe, expect, it } from 'vitest';
import { historyService } from '../../../electron/history/history-service';
import { historyArgs } from '../../../shared/history/bridge-args';
import { sourceInWords } from '../../../shared/history/source-words';
import { metersRig } from '../../support/meters-rig';

const csvText = [
  'Meter ID,Meter Name,Asset Name,Utility,Space,Area Served,Start Date,End Date,Quantity,Unit,Estimated',
  'G1,Boiler gas,Tower,Fuel,Whole building,800,2024-01-01,2024-06-30,1000,kWh,A',
  'G1,Boiler gas,Tower,Fuel,Whole building,800,2024-07-01,2024-12-31,1200,kWh,A',
].join('\r\n');

describe("a Meters tab cell's history", () => {
  it('reads a reading and a meter cell by their own ids and fields, newest first, in words', async () => {
    const { store, h, pick } = metersRig({ workspace: 'meter-cell-history' });
    await h['meters.applyImport']({
      planId: (await h['meters.previewImport']({ fileId: pick('readings.csv', csvText) })).planId,
    });
    const history = historyService({ store: () => store }).handlers['workspace.meterCellHistory'];
    const [first] = (await h['meters.list']({})).readings.filter((r) => r.start === '2024-01-01');
    const words = (entries: Awaited<ReturnType<typeof history>>) =>
      entries.map((e) => [e.value, e.previous, sourceInWords(e.source)]);

    await h['meters.edit']({ readings: [{ id: first!.id, field: 'quantity', value: '1100' }] });
    await h['meters.edit']({
      readings: [{ id: first!.id, field: 'quantity', value: '1150' }],
      source: 'paste',
    });
    store.undo();
    const quantity = await history({ kind: 'reading', id: first!.id, field: 'quantity' });
    expect(words(quantity)).toEqual([
      [1_100, 1_150, 'undone'],
      [1_150, 1_100, 'pasted from the clipboard'],
      [1_100, 1_000, 'typed'],
      [1_000, null, 'from readings.csv'],
    ]);

    await h['meters.edit']({ meters: [{ id: 'G1', field: 'name', value: 'Boiler' }] });
    expect(words(await history({ kind: 'meter', id: 'G1', field: 'name' }))).toEqual([
      ['Boiler', 'Boiler gas', 'typed'],
      ['Boiler gas', null, 'from readings.csv'],
    ]);
    // The energy content is one field of the meter: its column's cell reads its kWh.
    await h['meters.edit']({ meters: [{ id: 'G1', field: 'energyContentKwh', value: '10.5' }] });
    await h['meters.edit']({ meters: [{ id: 'G1', field: 'energyContentKwh', value: '10.6' }] });
    expect(words(await history({ kind: 'meter', id: 'G1', field: 'energyContentKwh' }))).toEqual([
      [10.6, 10.5, 'typed'],
      [10.5, null, 'typed'],
    ]);
    expect(words(await history({ kind: 'meter', id: 'G1', field: 'energyContentPer' }))).toEqual([
      ['kWh', null, 'typed'],
    ]);

    // A reading deleted since: its history stays, the last entry its removal.
    await h['meters.delete']({ readingIds: [first!.id] });
    const gone = await history({ kind: 'reading', id: first!.id, field: 'quantity' });
    expect(words(gone)[0]).toEqual([null, 1_100, 'typed']);

    // A field of the other kind is refused before a handler sees it.
    expect(
      historyArgs.meterCellHistory.safeParse({ kind: 'meter', id: 'G1', field: 'quantity' }).success,
    ).toBe(false);
    store.close();
  });
});
