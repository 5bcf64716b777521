/**
 * One spreadsheet-like grid over the workspace store, for any row model (assets, annual, entries).
 * Rows follow the store by transactions for just the changed assets; keyboard, clipboard, fill and
 * clear are ours (AG Grid Community has none of them), built on the grid API.
 */
import {
  useEffect,
  useMemo,
  useRef,
  type ClipboardEvent as ReactClipboardEvent,
  type KeyboardEvent,
} from 'react';
import {
  AllCommunityModule,
  ModuleRegistry,
  type ColDef,
  type ColGroupDef,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type IRowNode,
  type RowClassRules,
} from 'ag-grid-community';
import type { Scalar } from '../../../shared/sync/asset-doc';
import { createAssetsWithEdits, currentValue, editCells, type Edit } from '../editing/commands';
import { gridCommandOf } from '../editing/keyboard';
import { planFillDown, planPaste, type PasteColumn } from '../editing/paste-plan';
import { pending } from '../editing/pending';
import { formatTsv, parseTsv } from '../editing/tsv';
import { notify, useUi } from '../store/ui';
import { useWorkspace, type WorkspaceState } from '../store/workspace';
import { useValidation } from '../validation/validation-store';
import { isRowEditable, suppressGridShortcuts } from './ag-columns';
import { dataColumnOf } from './grid-context';
import { GridHost } from './GridHost';
import { registerGrid } from './registry';
import { cellOfPath, pathOf, rowsOf, type GridKind, type GridRow } from './rows';

ModuleRegistry.registerModules([AllCommunityModule]);

export interface GrowSpec {
  /** The path a column's field is written to on a new row (created as a new asset). */
  pathFor(field: string, lastRow: GridRow | undefined): string;
}

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

function isTextInput(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable;
}

