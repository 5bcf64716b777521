/**
 * The grid as the editing commands read it, by display position (what the analyst sees, after sort
 * and filter): the data columns shown, the row at an index, the indexes of the selected rows.
 */
import type { Column, GridApi } from 'ag-grid-community';
import { dataColumnOf, type DataColumnContext } from '../grid-model/data-column';
import type { GridRow } from '../grid-model/rows';

export interface DisplayedDataColumn {
  column: Column;
  data: DataColumnContext;
}

/** Displayed columns left to right, without the ones that hold no field (selection, status). */
export function dataColumns(api: GridApi<GridRow>): DisplayedDataColumn[] {
  const out: DisplayedDataColumn[] = [];
  for (const column of api.getAllDisplayedColumns()) {
    const data = dataColumnOf(column);
    if (data) out.push({ column, data });
  }
  return out;
}

export function rowAt(api: GridApi<GridRow>, index: number): GridRow | undefined {
  return api.getDisplayedRowAtIndex(index)?.data;
}

/** Display indexes of the selected rows, top to bottom. */
export function selectedIndexes(api: GridApi<GridRow>): number[] {
  return api
    .getSelectedNodes()
    .map((node) => node.rowIndex)
    .filter((i): i is number => i !== null && i !== undefined)
    .sort((a, b) => a - b);
}
