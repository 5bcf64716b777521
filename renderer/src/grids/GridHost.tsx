/**
 * AG Grid's own DOM rendering inside a React element. The React wrapper (ag-grid-react) draws every
 * row and cell through React, which at 100,000 rows costs half the frames while scrolling (the
 * grid bench measures it against a bare AG Grid); our cells are plain values and DOM components,
 * so nothing needs React inside the grid.
 */
import { useEffect, useRef } from 'react';
import { createGrid, type GridApi, type GridOptions } from 'ag-grid-community';

export function GridHost<T>(props: { options: GridOptions<T>; onApi: (api: GridApi<T> | null) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const optionsRef = useRef(props.options);
  const onApiRef = useRef(props.onApi);
  const apiRef = useRef<GridApi<T> | null>(null);

  useEffect(() => {
    const api = createGrid(ref.current!, optionsRef.current);
    apiRef.current = api;
    onApiRef.current(api);
    return () => {
      onApiRef.current(null);
      apiRef.current = null;
      api.destroy();
    };
  }, []);

  // Column definitions follow the props (units, dropdown lists); everything else is set once.
  const columnDefs = props.options.columnDefs;
  useEffect(() => {
    if (apiRef.current && columnDefs && columnDefs !== optionsRef.current.columnDefs) {
      optionsRef.current = { ...optionsRef.current, columnDefs };
      apiRef.current.setGridOption('columnDefs', columnDefs);
    }
  }, [columnDefs]);

  return <div ref={ref} className="grid-host-inner" style={{ height: '100%', width: '100%' }} />;
}
