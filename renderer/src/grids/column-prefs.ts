/**
 * How the analyst arranged a grid's columns (hidden ones, closed topic groups, compact rows),
 * remembered per workspace (connection and entity) and grid in the page's local storage: a layout
 * preference, no data.
 */
import type { GridApi } from 'ag-grid-community';
import { z } from 'zod';
import type { GridKind, GridRow } from '../grid-model/rows';

const prefsSchema = z.object({
  hidden: z.array(z.string()).default([]),
  closedGroups: z.array(z.string()).default([]),
  compact: z.boolean().default(false),
});
export type ColumnPrefs = z.infer<typeof prefsSchema>;

const keyOf = (workspace: string, kind: GridKind): string => `asset-desk:columns:${workspace}:${kind}`;

export function readPrefs(workspace: string, kind: GridKind): ColumnPrefs {
  try {
    const parsed = prefsSchema.safeParse(JSON.parse(localStorage.getItem(keyOf(workspace, kind)) ?? '{}'));
    return parsed.success ? parsed.data : prefsSchema.parse({});
  } catch {
    return prefsSchema.parse({});
  }
}

export function savePrefs(workspace: string, kind: GridKind, prefs: ColumnPrefs): void {
  try {
    localStorage.setItem(keyOf(workspace, kind), JSON.stringify(prefs));
  } catch {
    // A full or disabled storage only costs the remembered layout.
  }
}

export const compactRowHeight = 22;
export const normalRowHeight = 28;

/** Puts a remembered layout on a grid that has just been created. */
export function applyPrefs(api: GridApi<GridRow>, prefs: ColumnPrefs): void {
  if (prefs.hidden.length > 0) api.setColumnsVisible(prefs.hidden, false);
  if (prefs.closedGroups.length > 0)
    api.setColumnGroupState(prefs.closedGroups.map((groupId) => ({ groupId, open: false })));
  const height = prefs.compact ? compactRowHeight : normalRowHeight;
  if (api.getGridOption('rowHeight') === height) return;
  api.setGridOption('rowHeight', height);
  // Each row is given its height: `resetRowHeights()` marks every row "estimated", and AG Grid then
  // re-positions all 100k rows on each scroll frame that brings one into view (twice the frame time).
  api.forEachNode((node) => node.setRowHeight(height));
  api.onRowHeightChanged();
}

/** The layout a grid has now, to remember. */
export function currentPrefs(api: GridApi<GridRow>, compact: boolean): ColumnPrefs {
  return {
    hidden: api
      .getColumnState()
      .filter((state) => state.hide === true)
      .map((state) => state.colId),
    closedGroups: api
      .getColumnGroupState()
      .filter((group) => !group.open)
      .map((group) => group.groupId),
    compact,
  };
}
