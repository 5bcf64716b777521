/**
 * One spreadsheet-like grid over the workspace store, for any row model (assets, annual, entries).
 * Rows follow the store by transactions for just the changed assets. Keyboard, clipboard, fill and
 * clear come from `editing/` (AG Grid Community has none of them); this component wires them to
 * the grid's container.
 */
import { useEffect, useMemo, useRef } from 'react';
import {
  AllCommunityModule,
  ModuleRegistry,
  type ColDef,
  type ColGroupDef,
  type GetRowIdParams,
  type Column,
  type GridApi,
  type GridReadyEvent,
  type IRowNode,
  type RowClassRules,
} from 'ag-grid-community';
import type { GrowSpec } from '../editing/clipboard';
import { dataColumns } from '../editing/grid-cells';
import { collapseTo, extendTo, onFocusMoved } from '../editing/cell-range';
import { gridEditingHandlers } from '../editing/grid-events';
import { pending } from '../editing/pending';
import { cellOfPath, rowsOf, type GridKind, type GridRow } from '../grid-model/rows';
import { clearAssetFilter, notify, useUi } from '../store/ui';
import { useWorkspace, type WorkspaceState } from '../store/workspace';
import { useValidation } from '../validation/validation-store';
import { suppressGridShortcuts } from './ag-columns';
import { cellTarget, openCellMenu, openHistoryOfFocused } from '../history/cell-history-ui';
import { FindBar, type FindBarHandle } from './FindBar';
import { GridHost } from './GridHost';
import { registerGrid } from './registry';

ModuleRegistry.registerModules([AllCommunityModule]);

export interface DataGridProps {
  kind: GridKind;
  columnDefs: Array<ColDef<GridRow> | ColGroupDef<GridRow>>;
  testId: string;
  label: string;
  /** Rows past the end of a paste become new assets when set. */
  grow?: GrowSpec | undefined;
  placeholderYear: number;
  onSelection?: (rows: GridRow[]) => void;
}

const rowClassRules: RowClassRules<GridRow> = {
  'row-new': (p) => p.data?.view.status === 'new',
  'row-modified': (p) => p.data?.view.status === 'modified',
  'row-deleted': (p) => p.data?.view.status === 'deleted',
  'row-conflict': (p) => (p.data?.view.conflicts.length ?? 0) > 0 || p.data?.view.remoteDeleted === true,
};

const getRowId = (p: GetRowIdParams<GridRow>): string => p.data.id;

