/**
 * The Meters tab's commands: cell edits (typed, pasted as one step), deletes, new meters and
 * readings; each is one undo step in main, and its answer refreshes the listing and the derived
 * cells (`afterWrite`).
 */
import type { GridApi } from 'ag-grid-community';
import type { MetersArgsOf } from './meters-types';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { notify } from '../store/ui';
import { parseTsv } from '../editing/tsv';
import { afterWrite } from './meters-store';

type CellEdit = { id: string; field: string; value: string | number | boolean | null };

async function run(what: string, call: () => Promise<Parameters<typeof afterWrite>[0]>): Promise<void> {
  try {
    await afterWrite(await call());
  } catch (error) {
    notify('error', `${what}: ${errorMessage(error)}`);
  }
}

export function editMeterCells(
  kind: 'meters' | 'readings',
  edits: CellEdit[],
  label?: string,
): Promise<void> {
  const args = { [kind]: edits, ...(label ? { label } : {}) } as MetersArgsOf<'meters.edit'>;
  return run('Not changed', () => bridge.methods['meters.edit'](args));
}

export function deleteMeterRows(meterIds: string[], readingIds: string[]): Promise<void> {
  return run('Not deleted', () => bridge.methods['meters.delete']({ meterIds, readingIds }));
}

export function addMeter(meter: MetersArgsOf<'meters.saveMeters'>['meters'][number]): Promise<void> {
  return run('Meter not added', () => bridge.methods['meters.saveMeters']({ meters: [meter] }));
}

export function addReading(meterId: string, unit: string): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  return run('Reading not added', () =>
    bridge.methods['meters.addReadings']({
      readings: [{ meterId, start: today, end: today, quantity: 0, unit, estimated: false }],
    }),
  );
}

/**
 * Pasted text (from Excel) into the grid from its focused cell, right and down over the editable
 * columns, as one step; rows past the end are left out (new readings come from the import).
 */
export function pasteIntoMeterGrid<T extends { id: string }>(
  api: GridApi<T>,
  kind: 'meters' | 'readings',
  text: string,
): void {
  const focused = api.getFocusedCell();
  if (!focused) return;
  const columns = api.getAllDisplayedColumns();
  const start = columns.indexOf(focused.column);
  const edits: CellEdit[] = [];
  parseTsv(text).forEach((cells, r) => {
    const row = api.getDisplayedRowAtIndex(focused.rowIndex + r)?.data;
    if (!row) return;
    cells.forEach((value, c) => {
      const column = columns[start + c];
      const field = (column?.getColDef().context as { meterField?: string } | undefined)?.meterField;
      if (field) edits.push({ id: row.id, field, value });
    });
  });
  if (edits.length > 0)
    void editMeterCells(
      kind,
      edits,
      `paste of ${edits.length} ${edits.length === 1 ? 'meter cell' : 'meter cells'}`,
    );
}
