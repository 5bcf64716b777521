/**
 * The Meters tab's commands: cell edits (typed, pasted as one step), deletes, new meters and
 * readings; each is one undo step in main, and its answer refreshes the listing and the derived
 * cells (`afterWrite`).
 */
import type { MetersArgsOf } from './meters-types';
import type { HandSourceKind } from '../../../shared/history/change-source';
import type { Scalar } from '../../../shared/sync/asset-doc';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { notify } from '../store/ui';
import { afterWrite } from './meters-store';

type CellEdit = { id: string; field: string; value: Scalar };

/** Runs a meters write and shows its outcome; false when main refused it (nothing was written). */
async function run(what: string, call: () => Promise<Parameters<typeof afterWrite>[0]>): Promise<boolean> {
  try {
    await afterWrite(await call());
    return true;
  } catch (error) {
    notify('error', `${what}: ${errorMessage(error)}`);
    return false;
  }
}

/**
 * Cells of the Meters or Readings grid, as one step in main, labelled there by what the hand did
 * (`how`: typed, paste, fill, replace, clear: "paste of 6 meter cells").
 */
export function editMeterCells(
  kind: 'meters' | 'readings',
  edits: readonly CellEdit[],
  how: HandSourceKind,
): Promise<boolean> {
  const args = { [kind]: edits, source: how } as MetersArgsOf<'meters.edit'>;
  return run('Not changed', () => bridge.methods['meters.edit'](args));
}

export function deleteMeterRows(meterIds: string[], readingIds: string[]): Promise<boolean> {
  return run('Not deleted', () => bridge.methods['meters.delete']({ meterIds, readingIds }));
}

export function addMeter(meter: MetersArgsOf<'meters.saveMeters'>['meters'][number]): Promise<boolean> {
  return run('Meter not added', () => bridge.methods['meters.saveMeters']({ meters: [meter] }));
}

export function addReading(meterId: string, unit: string): Promise<boolean> {
  const today = new Date().toISOString().slice(0, 10);
  return run('Reading not added', () =>
    bridge.methods['meters.addReadings']({
      readings: [{ meterId, start: today, end: today, quantity: 0, unit, estimated: false }],
    }),
  );
}