export function DataGrid(props: DataGridProps) {
  const { kind, placeholderYear } = props;
  const apiRef = useRef<GridApi<GridRow> | null>(null);
  const rowsByAsset = useRef(new Map<string, GridRow[]>());
  /** The store's revision the grid's rows were last built from in whole. */
  const builtAt = useRef(-1);
  const propsRef = useRef(props);
  propsRef.current = props;

  const buildAll = (state: WorkspaceState): GridRow[] => {
    const map = new Map<string, GridRow[]>();
    const all: GridRow[] = [];
    for (const id of state.order) {
      const view = state.assets.get(id);
      if (!view) continue;
      const rows = rowsOf(kind, view, placeholderYear);
      map.set(id, rows);
      for (const row of rows) all.push(row);
    }
    rowsByAsset.current = map;
    builtAt.current = state.revision;
    return all;
  };

  const initialRows = useMemo(() => buildAll(useWorkspace.getState()), []);

  // Store changes: a reset replaces the rows, an edit updates just its assets' rows.
  useEffect(() => {
    const unsubscribe = useWorkspace.subscribe((state, prev) => {
      const api = apiRef.current;
      if (!api || state.revision === prev.revision) return;
      if (state.change.kind === 'reset') {
        api.setGridOption('rowData', buildAll(state));
        return;
      }
      const add: GridRow[] = [];
      const update: GridRow[] = [];
      const remove: GridRow[] = [];
      for (const id of new Set(state.change.localIds)) {
        const old = rowsByAsset.current.get(id) ?? [];
        const view = state.assets.get(id);
        const next = view ? rowsOf(kind, view, placeholderYear) : [];
        const nextIds = new Set(next.map((r) => r.id));
        const oldIds = new Set(old.map((r) => r.id));
        for (const row of old) if (!nextIds.has(row.id)) remove.push(row);
        for (const row of next) (oldIds.has(row.id) ? update : add).push(row);
        if (view) rowsByAsset.current.set(id, next);
        else rowsByAsset.current.delete(id);
      }
      // Rows that stay are updated in place: a transaction would re-run sort, filter and flatten
      // over every row (80 ms at 100,000 rows), and a row should not jump away while being edited.
      const missing: GridRow[] = [];
      for (const row of update) {
        const node = api.getRowNode(row.id);
        if (node) node.updateData(row);
        else missing.push(row);
      }
      if (add.length > 0 || remove.length > 0 || missing.length > 0)
        api.applyTransaction({ add: [...add, ...missing], remove });
      builtAt.current = state.revision;
      // `updateData` refreshes the row's cells and re-applies every class rule (saving, changed,
      // error); a forced redraw of them on top cost a keypress 5-10 ms at 100k rows.
    });
    return unsubscribe;
  }, [kind, placeholderYear]);

  // Typed values waiting for the workspace: redraw those cells as "saving" (and back on failure).
  useEffect(
    () =>
      pending.subscribe((cells) => {
        const api = apiRef.current;
        if (!api) return;
        const nodes = new Set<IRowNode<GridRow>>();
        const columns = new Set<string>();
        for (const { localId, path } of cells) {
          const cell = cellOfPath(localId, path);
          const node = cell.grid === kind && cell.colId ? api.getRowNode(cell.rowId) : undefined;
          if (!node || !cell.colId) continue;
          nodes.add(node);
          columns.add(cell.colId);
        }
        // Just the typed cells, not forced: their shown value changed, and class rules always re-run.
        if (nodes.size > 0) api.refreshCells({ rowNodes: [...nodes], columns: [...columns] });
      }),
    [kind],
  );

  // New validation results (the background pass, a rename clash): redraw the cells they concern.
  // An edit's own rows were redrawn with the view; redrawing every cell on screen again after each
  // keypress cost ~2 ms.
  useEffect(() => {
    let frame = 0;
    let everything = false;
    const assets = new Set<string>();
    return useValidation.subscribe((s, prev) => {
      if (s.version === prev.version) return;
      if (s.redraw === 'all') everything = true;
      else for (const id of s.redraw) assets.add(id);
      if (!everything && assets.size === 0) return;
      cancelAnimationFrame(frame);
      // Class rules re-run on every refresh; values did not change, so nothing else is redrawn.
      frame = requestAnimationFrame(() => {
        const api = apiRef.current;
        const rowNodes = everything
          ? undefined
          : [...assets].flatMap((id) =>
              (rowsByAsset.current.get(id) ?? []).flatMap((row) => api?.getRowNode(row.id) ?? []),
            );
        everything = false;
        assets.clear();
        if (api && (rowNodes === undefined || rowNodes.length > 0)) api.refreshCells({ rowNodes });
      });
    });
  }, []);

  // "Jump to cell" from the problems panel, the sync results and the outliers view.
  useEffect(() => {
    const run = (): void => {
      const target = useUi.getState().jump;
      const api = apiRef.current;
      if (!target || !api) return;
      const cell = cellOfPath(target.localId, target.path);
      if (cell.grid !== kind) return;
      useUi.setState({ jump: null });
      focusCell(api, target.localId, cell.rowId, cell.colId);
    };
    run();
    return useUi.subscribe((s, prev) => {
      if (s.jump !== prev.jump && s.jump) run();
    });
  }, [kind]);

  const onGridReady = (e: GridReadyEvent<GridRow>): void => {
    apiRef.current = e.api;
    // Pages of the snapshot that landed between the first rows and now went by while the grid had
    // no API to take them: the rows are built again from the store, or those assets would be missing.
    const state = useWorkspace.getState();
    if (state.revision !== builtAt.current) e.api.setGridOption('rowData', buildAll(state));
    registerGrid(kind, e.api);
    performance.mark(`grid:${kind}:ready`);
    // Honour a jump requested before this grid existed.
    const target = useUi.getState().jump;
    if (target) {
      const cell = cellOfPath(target.localId, target.path);
      if (cell.grid === kind) {
        useUi.setState({ jump: null });
        setTimeout(() => focusCell(e.api, target.localId, cell.rowId, cell.colId), 0);
      }
    }
  };

  useEffect(() => () => registerGrid(kind, null), [kind]);

  // The Portfolio view's "show the assets behind this bar": refilter when the choice changes.
  const assetFilter = useUi((s) => s.assetFilter);
  useEffect(() => apiRef.current?.onFilterChanged(), [assetFilter]);

  const findBar = useRef<FindBarHandle | null>(null);
  const editingHandlers = gridEditingHandlers({
    api: () => apiRef.current,
    grow: () => propsRef.current.grow,
    find: (command) =>
      command === 'find' || command === 'replace'
        ? findBar.current?.open(command)
        : findBar.current?.step(command === 'findNext' ? 1 : -1),
    cellHistory: () => void openHistoryOfFocused(apiRef.current),
  });

  return (
    <div
      className="grid-host"
      data-testid={props.testId}
      aria-label={props.label}
      onKeyDown={editingHandlers.onKeyDown}
      onCopy={editingHandlers.onCopy}
      onPaste={editingHandlers.onPaste}
    >
      {assetFilter && (
        <div className="asset-filter" role="status" data-testid="asset-filter">
          Showing {assetFilter.localIds.size} assets: {assetFilter.label}{' '}
          <button type="button" className="link-button" onClick={clearAssetFilter}>
            Show all
          </button>
        </div>
      )}
      <FindBar api={() => apiRef.current} handle={findBar} testId={`${props.testId}-find`} />
      <GridHost<GridRow>
        options={{
          rowData: initialRows,
          columnDefs: props.columnDefs,
          defaultColDef,
          getRowId,
          rowClassRules,
          rowSelection,
          selectionColumnDef,
          onGridReady,
          // The status bar says "7 of 38 rows shown" while a filter hides rows.
          onModelUpdated: (e) => {
            const filtered = e.api.isAnyFilterPresent();
            const total = filtered ? countRows(e.api) : 0;
            const shownRows = filtered ? { grid: kind, shown: e.api.getDisplayedRowCount(), total } : null;
            const now = useUi.getState().shownRows;
            if (now?.grid === kind || shownRows) useUi.setState({ shownRows });
          },
          // Ranges of cells: a click moves the anchor, Shift+click spans to it (editing/cell-range.ts).
          onCellFocused: (e) =>
            onFocusMoved(e.api, e.rowIndex ?? null, (e.column as Column | null | undefined) ?? null),
          onCellClicked: (e) => {
            const mouse = e.event as MouseEvent | null | undefined;
            if (e.rowIndex === null) return;
            if (mouse?.shiftKey) extendTo(e.api, e.rowIndex, e.column);
            else collapseTo(e.api, e.rowIndex, e.column);
          },
          // The cell menu (its history): AG Grid Community has none, the browser's is not wanted.
          preventDefaultOnContextMenu: true,
          onCellContextMenu: (e) => {
            const mouse = e.event as MouseEvent | null | undefined;
            const target = cellTarget(e.data, e.column);
            if (mouse && target) openCellMenu(mouse.clientX, mouse.clientY, target);
          },
          isExternalFilterPresent: () => useUi.getState().assetFilter !== null,
          doesExternalFilterPass: (node) =>
            node.data !== undefined &&
            (useUi.getState().assetFilter?.localIds.has(node.data.localId) ?? true),
          onSelectionChanged: (e) => propsRef.current.onSelection?.(e.api.getSelectedRows()),
          enterNavigatesVertically: true,
          enterNavigatesVerticallyAfterEdit: true,
          singleClickEdit: false,
          stopEditingWhenCellsLoseFocus: true,
          // A message or a full label on hover at once (AG Grid waits 2 s): bench/grid.bench.ts measures it.
          tooltipShowDelay: 100,
          animateRows: false,
          suppressColumnVirtualisation: false,
          rowBuffer: 10,
          headerHeight: 30,
          groupHeaderHeight: 26,
          rowHeight: 28,
          enableBrowserTooltips: false,
        }}
        onApi={(api) => {
          if (!api) apiRef.current = null;
        }}
      />
    </div>
  );
}

