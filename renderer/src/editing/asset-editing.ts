/**
 * The asset grids' editing model (`grid-editing.ts`): a cell is a document path of the row's asset
 * (`pathOf`), read with a value being saved first (`currentValue`) and written through `editCells`
 * (one `workspace.edit`, one undo step in main); a paste past the last row makes new assets.
 */
import type { Column } from 'ag-grid-community';
import { dataColumnOf, type DataColumnContext } from '../grid-model/data-column';
import { isRowEditable, pathOf, type GridRow } from '../grid-model/rows';
import { notify } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import { confirmLargePaste, plural, skippedNote } from './clipboard';
import { createAssetsWithEdits, currentValue, editCells, type Edit } from './commands';
import type { CellWrite, EditColumn, GridEditing, GrowPaste } from './grid-editing';

/** How a grid grows when a paste runs past its last row. */
export interface GrowSpec {
  /** The path a column's field is written to on a new row (created as a new asset). */
  pathFor(field: string, lastRow: GridRow | undefined): string;
}

// One per column's context, not one per cell drawn (a range's class rule reads the columns per cell).
const columns = new WeakMap<DataColumnContext, EditColumn<GridRow>>();

function editColumnOf(column: Column): EditColumn<GridRow> | undefined {
  const data = dataColumnOf(column);
  if (!data) return undefined;
  let out = columns.get(data);
  if (!out) {
    const field = data.spec.field;
    out = {
      field,
      editable: data.spec.editable,
      value: (row) => currentValue(row.localId, pathOf(row, field)),
      format: (value) => data.format(value),
      parse: (text) => data.parse(text),
    };
    columns.set(data, out);
  }
  return out;
}

const editsOf = (cells: readonly CellWrite<GridRow>[]): Edit[] =>
  cells.map((c) => ({ localId: c.row.localId, path: pathOf(c.row, c.column.field), value: c.value }));

/** `grow`: where a paste's new rows' fields go (none: the grid does not grow). */
export function assetEditing(grow: () => GrowSpec | undefined): GridEditing<GridRow> {
  return {
    column: editColumnOf,
    rowEditable: (row) => isRowEditable(row),
    write: (cells, how) => editCells(editsOf(cells), how),
    grow: () => {
      const spec = grow();
      return spec && newAssetsPaste(spec);
    },
    onChange: (listener) =>
      useWorkspace.subscribe((s, prev) => {
        if (s.revision !== prev.revision) listener();
      }),
  };
}

/**
 * Rows pasted past the end become new assets, with the cells of existing rows, in one step. An asset
 * needs its name: a pasted row without one is not created (it would be a nameless asset the service
 * refuses), and the analyst is told how many were left out.
 */
function newAssetsPaste(spec: GrowSpec): GrowPaste<GridRow> {
  return (newRows, cells, lastRow, skippedCells) => {
    const edits = editsOf(cells);
    const count = cells.length + newRows.reduce((n, row) => n + row.length, 0);
    const skipped = skippedNote(skippedCells);
    const named = newRows.filter((row) =>
      row.some((c) => c.field === 'name' && typeof c.value === 'string' && c.value.trim() !== ''),
    );
    const nameless = newRows.length - named.length;
    const rows = named.map((row) => ({
      fields: Object.fromEntries(row.filter((c) => c.field === 'name').map((c) => [c.field, c.value])),
      edits: row
        .filter((c) => c.field !== 'name')
        .map((c) => ({ path: spec.pathFor(c.field, lastRow), value: c.value })),
    }));
    const left = nameless > 0 ? `; ${plural(nameless, 'row')} without a name not created` : '';
    if (rows.length === 0) {
      if (edits.length > 0) void editCells(edits, 'paste');
      notify('warning', `No new assets: every pasted row past the end lacks a name${skipped}`);
      return;
    }
    if (!confirmLargePaste(rows.length, count)) return;
    if (rows.length > 50) notify('info', `Pasting ${plural(rows.length, 'new asset')}…`);
    void createAssetsWithEdits(rows, edits, 'paste').then((ok) => {
      if (ok)
        notify('info', `Pasted ${plural(count, 'cell')}, ${plural(rows.length, 'new row')}${skipped}${left}`);
    });
  };
}
