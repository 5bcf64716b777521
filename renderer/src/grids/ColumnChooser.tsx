/**
 * Above a grid: which columns it shows (a checkbox per column, by topic group, each topic with a
 * toggle of its own, a search by name), whether its rows are compact, and the reset; remembered per
 * workspace. Keyboard: a disclosure button and plain checkboxes; Escape or a click outside closes it.
 * It opens right of the pinned name column, so the rows stay identifiable while columns are chosen.
 */
import { useEffect, useRef, useState } from 'react';
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
  const [search, setSearch] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  // Open: a press anywhere outside the chooser closes it (Escape is handled on the chooser itself).
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (e.target instanceof Node && !root.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);

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
  const groups = groupColumns(columns, search);
  const setTopic = (topic: Column[], visible: boolean) => {
    api.setColumnsVisible(topic, visible);
    setVersion((v) => v + 1);
  };
  // Right of the pinned columns (the row marker and the name), which stay in sight.
  const pinnedWidth = (api.getDisplayedLeftColumns() ?? []).reduce((w, c) => w + c.getActualWidth(), 0);

  return (
    <div
      className="column-chooser"
      data-testid={`column-chooser-${kind}`}
      ref={root}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        type="button"
        ref={button}
        aria-expanded={open}
        data-testid="columns-button"
        onClick={() => setOpen(!open)}
      >
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
        <div
          className="column-list"
          role="group"
          aria-label="Columns shown"
          data-testid="column-list"
          style={{ left: pinnedWidth + 4 }}
        >
          <input
            type="search"
            className="column-search"
            placeholder="Find a column"
            aria-label="Find a column"
            data-testid="column-search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <button type="button" className="link-button" onClick={showAll}>
            Show all columns and open every group
          </button>
          <ColumnGroups groups={groups} onToggle={toggle} onTopic={setTopic} />
        </div>
      )}
    </div>
  );
}

type ColumnGroup = { group: string | undefined; all: Column[]; shown: Column[] };

/** A checkbox per column, under its topic's own checkbox (ticked, unticked, or some of them). */
function ColumnGroups(props: {
  groups: ColumnGroup[];
  onToggle(column: Column): void;
  onTopic(topic: Column[], visible: boolean): void;
}) {
  return (
    <>
      {props.groups.map(({ group, all, shown }) => (
        <ul key={group ?? ''}>
          {group && (
            <li className="column-topic">
              <label>
                <input
                  type="checkbox"
                  data-testid="topic-toggle"
                  data-topic={group}
                  checked={all.every((c) => c.isVisible())}
                  ref={(el) => {
                    if (el)
                      el.indeterminate = all.some((c) => c.isVisible()) && !all.every((c) => c.isVisible());
                  }}
                  onChange={(e) => props.onTopic(all, e.target.checked)}
                />{' '}
                <strong>{group}</strong> ({all.length})
              </label>
            </li>
          )}
          {shown.map((column) => (
            <li key={column.getColId()} className={group ? 'in-topic' : undefined}>
              <label>
                <input
                  type="checkbox"
                  checked={column.isVisible()}
                  data-col-id={column.getColId()}
                  onChange={() => props.onToggle(column)}
                />{' '}
                {group ? `${group}: ${columnName(column)}` : columnName(column)}
              </label>
            </li>
          ))}
        </ul>
      ))}
    </>
  );
}

const columnName = (column: Column): string => column.getColDef().headerName ?? column.getColId();
const groupName = (column: Column): string | undefined => column.getParent()?.getColGroupDef()?.headerName;

/**
 * The columns by topic group, in the grid's order; `shown` holds those whose name (with the topic)
 * contains the search. A topic with nothing found is left out; one without a group has no toggle.
 */
function groupColumns(columns: Column[], search: string): ColumnGroup[] {
  const query = search.trim().toLowerCase();
  const out: ColumnGroup[] = [];
  for (const column of columns) {
    const group = groupName(column);
    let entry = out.at(-1);
    if (!entry || entry.group !== group) {
      entry = { group, all: [], shown: [] };
      out.push(entry);
    }
    entry.all.push(column);
    const text = `${group ?? ''} ${columnName(column)}`.toLowerCase();
    if (query === '' || text.includes(query)) entry.shown.push(column);
  }
  return out.filter((g) => g.shown.length > 0);
}
