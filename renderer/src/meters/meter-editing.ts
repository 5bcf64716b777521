/**
 * The Meters and Readings grids' editing model (`editing/grid-editing.ts`), so they take the asset
 * grids' ranges, copy and paste, fill, clear, find and replace as they are: a cell is a field of a
 * meter or reading (`context.cell` of its column, `meters-columns.ts`), written through `meters.edit`
 * (one undo step in main, which recomputes the derived annual figures in the same step). A paste past
 * the last row makes nothing: new readings come from the import or "Add reading".
 */
import type { Column } from 'ag-grid-community';
import type { EditColumn, GridEditing } from '../editing/grid-editing';
import { editMeterCells } from './meters-edits';
import { useMeters } from './meters-store';

export function meterEditing<T extends { id: string }>(kind: 'meters' | 'readings'): GridEditing<T> {
  return {
    column: (column: Column) => (column.getColDef().context as { cell?: EditColumn<T> } | undefined)?.cell,
    rowEditable: (row) => row !== undefined,
    write: (cells, how) =>
      editMeterCells(
        kind,
        cells.map((c) => ({ id: c.row.id, field: c.column.field, value: c.value })),
        how,
      ),
    grow: () => undefined,
    onChange: (listener) =>
      useMeters.subscribe((s, prev) => {
        if (s.listing !== prev.listing) listener();
      }),
  };
}
