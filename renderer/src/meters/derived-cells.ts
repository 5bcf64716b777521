/**
 * The annual grid's derived cells: a cell meters wrote shows as derived, with how it was made on
 * hover ("12 readings from 3 meters, 8 % estimated"); one the analyst typed over shows as their
 * override, kept through recomputes. Used by the column definitions (grids/ag-columns.ts).
 */
import { gridApi } from '../grids/registry';
import { markAt, useMeters } from './meters-store';

export type DerivedState = 'derived' | 'override' | null;

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  return a === b;
}

/** Whether meters wrote any of the asset's cells: most assets have none, and their cells ask no more. */
export function hasDerivedCells(localId: string): boolean {
  return useMeters.getState().marks.has(localId);
}

/** Whether the cell at `path` of the asset holds what meters wrote, the analyst's override, or neither. */
export function derivedState(localId: string, path: string, value: unknown): DerivedState {
  const mark = markAt(localId, path);
  if (!mark) return null;
  // Held back before meters ever wrote it: the value in the cell is not theirs.
  if (mark.heldBack?.unwritten) return null;
  return same(value, mark.value) ? 'derived' : 'override';
}

/** The hover's line for a derived or overridden cell. */
export function derivedTooltip(localId: string, path: string, value: unknown): string | undefined {
  const mark = markAt(localId, path);
  if (!mark) return undefined;
  const how = `${mark.text || `${mark.readings} readings`} (meters ${mark.meters.join(', ')})`;
  if (mark.heldBack?.unwritten) return `${mark.heldBack.reason} Meters would give ${String(mark.value)}.`;
  if (mark.heldBack && same(value, mark.value))
    return `${mark.heldBack.reason} The cell keeps the last figure from meters: ${how}.`;
  return same(value, mark.value)
    ? `From meters: ${how}. See the Meters tab for the readings.`
    : `Your override; meters give ${String(mark.value)}: ${how}. Kept when meters are recomputed.`;
}

// New marks: the annual grid draws its cells again.
useMeters.subscribe((state, prev) => {
  if (state.marksVersion !== prev.marksVersion) gridApi('annual')?.refreshCells({ force: true });
});
