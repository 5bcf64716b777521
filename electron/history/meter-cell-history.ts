/**
 * A Meters tab cell's history (`workspace.meterCellHistory`). Meters and readings are documents of
 * the write path (kinds `meter`, `reading`: workspace/meter-document.ts), so the cell history keeps
 * each of their fields as a cell of its own, by the field's name, with its source (typed, pasted,
 * from a readings file, undone ...), as it keeps an asset's. A meter's energy content is one field
 * there (`energyContent`, its kWh and the unit they are per): its column's cell reads its part.
 */
import type { CellHistoryEntry } from '../../shared/history/change-source';
import type { MeterCell } from '../../shared/history/bridge-args';
import { cellsOf } from '../workspace/cell-values';
import { MeterStore } from '../workspace/meter-store';
import type { WorkspaceStore } from '../workspace/workspace-store';

const energyContentParts: Partial<Record<string, 'kwh' | 'per'>> = {
  energyContentKwh: 'kwh',
  energyContentPer: 'per',
};

/** The recorded field a column's cell is, and how the cell's value reads from that field's. */
function recordedField(field: string): { path: string; read: (value: unknown) => unknown } {
  const part = energyContentParts[field];
  if (!part) return { path: field, read: (value) => value };
  return {
    path: 'energyContent',
    // Recorded as the object's JSON text (cell-values.ts): its part, or none.
    read: (value) => {
      if (typeof value !== 'string') return value;
      try {
        const parsed = JSON.parse(value) as Record<string, unknown> | null;
        const got = parsed?.[part];
        return typeof got === 'string' || typeof got === 'number' ? got : null;
      } catch {
        return value;
      }
    },
  };
}

export function meterCellHistory(store: WorkspaceStore, cell: MeterCell): CellHistoryEntry[] {
  const { access, path: writePath } = store.meterAccess;
  const meters = new MeterStore(access, writePath);
  const image = cell.kind === 'meter' ? meters.meter(cell.id) : meters.reading(cell.id);
  const { path, read } = recordedField(cell.field);
  const current = cellsOf(cell.kind, image ?? null).get(path) ?? null;
  // A change of the energy content's other part is no change of this cell's.
  return store.cells
    .entries({ kind: cell.kind, id: cell.id }, path, current)
    .map((entry) => ({ ...entry, value: read(entry.value), previous: read(entry.previous) }))
    .filter((entry) => entry.value !== entry.previous);
}
