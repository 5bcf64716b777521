/**
 * One of the Meters tab's grids (meters or readings): a plain AG Grid with typed edits and pastes
 * from Excel (one step each), fill down (Ctrl+D) and find (Ctrl+F, F3) — `meter-grid-commands.ts`.
 */
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { ColDef, GridApi } from 'ag-grid-community';
import { gridCommandOf } from '../editing/keyboard';
import { GridHost } from '../grids/GridHost';
import { fillDownMeterGrid } from './meter-grid-commands';
import { pasteIntoMeterGrid } from './meters-edits';
import { MeterFindBar, type MeterFindHandle } from './MeterFindBar';

export function MeterGrid<T extends { id: string }>(props: {
  kind: 'meters' | 'readings';
  rows: T[];
  columns: ColDef<T>[];
  testId: string;
  onApi: (api: GridApi<T> | null) => void;
}) {
  const api = useRef<GridApi<T> | null>(null);
  const find = useRef<MeterFindHandle | null>(null);
  const options = useMemo(
    () => ({
      rowData: props.rows,
      columnDefs: props.columns,
      getRowId: (p: { data: T }) => p.data.id,
      rowSelection: 'multiple' as const,
      suppressRowClickSelection: true,
      tooltipShowDelay: 300,
      singleClickEdit: false,
    }),
    // The grid is made once; rows follow below.
    [],
  );
  useEffect(() => {
    api.current?.setGridOption('rowData', props.rows);
  }, [props.rows]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    // Keys typed into a cell editor or the find field are theirs.
    if (!api.current || (e.target as HTMLElement).tagName === 'INPUT') return;
    const command = gridCommandOf(e);
    if (command === 'fillDown') fillDownMeterGrid(api.current, props.kind);
    else if (command === 'find') find.current?.open();
    else if (command === 'findNext' || command === 'findPrevious')
      find.current?.step(command === 'findNext' ? 1 : -1);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <div
      className="meters-grid-block"
      onKeyDownCapture={onKeyDown}
      onPaste={(e) => {
        if (!api.current || (e.target as HTMLElement).tagName === 'INPUT') return;
        e.preventDefault();
        pasteIntoMeterGrid(api.current, props.kind, e.clipboardData.getData('text/plain'));
      }}
    >
      <MeterFindBar api={() => api.current} handle={find} testId={`${props.testId}-find`} />
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
