/**
 * The grid's rows from the workspace store: built in whole at first and on a reset, and after an
 * edit only the changed assets' rows, updated in place.
 */
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import { rowsOf, type GridKind, type GridRow } from '../grid-model/rows';
import { useWorkspace, type WorkspaceState } from '../store/workspace';

/** Past this many rows updated at once, one transaction (see `useGridRows`'s subscription). */
const bulkUpdate = 1_000;

export interface GridRows {
  /** The rows the grid starts with. */
  initialRows: GridRow[];
  /** Each asset's rows, as the grid holds them now. */
  rowsByAsset: RefObject<Map<string, GridRow[]>>;
  /**
   * Pages of the snapshot that landed between the first rows and the grid's API went by unseen:
   * the rows are built again from the store, or those assets would be missing.
   */
  catchUp(api: GridApi<GridRow>): void;
}

export function useGridRows(
  kind: GridKind,
  placeholderYear: number,
  apiRef: RefObject<GridApi<GridRow> | null>,
): GridRows {
  const rowsByAsset = useRef(new Map<string, GridRow[]>());
  /** The store's revision the grid's rows were last built from in whole. */
  const builtAt = useRef(-1);

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
      /** Assets whose rows keep their ids: the rows shown, and their next content. */
      const kept: Array<{ shown: GridRow[]; next: GridRow[] }> = [];
      for (const id of new Set(state.change.localIds)) {
        const old = rowsByAsset.current.get(id) ?? [];
        const view = state.assets.get(id);
        const next = view ? rowsOf(kind, view, placeholderYear) : [];
        if (sameIds(old, next)) {
          for (const row of next) update.push(row);
          if (next.length > 0) kept.push({ shown: old, next });
        } else {
          const nextIds = new Set(next.map((r) => r.id));
          const oldIds = new Set(old.map((r) => r.id));
          for (const row of old) if (!nextIds.has(row.id)) remove.push(row);
          for (const row of next) (oldIds.has(row.id) ? update : add).push(row);
        }
        if (view) rowsByAsset.current.set(id, next);
        else rowsByAsset.current.delete(id);
      }
      // Many rows at once (a push's settled assets), none added or removed, in a grid neither sorted
      // nor filtered on a column: the rows' data changed in place (AG Grid's "view refresh": data
      // mutated, the drawn rows refreshed). A transaction's per-row update and model refresh over
      // 20,000 rows cost two thirds of a push's apply; here a row not drawn costs one assignment.
      if (update.length > bulkUpdate && add.length === 0 && remove.length === 0 && !reordersOrFilters(api)) {
        updateInPlace(api, kept);
        for (const { shown } of kept) rowsByAsset.current.set(shown[0]!.localId, shown);
        builtAt.current = state.revision;
        return;
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

  const catchUp = (api: GridApi<GridRow>): void => {
    const state = useWorkspace.getState();
    if (state.revision !== builtAt.current) api.setGridOption('rowData', buildAll(state));
  };
  return { initialRows, rowsByAsset, catchUp };
}

/**
 * The grid's rows take their next content as they are (the objects AG Grid holds), and the rows
 * drawn among them are refreshed: their cells and their class rules (new, changed, conflict).
 */
function updateInPlace(
  api: GridApi<GridRow>,
  kept: ReadonlyArray<{ shown: GridRow[]; next: GridRow[] }>,
): void {
  const changed = new Set<GridRow>();
  for (const { shown, next } of kept)
    shown.forEach((row, i) => {
      Object.assign(row, next[i]);
      changed.add(row);
    });
  for (const node of api.getRenderedNodes())
    if (node.data && changed.has(node.data)) node.updateData(node.data);
}

/**
 * A sort or a column's filter reads the rows' values: a change of them in place would leave the
 * rows in their old order or filtered by their old values. (The Portfolio view's asset filter picks
 * assets by id, which a push does not change.)
 */
function reordersOrFilters(api: GridApi<GridRow>): boolean {
  return api.isColumnFilterPresent() || api.getColumnState().some((column) => column.sort != null);
}

/**
 * The same rows, in the same order: the common case (a push's 20,000 settled assets, an edit), which
 * needs no sets of ids to tell the rows added and removed.
 */
function sameIds(old: readonly GridRow[], next: readonly GridRow[]): boolean {
  if (old.length !== next.length) return false;
  for (let i = 0; i < old.length; i++) if (old[i]!.id !== next[i]!.id) return false;
  return true;
}