export function DataGrid(props: DataGridProps) {
  const { kind, placeholderYear } = props;
  const apiRef = useRef<GridApi<GridRow> | null>(null);
  const rowsByAsset = useRef(new Map<string, GridRow[]>());
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
      const refreshed: IRowNode<GridRow>[] = [];
      const missing: GridRow[] = [];
      for (const row of update) {
        const node = api.getRowNode(row.id);
        if (node) {
          node.updateData(row);
          refreshed.push(node);
        } else missing.push(row);
      }
      if (add.length > 0 || remove.length > 0 || missing.length > 0)
        api.applyTransaction({ add: [...add, ...missing], remove });
      // Classes (saving, changed, error) depend on more than the value: redraw the updated cells.
      if (refreshed.length > 0) api.refreshCells({ rowNodes: refreshed, force: true });
    });
    return unsubscribe;
  }, [kind, placeholderYear]);

  // Typed values waiting for the workspace: redraw their rows as "saving" (and back on failure).
  useEffect(
    () =>
      pending.subscribe((localIds) => {
        const api = apiRef.current;
        if (!api) return;
        const nodes: IRowNode<GridRow>[] = [];
        for (const id of localIds)
          for (const row of rowsByAsset.current.get(id) ?? []) {
            const node = api.getRowNode(row.id);
            if (node) nodes.push(node);
          }
        if (nodes.length > 0) api.refreshCells({ rowNodes: nodes, force: true });
      }),
    [],
  );

  // New validation results (the background pass, a rename clash): redraw what is on screen.
  useEffect(() => {
    let frame = 0;
    return useValidation.subscribe((s, prev) => {
      if (s.version === prev.version) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => apiRef.current?.refreshCells({ force: true }));
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

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const api = apiRef.current;
    if (!api || isTextInput(e.target) || api.getEditingCells().length > 0) return;
    const command = gridCommandOf(e);
    if (command === 'fillDown') {
      e.preventDefault();
      fillDown(api);
    } else if (command === 'clear') {
      e.preventDefault();
      clearCells(api);
    }
  };

  const onCopy = (e: ReactClipboardEvent<HTMLDivElement>): void => {
    const api = apiRef.current;
    if (!api || isTextInput(e.target)) return;
    const text = copyText(api);
    if (text === null) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  };

  const onPaste = (e: ReactClipboardEvent<HTMLDivElement>): void => {
    const api = apiRef.current;
    if (!api || isTextInput(e.target)) return;
    const text = e.clipboardData.getData('text/plain');
    e.preventDefault();
    if (text) paste(api, text, propsRef.current.grow);
  };

  return (
    <div
      className="grid-host"
      data-testid={props.testId}
      aria-label={props.label}
      onKeyDown={onKeyDown}
      onCopy={onCopy}
      onPaste={onPaste}
    >
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
          onSelectionChanged: (e) => propsRef.current.onSelection?.(e.api.getSelectedRows()),
          enterNavigatesVertically: true,
          enterNavigatesVerticallyAfterEdit: true,
          singleClickEdit: false,
          stopEditingWhenCellsLoseFocus: true,
          tooltipShowDelay: 300,
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

function dataColumns(api: GridApi<GridRow>) {
  return api
    .getAllDisplayedColumns()
    .map((column) => ({ column, data: dataColumnOf(column) }))
    .filter((c): c is { column: typeof c.column; data: NonNullable<typeof c.data> } => c.data !== undefined);
}

function rowAt(api: GridApi<GridRow>, index: number): GridRow | undefined {
  return api.getDisplayedRowAtIndex(index)?.data;
}

function selectedIndexes(api: GridApi<GridRow>): number[] {
  return api
    .getSelectedNodes()
    .map((node) => node.rowIndex)
    .filter((i): i is number => i !== null && i !== undefined)
    .sort((a, b) => a - b);
}

export function focusCell(api: GridApi<GridRow>, localId: string, rowId: string, colId: string | null): void {
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

function copyText(api: GridApi<GridRow>): string | null {
  const columns = dataColumns(api);
  const focused = api.getFocusedCell();
  const selected = selectedIndexes(api);
  if (selected.length > 1 || (selected.length === 1 && focused?.rowIndex !== selected[0])) {
    const rows = selected.map((i) => {
      const row = rowAt(api, i);
      return columns.map((c) =>
        row ? c.data.format(currentValue(row.localId, pathOf(row, c.data.spec.field))) : '',
      );
    });
    notify('info', `Copied ${plural(rows.length, 'row')}`);
    return formatTsv(rows);
  }
  if (!focused) return null;
  const row = rowAt(api, focused.rowIndex);
  const data = dataColumnOf(focused.column);
  if (!row || !data) return null;
  return data.format(currentValue(row.localId, pathOf(row, data.spec.field)));
}

function paste(api: GridApi<GridRow>, text: string, grow: GrowSpec | undefined): void {
  const focused = api.getFocusedCell();
  if (!focused) {
    notify('warning', 'Select a cell to paste into.');
    return;
  }
  const columns = dataColumns(api);
  const startCol = Math.max(
    0,
    columns.findIndex((c) => c.column === focused.column),
  );
  const block = parseTsv(text);
  const rowCount = api.getDisplayedRowCount();
  const pasteColumns: PasteColumn[] = columns.map((c) => ({
    id: c.data.spec.field,
    editable: c.data.spec.editable,
    parse: c.data.parse,
  }));
  const plan = planPaste({
    block,
    startRow: focused.rowIndex,
    startCol,
    rowCount,
    columns: pasteColumns,
    selectedRows: selectedIndexes(api),
    allowGrow: grow !== undefined,
    rowEditable: (i) => isRowEditable(rowAt(api, i)),
  });
  const edits: Edit[] = [];
  const newRows = new Map<number, Array<{ field: string; value: Scalar }>>();
  for (const cell of plan.cells) {
    if (cell.row < rowCount) {
      const row = rowAt(api, cell.row);
      if (row) edits.push({ localId: row.localId, path: pathOf(row, cell.col), value: cell.value });
    } else {
      const list = newRows.get(cell.row) ?? [];
      list.push({ field: cell.col, value: cell.value });
      newRows.set(cell.row, list);
    }
  }
  const count = plan.cells.length;
  const skipped = plan.skipped > 0 ? ` (${plural(plan.skipped, 'read-only cell')} skipped)` : '';
  if (newRows.size > 0 && grow) {
    const lastRow = rowAt(api, rowCount - 1);
    const rows = [...newRows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, cells]) => ({
        fields: {},
        edits: (localId: string) =>
          cells.map((c) => ({ localId, path: grow.pathFor(c.field, lastRow), value: c.value })),
      }));
    void createAssetsWithEdits(rows, edits, 'Paste').then((ok) => {
      if (ok) notify('info', `Pasted ${plural(count, 'cell')}, ${plural(rows.length, 'new row')}${skipped}`);
    });
    return;
  }
  if (edits.length === 0) {
    notify('warning', `Nothing to paste here${skipped}`);
    return;
  }
  void editCells(edits, 'Paste').then((ok) => {
    if (ok) notify('info', `Pasted ${plural(count, 'cell')}${skipped}`);
  });
}

function fillDown(api: GridApi<GridRow>): void {
  const focused = api.getFocusedCell();
  const data = dataColumnOf(focused?.column);
  if (!focused || !data) return;
  if (!data.spec.editable) {
    notify('warning', 'This column cannot be edited.');
    return;
  }
  const field = data.spec.field;
  const plan = planFillDown({
    focusedRow: focused.rowIndex,
    selectedRows: selectedIndexes(api),
    valueAt: (i) => {
      const row = rowAt(api, i);
      return row ? currentValue(row.localId, pathOf(row, field)) : null;
    },
    rowEditable: (i) => isRowEditable(rowAt(api, i)),
  });
  const edits: Edit[] = [];
  for (const { row: index, value } of plan) {
    const row = rowAt(api, index);
    if (row) edits.push({ localId: row.localId, path: pathOf(row, field), value });
  }
  if (edits.length > 0) void editCells(edits, 'Fill down');
}

function clearCells(api: GridApi<GridRow>): void {
  const focused = api.getFocusedCell();
  const data = dataColumnOf(focused?.column);
  if (!focused || !data || !data.spec.editable) return;
  const selected = selectedIndexes(api);
  const targets = selected.length > 1 && selected.includes(focused.rowIndex) ? selected : [focused.rowIndex];
  const edits: Edit[] = [];
  for (const index of targets) {
    const row = rowAt(api, index);
    if (row && isRowEditable(row))
      edits.push({ localId: row.localId, path: pathOf(row, data.spec.field), value: null });
  }
  if (edits.length > 0) void editCells(edits, 'Clear');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
