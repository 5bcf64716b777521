/**
 * The grid as the editing commands read it, by display position (what the analyst sees, after sort
 * and filter): the data columns shown, the row at an index, the indexes of the selected rows.
 */
import type { Column, GridApi } from 'ag-grid-community';
import { editingOf, type EditColumn } from './grid-editing';

export interface DisplayedDataColumn<R> {
  column: Column;
  data: EditColumn<R>;
}

/** Displayed columns left to right, without the ones that hold no field (selection, status). */
export function dataColumns<R>(api: GridApi<R>): DisplayedDataColumn<R>[] {
  const editing = editingOf(api);
  const out: DisplayedDataColumn<R>[] = [];
  if (!editing) return out;
  for (const column of api.getAllDisplayedColumns()) {
    const data = editing.column(column);
    if (data) out.push({ column, data });
  }
  return out;
}

export function rowAt<R>(api: GridApi<R>, index: number): R | undefined {
  return api.getDisplayedRowAtIndex(index)?.data;
}

/** Display indexes of the selected rows, top to bottom. */
export function selectedIndexes<R>(api: GridApi<R>): number[] {
  return api
    .getSelectedNodes()
    .map((node) => node.rowIndex)
    .filter((i): i is number => i !== null && i !== undefined)
    .sort((a, b) => a - b);
}
