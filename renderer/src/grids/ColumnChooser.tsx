/**
 * Above a grid: which columns it shows (a checkbox per column, by topic group), whether its rows
 * are compact, and the reset; remembered per workspace. Keyboard: a disclosure button and plain
 * checkboxes.
 */
import { useEffect, useState } from 'react';
import type { Column, GridApi } from 'ag-grid-community';
import type { GridKind, GridRow } from '../grid-model/rows';
import { applyPrefs, currentPrefs, readPrefs, savePrefs } from './column-prefs';
import { gridApi } from './registry';

/** Columns the analyst may hide: data columns, not the row marker, the pinned name or the year. */
const hideable = (column: Column): boolean =>
  !column.getColId().startsWith('__status') && !column.getPinned();

export function ColumnChooser({ kind, workspace }: { kind: GridKind; workspace: string }) {
  const [open, setOpen] = useState(false);
  const [compact, setCompact] = useState(() => readPrefs(workspace, kind).compact);
  const [, setVersion] = useState(0);
  const [api, setApi] = useState<GridApi<GridRow> | undefined>(undefined);

  // The grid mounts beside this bar: once it is up, put the remembered layout on it.
  useEffect(() => {
    let frame = 0;
    const look = () => {
      const found = gridApi(kind);
      if (!found) {
        frame = requestAnimationFrame(look);
        return;
      }
      applyPrefs(found, readPrefs(workspace, kind));
      setApi(found);
    };
    look();
    return () => cancelAnimationFrame(frame);
  }, [kind, workspace]);

  // Remember what the analyst changes in the grid itself too (a topic group closed by its chevron).
  useEffect(() => {
    if (!api) return;
    const remember = () => savePrefs(workspace, kind, currentPrefs(api, compact));
    api.addEventListener('columnGroupOpened', remember);
    api.addEventListener('columnVisible', remember);
    return () => {
      if (api.isDestroyed()) return;
      api.removeEventListener('columnGroupOpened', remember);
      api.removeEventListener('columnVisible', remember);
    };
  }, [api, workspace, kind, compact]);

  if (!api) return null;
  const columns = (api.getColumns() ?? []).filter(hideable);
  const toggle = (column: Column) => {
    api.setColumnsVisible([column], !column.isVisible());
    setVersion((v) => v + 1);
  };
  const setDensity = (next: boolean) => {
    setCompact(next);
    const prefs = { ...currentPrefs(api, next), compact: next };
    applyPrefs(api, prefs);
    savePrefs(workspace, kind, prefs);
  };
  const showAll = () => {
    api.setColumnsVisible(columns, true);
    api.setColumnGroupState(api.getColumnGroupState().map((g) => ({ groupId: g.groupId, open: true })));
    savePrefs(workspace, kind, currentPrefs(api, compact));
    setVersion((v) => v + 1);
  };
  const hidden = columns.filter((c) => !c.isVisible()).length;

  return (
    <div className="column-chooser" data-testid={`column-chooser-${kind}`}>
      <button type="button" aria-expanded={open} data-testid="columns-button" onClick={() => setOpen(!open)}>
        Columns{hidden > 0 ? ` (${hidden} hidden)` : ''}
      </button>
      <label className="inline-label">
        <input
          type="checkbox"
          data-testid="compact-rows"
          checked={compact}
          onChange={(e) => setDensity(e.target.checked)}
        />{' '}
        Compact rows
      </label>
      {open && (
        <div className="column-list" role="group" aria-label="Columns shown">
          <button type="button" className="link-button" onClick={showAll}>
            Show all columns and open every group
          </button>
          <ul>
            {columns.map((column) => {
              const group = column.getParent()?.getColGroupDef()?.headerName;
              const name = column.getColDef().headerName ?? column.getColId();
              return (
                <li key={column.getColId()}>
                  <label>
                    <input
                      type="checkbox"
                      checked={column.isVisible()}
                      data-col-id={column.getColId()}
                      onChange={() => toggle(column)}
                    />{' '}
                    {group ? `${group}: ${name}` : name}
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
