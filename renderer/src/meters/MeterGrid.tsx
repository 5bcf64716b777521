/**
 * One of the Meters tab's grids (meters or readings): the asset grids' editing as it is (ranges by
 * Shift+arrows or Shift+click; copy and paste; fill down and right; Delete; find and replace,
 * each one undo step), over the meters' editing model (`meter-editing.ts`), wired as every editable
 * grid is (`grids/grid-editing-wiring.ts`); a cell's history by Alt+H or the cell menu, as theirs
 * (`meter-history.ts` says which cell it is).
 */
import { useEffect, useMemo, useRef } from 'react';
import type { ColDef, Column, GridApi, GridOptions } from 'ag-grid-community';
import { rangeClassRules, rowsChanged } from '../editing/cell-range';
import { openCellHistory, openCellMenu, type CellTarget } from '../history/cell-history-ui';
import { suppressGridShortcuts } from '../editing/keyboard';
import { FindBar } from '../grids/FindBar';
import { editingGridOptions, useGridEditing } from '../grids/grid-editing-wiring';
import { GridHost } from '../grids/GridHost';
import { meterEditing } from './meter-editing';

export function MeterGrid<T extends { id: string }>(props: {
  kind: 'meters' | 'readings';
  rows: T[];
  columns: ColDef<T>[];
  testId: string;
  onApi: (api: GridApi<T> | null) => void;
  /** The cell's history to open (null: the column has none). */
  historyOf: (row: T | undefined, column: Column | null | undefined) => CellTarget | null;
}) {
  const api = useRef<GridApi<T> | null>(null);
  const openHistoryOfFocused = () => {
    const focused = api.current?.getFocusedCell();
    const row = focused ? api.current?.getDisplayedRowAtIndex(focused.rowIndex)?.data : undefined;
    const target = focused ? props.historyOf(row, focused.column) : null;
    if (target) openCellHistory(target);
  };
  const { findBar, handlers } = useGridEditing(() => api.current, openHistoryOfFocused);
  const options = useMemo(
    (): GridOptions<T> => ({
      rowData: props.rows,
      // Every data column shows the range, over its own class rules (the reading rules' colours).
      columnDefs: props.columns.map((c) => ({
        ...c,
        cellClassRules: { ...c.cellClassRules, ...rangeClassRules },
      })),
      defaultColDef: { suppressKeyboardEvent: suppressGridShortcuts },
      getRowId: (p) => p.data.id,
      rowSelection: 'multiple',
      suppressRowClickSelection: true,
      tooltipShowDelay: 300,
      singleClickEdit: false,
      stopEditingWhenCellsLoseFocus: true,
      ...editingGridOptions(meterEditing<T>(props.kind)),
      // The cell menu (its history): AG Grid Community has none, the browser's is not wanted.
      preventDefaultOnContextMenu: true,
      onCellContextMenu: (e) => {
        const mouse = e.event as MouseEvent | null | undefined;
        const target = props.historyOf(e.data, e.column);
        if (mouse && target) openCellMenu(mouse.clientX, mouse.clientY, target);
      },
    }),
    // The grid is made once; rows follow below.
    [],
  );
  useEffect(() => {
    if (!api.current) return;
    api.current.setGridOption('rowData', props.rows);
    rowsChanged(api.current);
  }, [props.rows]);
  return (
    <div
      className="grid-host meters-grid-block"
      onKeyDown={handlers.onKeyDown}
      onClick={handlers.onClick}
      onCopy={handlers.onCopy}
      onPaste={handlers.onPaste}
    >
      <FindBar<T> api={() => api.current} handle={findBar} testId={`${props.testId}-find`} />
      <div className="meters-grid ag-theme-quartz" data-testid={props.testId}>
        <GridHost<T>
          options={options}
          onApi={(a) => {
            api.current = a;
            props.onApi(a);
          }}
        />
      </div>
    </div>
  );
}