const defaultColDef: ColDef<GridRow> = {
  sortable: true,
  filter: true,
  resizable: true,
  wrapHeaderText: true,
  autoHeaderHeight: true,
  suppressKeyboardEvent: suppressGridShortcuts,
};

const rowSelection = {
  mode: 'multiRow' as const,
  checkboxes: true,
  headerCheckbox: true,
  enableClickSelection: false,
};

const selectionColumnDef = {
  pinned: 'left' as const,
  width: 40,
  suppressKeyboardEvent: suppressGridShortcuts,
};

/** Every row the grid holds, filtered out or not. */
function countRows(api: GridApi<GridRow>): number {
  let n = 0;
  api.forEachNode(() => void n++);
  return n;
}

/** "Jump to cell": scrolls to the cell and focuses it, clearing a filter that hides its row. */
function focusCell(api: GridApi<GridRow>, localId: string, rowId: string, colId: string | null): void {
  let node = api.getRowNode(rowId);
  if (!node) {
    // A year or entry that is not a row (yet): the asset's first row.
    api.forEachNode((candidate) => {
      if (!node && candidate.data?.localId === localId) node = candidate;
    });
  }
  if (node && (node.rowIndex === null || node.rowIndex === undefined)) {
    api.setFilterModel(null);
    node = api.getRowNode(node.id ?? rowId) ?? node;
  }
  if (!node || node.rowIndex === null || node.rowIndex === undefined) {
    notify('warning', 'That row is not in this grid any more.');
    return;
  }
  const columns = dataColumns(api);
  const column = (colId && api.getColumn(colId)) || columns[0]?.column;
  if (!column) return;
  api.ensureNodeVisible(node, 'middle');
  api.ensureColumnVisible(column, 'middle');
  api.setFocusedCell(node.rowIndex, column);
}
