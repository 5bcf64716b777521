/**
 * What every editable grid wires the same way (the asset grids' `DataGrid`, the Meters tab's
 * `MeterGrid`): its container's keys and clipboard events as the editing commands
 * (`editing/grid-events.ts`), Ctrl+F / Ctrl+H / F3 to its find bar, and the grid options of ranges
 * and shortcuts. The grid's editing model rides in its `context` option (`editing/grid-editing.ts`).
 */
import { useRef, type RefObject } from 'react';
import type { GridApi, GridOptions } from 'ag-grid-community';
import { rangeGridOptions } from '../editing/cell-range';
import { gridEditingHandlers, type GridEditingHandlers } from '../editing/grid-events';
import type { EditingContext, GridEditing } from '../editing/grid-editing';
import type { FindBarHandle } from './FindBar';

export function useGridEditing<R>(
  api: () => GridApi<R> | null,
  cellHistory?: () => void,
): { findBar: RefObject<FindBarHandle | null>; handlers: GridEditingHandlers } {
  const findBar = useRef<FindBarHandle | null>(null);
  const handlers = gridEditingHandlers({
    api,
    find: (command) =>
      command === 'find' || command === 'replace'
        ? findBar.current?.open(command)
        : findBar.current?.step(command === 'findNext' ? 1 : -1),
    ...(cellHistory ? { cellHistory } : {}),
  });
  return { findBar, handlers };
}

/**
 * The grid options an editable grid needs: its editing model and the focus moves ranges follow. Its
 * container takes the handlers of `useGridEditing` (keys, clicks, clipboard).
 */
export function editingGridOptions<R>(
  editing: GridEditing<R>,
): Pick<GridOptions<R>, 'context' | 'onCellFocused'> {
  const context: EditingContext<R> = { editing };
  return { context, ...rangeGridOptions<R>() };
}
