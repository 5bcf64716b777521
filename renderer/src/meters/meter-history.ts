/**
 * A Meters tab cell's history, opened as an asset cell's is (Alt+H, or the cell menu on a right
 * click; `history/CellHistoryPanel.tsx`). Meters and readings are documents of main's one write path,
 * so the cell history keeps each of their fields by its own id and field name
 * (`workspace.meterCellHistory`): the columns `meters.edit` writes have one. The others (an id, the
 * asset, the reading count, a reading's source) are no such cell and open none.
 */
import type { Column } from 'ag-grid-community';
import type { MeterCell } from '../../../shared/history/bridge-args';
import { meterFields, readingFields } from '../../../shared/meters/bridge-args';
import type { MeterView, ReadingView } from '../../../shared/meters/views';
import type { CellTarget } from '../history/cell-history-ui';

/** The field a Meters tab column edits (`context.cell`, meters-columns.ts), and its header. */
function columnField(column: Column | null | undefined): { field: string; header: string } | null {
  const def = column?.getColDef();
  const field = (def?.context as { cell?: { field?: string } } | undefined)?.cell?.field;
  return field ? { field, header: def?.headerName ?? field } : null;
}

const isOneOf = <F extends string>(list: readonly F[], field: string): field is F =>
  (list as readonly string[]).includes(field);

function target(cell: MeterCell, title: string): CellTarget {
  return { meterCell: cell, title };
}

/** "Meter Main gas · Unit"; null for a column that is no cell of the meter's. */
export function meterCellTarget(row: MeterView | undefined, column: Column | null | undefined) {
  const of = columnField(column);
  if (!row || !of || !isOneOf(meterFields, of.field)) return null;
  return target({ kind: 'meter', id: row.id, field: of.field }, `Meter ${row.name || row.id} · ${of.header}`);
}

/** "G1 reading, 2024-01-01 to 2024-01-31 · Quantity"; null for a column that is no cell of it. */
export function readingCellTarget(row: ReadingView | undefined, column: Column | null | undefined) {
  const of = columnField(column);
  if (!row || !of || !isOneOf(readingFields, of.field)) return null;
  return target(
    { kind: 'reading', id: row.id, field: of.field },
    `${row.meterId} reading, ${row.start} to ${row.end} · ${of.header}`,
  );
}
