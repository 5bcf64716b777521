/**
 * What the editing commands (ranges, copy and paste, fill, clear, find and replace) need of a grid,
 * whatever its rows are: the asset grids' rows of documents (`asset-editing.ts`) or the Meters tab's
 * meters and readings (`meters/meter-editing.ts`). The grid carries its model in AG Grid's `context`
 * option, so every command (and a cell's class rule, which has only the API) finds it from the API.
 * The commands are written once, over this; each grid says how its cells read and where they write.
 */
import type { Column, GridApi } from 'ag-grid-community';
import type { HandSourceKind } from '../../../shared/history/change-source';
import type { Scalar } from '../../../shared/sync/asset-doc';

/** A column that holds a field: how its value reads, shows as text and comes back from text. */
export interface EditColumn<R> {
  /** The field the column shows and an edit writes. */
  field: string;
  /** False for a read-only column: paste, fill, clear and replace leave its cells alone. */
  editable: boolean;
  /** False when the field can't be empty (a reading's quantity): a clear leaves it. Default true. */
  clearable?: boolean;
  /** The value the cell holds now (a value being saved wins). */
  value(row: R): Scalar;
  /** The value as the cell shows it, and so as it is copied and searched. */
  format(value: unknown): string;
  /** Pasted or replaced text as the value written. */
  parse(text: string): Scalar;
}

export interface CellWrite<R> {
  row: R;
  column: EditColumn<R>;
  value: Scalar;
}

/** A row a paste makes past the grid's last row: its fields as pasted. */
export type NewRowCells = Array<{ field: string; value: Scalar }>;

/**
 * Writes a paste that runs past the last row: the cells of existing rows and the new rows, as one
 * step (`skipped`: read-only cells the paste stepped over, for the message).
 */
export type GrowPaste<R> = (
  newRows: NewRowCells[],
  cells: CellWrite<R>[],
  lastRow: R | undefined,
  skipped: number,
) => void;

export interface GridEditing<R> {
  /** The column's field and how it reads and writes; undefined for one that holds none (tick box). */
  column(column: Column): EditColumn<R> | undefined;
  /** False for a row no edit may touch (a deleted asset's). */
  rowEditable(row: R | undefined): boolean;
  /** Writes the cells as one undo step, labelled by what the hand did; false when it was refused. */
  write(cells: readonly CellWrite<R>[], how: HandSourceKind): Promise<boolean>;
  /** How rows past the end of a paste are made; undefined when this grid does not grow (they are dropped). */
  grow(): GrowPaste<R> | undefined;
  /** Calls `listener` when the grid's values change (the find bar counts again); answers the unsubscribe. */
  onChange(listener: () => void): () => void;
}

/** What a grid puts in AG Grid's `context` option. */
export interface EditingContext<R> {
  editing: GridEditing<R>;
}

/** The grid's editing model (undefined for a grid without one). */
export function editingOf<R>(api: GridApi<R>): GridEditing<R> | undefined {
  const context = api.getGridOption('context') as Partial<EditingContext<R>> | undefined;
  return context?.editing;
}
