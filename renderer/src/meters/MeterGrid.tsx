/**
 * One of the Meters tab's grids (meters or readings): the asset grids' editing as it is (ranges by
 * Shift+arrows or Shift+click; copy and paste; fill down and right; Delete; find and replace,
 * each one undo step), over the meters' editing model (`meter-editing.ts`), wired as every editable
 * grid is (`grids/grid-editing-wiring.ts`).
 */
import { useEffect, useMemo, useRef } from 'react';
import type { ColDef, GridApi, GridOptions } from 'ag-grid-community';
import { rangeClassRules, rowsChanged } from '../editing/cell-range';
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
}) {
  const api = useRef<GridApi<T> | null>(null);
  const { findBar, handlers } = useGridEditing(() => api.current);
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
