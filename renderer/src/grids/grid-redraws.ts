/**
 * Cells redrawn without new rows: the typed values still on their way to the workspace ("saving"),
 * and the cells new validation results concern.
 */
import { useEffect, type RefObject } from 'react';
import type { GridApi, IRowNode } from 'ag-grid-community';
import { pending } from '../editing/pending';
import { cellOfPath, type GridKind, type GridRow } from '../grid-model/rows';
import { useValidation } from '../validation/validation-store';

export function useCellRedraws(
  kind: GridKind,
  apiRef: RefObject<GridApi<GridRow> | null>,
  rowsByAsset: RefObject<Map<string, GridRow[]>>,
): void {
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
}
