/**
 * Which cell's history is shown, and the grids' cell menu (AG Grid Community has no context menu):
 * a store of its own, so the grids need only call `openCellMenu` / `openHistoryOfFocused`.
 */
import type { Column, GridApi } from 'ag-grid-community';
import { create } from 'zustand';
import { pathLabel } from '../../../shared/domain/path-labels';
import type { MeterCell } from '../../../shared/history/bridge-args';
import { dataColumnOf } from '../grid-model/data-column';
import { pathOf, type GridRow } from '../grid-model/rows';

export interface CellTarget {
  /** An asset's cell, a portfolio answer (`responseId` and `variable`), or a meter's or reading's cell. */
  localId?: string;
  path?: string;
  responseId?: number;
  variable?: string;
  meterCell?: MeterCell;
  /** "Tower · 2024 · Energy consumption, whole building, fuel". */
  title: string;
}

/** An import's record to show: from a history entry (its cell is highlighted) or the Import dialog. */
export interface ImportTarget {
  importId: number;
  localId?: string;
  path?: string;
}

interface CellHistoryUi {
  shown: CellTarget | null;
  menu: { x: number; y: number; target: CellTarget } | null;
  importShown: ImportTarget | null;
}

export const useCellHistoryUi = create<CellHistoryUi>(() => ({ shown: null, menu: null, importShown: null }));

/** "Show the import": the history panel closes, the import's record opens. */
export function openImportRecord(target: ImportTarget): void {
  useCellHistoryUi.setState({ shown: null, menu: null, importShown: target });
}

/** The shortcut that opens the focused cell's history (shown in the cell menu). */
export const historyShortcut = 'Alt+H';

export function isHistoryKey(event: { key: string; altKey: boolean; ctrlKey: boolean; metaKey: boolean }) {
  return event.altKey && !event.ctrlKey && !event.metaKey && event.key.toLowerCase() === 'h';
}

export function cellTarget(row: GridRow | undefined, column: Column | null | undefined): CellTarget | null {
  const data = dataColumnOf(column);
  if (!row || !data) return null;
  const path = pathOf(row, data.spec.field);
  const name = typeof row.view.doc['name'] === 'string' ? row.view.doc['name'] : 'New asset';
  return { localId: row.localId, path, title: `${name} · ${pathLabel(path)}` };
}

export function openCellHistory(target: CellTarget): void {
  useCellHistoryUi.setState({ shown: target, menu: null });
}

export function openCellMenu(x: number, y: number, target: CellTarget): void {
  useCellHistoryUi.setState({ menu: { x, y, target } });
}

export function closeCellMenu(): void {
  useCellHistoryUi.setState({ menu: null });
}

/** Alt+H in a grid: the focused cell's history. */
export function openHistoryOfFocused(api: GridApi<GridRow> | null): boolean {
  const focused = api?.getFocusedCell();
  if (!api || !focused) return false;
  const target = cellTarget(api.getDisplayedRowAtIndex(focused.rowIndex)?.data, focused.column);
  if (!target) return false;
  openCellHistory(target);
  return true;
}
