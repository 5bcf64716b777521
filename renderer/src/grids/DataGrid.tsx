/**
 * One spreadsheet-like grid over the workspace store, for any row model (assets, annual, entries).
 * Rows follow the store by transactions for just the changed assets. Ranges, keyboard, clipboard,
 * fill, clear, find and replace come from `editing/` (AG Grid Community has none of them), over the
 * asset rows' editing model (`editing/asset-editing.ts`), wired as every editable grid wires them
 * (`grid-editing-wiring.ts`).
 */
import { useEffect, useMemo, useRef } from 'react';
import {
  AllCommunityModule,
  ModuleRegistry,
  type ColDef,
  type ColGroupDef,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type RowClassRules,
} from 'ag-grid-community';
import { assetEditing, type GrowSpec } from '../editing/asset-editing';
import { suppressGridShortcuts } from '../editing/keyboard';
import type { GridKind, GridRow } from '../grid-model/rows';
import { clearAssetFilter, useUi } from '../store/ui';
import { cellTarget, openCellMenu, openHistoryOfFocused } from '../history/cell-history-ui';
import { FindBar } from './FindBar';
import { editingGridOptions, useGridEditing } from './grid-editing-wiring';
import { attachCellTooltips, withOwnHeaderTooltips } from './cell-tooltips';
import { useCellRedraws } from './grid-redraws';
import { jumpOnReady, useJumpTarget } from './grid-jump';
import { useGridRows } from './grid-rows';
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
  const propsRef = useRef(props);
  propsRef.current = props;
  const { initialRows, rowsByAsset, catchUp } = useGridRows(kind, placeholderYear, apiRef);
  useCellRedraws(kind, apiRef, rowsByAsset);
  useJumpTarget(kind, apiRef);

  const onGridReady = (e: GridReadyEvent<GridRow>): void => {
    apiRef.current = e.api;
    catchUp(e.api);
    registerGrid(kind, e.api);
    performance.mark(`grid:${kind}:ready`);
    jumpOnReady(kind, e.api);
  };

  useEffect(() => () => registerGrid(kind, null), [kind]);
  const hostRef = useRef<HTMLDivElement>(null);
  const columnDefs = useMemo(() => withOwnHeaderTooltips(props.columnDefs), [props.columnDefs]);
  useEffect(() => attachCellTooltips(hostRef.current!, () => apiRef.current, tooltipDelayMs), []);

  // The Portfolio view's "show the assets behind this bar": refilter when the choice changes.
  const assetFilter = useUi((s) => s.assetFilter);
  useEffect(() => apiRef.current?.onFilterChanged(), [assetFilter]);

  const { findBar, handlers: editingHandlers } = useGridEditing(
    () => apiRef.current,
    () => void openHistoryOfFocused(apiRef.current),
  );
  // Made once: the grid keeps its first options; a paste's growth follows the props.
  const editing = useMemo(() => editingGridOptions(assetEditing(() => propsRef.current.grow)), []);

  return (
    <div
      ref={hostRef}
      className="grid-host"
      data-testid={props.testId}
      aria-label={props.label}
      onKeyDown={editingHandlers.onKeyDown}
      onClick={editingHandlers.onClick}
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
      <FindBar<GridRow> api={() => apiRef.current} handle={findBar} testId={`${props.testId}-find`} />
      <GridHost<GridRow>
        options={{
          rowData: initialRows,
          columnDefs,
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
          // The editing model, and the focus moves ranges follow (clicks: the container's onClick).
          ...editing,
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

          animateRows: false,
          suppressColumnVirtualisation: false,
          rowBuffer: 10,
          headerHeight: 30,
          groupHeaderHeight: 26,
          rowHeight: 28,
          // No tooltip manager per cell drawn: messages and full labels come from cell-tooltips.ts.
          enableBrowserTooltips: true,
        }}
        onApi={(api) => {
          if (!api) apiRef.current = null;
        }}
      />
    </div>
  );
}

/** A message or a full label on hover at once (AG Grid waits 2 s): bench/grid.bench.ts measures it. */
const tooltipDelayMs = 100;

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
