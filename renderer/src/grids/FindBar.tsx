/**
 * The find and replace bar above a grid (AG Grid Community has no find). Ctrl+F in the grid opens it
 * with the find field focused, Ctrl+H with the replace field focused; Enter / Shift+Enter and F3 / Shift+F3 go to the next / previous match,
 * which takes the grid's focus (scrolled into view) while typing stays in the bar; Escape closes it and
 * hands the keyboard back to the grid at the match. "Replace all" is one edit, one undo step.
 */
import { useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import {
  currentPos,
  findInGrid,
  focusedPos,
  replaceAll,
  replaceAt,
  showMatch,
  type GridMatch,
  type ReplaceScope,
} from '../editing/find-in-grid';
import { matchLabel, stepMatch, type CellPos } from '../editing/find-replace';
import { gridCommandOf } from '../editing/keyboard';
import type { GridRow } from '../grid-model/rows';
import { useWorkspace } from '../store/workspace';

export interface FindBarHandle {
  /** `replace`: the replace field takes the keyboard (Ctrl+H), else the find field (Ctrl+F). */
  open(field?: 'find' | 'replace'): void;
  step(direction: 1 | -1): void;
}

export interface FindBarProps {
  api: () => GridApi<GridRow> | null;
  handle: RefObject<FindBarHandle | null>;
  testId: string;
}

/** Typing settles this long before the grid is searched (a search reads every displayed cell). */
const SEARCH_DELAY_MS = 120;

export function FindBar({ api, handle, testId }: FindBarProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const [scope, setScope] = useState<ReplaceScope>('column');
  const [matches, setMatches] = useState<GridMatch[]>([]);
  const [index, setIndex] = useState(-1);
  const findInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  // Which field takes the keyboard when the bar opens.
  const openField = useRef<'find' | 'replace'>('find');
  // The latest values for callbacks that outlive a render (timers, the store subscription).
  const live = useRef({ query, matches, index });
  live.current = { query, matches, index };

  const bar = useRef<HTMLDivElement>(null);

  /** Searches again, keeping the current match when it still matches. */
  const refresh = (q: string): GridMatch[] => {
    const grid = api();
    const found = grid && q !== '' ? findInGrid(grid, q) : [];
    const current = live.current.matches[live.current.index];
    const kept = current
      ? found.findIndex((m) => m.rowId === current.rowId && m.colId === current.colId)
      : -1;
    setMatches(found);
    setIndex(kept);
    live.current = { query: q, matches: found, index: kept };
    return found;
  };

  const go = (found: GridMatch[], from: CellPos | null, direction: 1 | -1, inclusive: boolean): void => {
    const grid = api();
    const i = stepMatch(
      found.map((m) => m.pos),
      from,
      direction,
      inclusive,
    );
    setIndex(i);
    live.current = { ...live.current, matches: found, index: i };
    const match = found[i];
    if (grid && match) {
      // The grid takes the browser's focus with the match; whichever field of the bar had the
      // keyboard keeps it (a search that settles while the replacement is typed must not steal it).
      const had = document.activeElement;
      showMatch(grid, match);
      if (had instanceof HTMLElement && bar.current?.contains(had)) had.focus();
    }
  };

  /** Where "next" counts from: the current match, else the grid's focused cell. */
  const origin = (): CellPos | null => {
    const grid = api();
    if (!grid) return null;
    const current = live.current.matches[live.current.index];
    return (current && currentPos(grid, current)) ?? focusedPos(grid);
  };

  const focusField = (field: 'find' | 'replace'): void => {
    const input = field === 'replace' ? replaceInput.current : findInput.current;
    input?.focus();
    input?.select();
  };

  const step = (direction: 1 | -1): void => {
    if (live.current.query === '') return;
    go(refresh(live.current.query), origin(), direction, false);
  };

  useImperativeHandle(handle, () => ({
    open(field = 'find') {
      // Reopened: "next" counts from the cell the analyst is on now, not an old match.
      setIndex(-1);
      live.current = { ...live.current, index: -1 };
      openField.current = field;
      setOpen(true);
      // Already open: take the keyboard now; else the effect below does once the bar is drawn.
      focusField(field);
    },
    step(direction) {
      setOpen(true);
      if (live.current.query === '') findInput.current?.focus();
      else step(direction);
    },
  }));

  // Opened: the find (or replace) field has the keyboard, its text selected so typing replaces it.
  // The grid is marked as finding (its current match stays lit): a class, as `:has(.find-bar)` made
  // Chromium re-check the grid's styles on every cell it drew.
  useEffect(() => {
    if (!open) return;
    focusField(openField.current);
    const host = bar.current?.closest('.grid-host');
    host?.classList.add('finding');
    return () => host?.classList.remove('finding');
  }, [open]);

  // As the query is typed: the first match from where the analyst stands.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => {
      const from = origin();
      const found = refresh(query);
      if (query !== '') go(found, from, 1, true);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, open]);

  // Edits (a replace, an undo, a sync) change what matches: count again while the bar is open.
  useEffect(() => {
    if (!open) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = useWorkspace.subscribe((s, prev) => {
      if (s.revision === prev.revision) return;
      clearTimeout(timer);
      timer = setTimeout(() => refresh(live.current.query), SEARCH_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [open]);

  const close = (): void => {
    setOpen(false);
    const grid = api();
    const focused = grid?.getFocusedCell();
    if (grid && focused) grid.setFocusedCell(focused.rowIndex, focused.column);
  };

  const replaceCurrent = async (): Promise<void> => {
    const grid = api();
    const current = live.current.matches[live.current.index];
    const pos = grid && current ? currentPos(grid, current) : null;
    if (!grid || !pos) {
      step(1);
      return;
    }
    await replaceAt(grid, pos, query, replacement);
    go(refresh(query), pos, 1, false);
  };

  const replaceEvery = async (): Promise<void> => {
    const grid = api();
    if (!grid || query === '') return;
    const col = origin()?.col ?? -1;
    await replaceAll(grid, scope, col, query, replacement);
    refresh(query);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    // The bar's keys are its own: Delete on a button must not clear the grid's cell.
    e.stopPropagation();
    const command = gridCommandOf(e);
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (command === 'find' || command === 'replace') {
      e.preventDefault();
      focusField(command);
    } else if (command === 'findNext' || command === 'findPrevious') {
      e.preventDefault();
      step(command === 'findNext' ? 1 : -1);
    }
  };

  if (!open) return null;
  return (
    <div
      ref={bar}
      className="find-bar"
      role="search"
      aria-label="Find and replace"
      data-testid={testId}
      onKeyDown={onKeyDown}
    >
      <input
        ref={findInput}
        type="search"
        aria-label="Find"
        placeholder="Find"
        data-testid="find-input"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          step(e.shiftKey ? -1 : 1);
        }}
      />
      <span className="find-count" role="status" data-testid="find-count">
        {matchLabel(index, matches.length, query)}
      </span>
      <button type="button" aria-label="Previous match" data-testid="find-prev" onClick={() => step(-1)}>
        ↑
      </button>
      <button type="button" aria-label="Next match" data-testid="find-next" onClick={() => step(1)}>
        ↓
      </button>
      <input
        ref={replaceInput}
        type="text"
        aria-label="Replace with"
        placeholder="Replace with"
        data-testid="replace-input"
        value={replacement}
        onChange={(e) => setReplacement(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          void (e.ctrlKey || e.metaKey ? replaceEvery() : replaceCurrent());
        }}
      />
      <button type="button" data-testid="replace-one" onClick={() => void replaceCurrent()}>
        Replace
      </button>
      <button type="button" data-testid="replace-all" onClick={() => void replaceEvery()}>
        Replace all
      </button>
      <label>
        in{' '}
        <select
          aria-label="Replace all in"
          data-testid="replace-scope"
          value={scope}
          onChange={(e) => setScope(e.target.value === 'selection' ? 'selection' : 'column')}
        >
          <option value="column">this column</option>
          <option value="selection">the selection</option>
        </select>
      </label>
      <button type="button" aria-label="Close find" data-testid="find-close" onClick={close}>
        ×
      </button>
    </div>
  );
}
