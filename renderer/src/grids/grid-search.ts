/**
 * The find bar's search over a grid: the query, its matches in display order and the current one,
 * searched again as the query is typed and as edits change the grid's values (each after the typing
 * settles), and the steps to the next or previous match.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import { currentPos, findInGrid, focusedPos, showMatch, type GridMatch } from '../editing/find-in-grid';
import { stepMatch, type CellPos } from '../editing/find-replace';
import { editingOf } from '../editing/grid-editing';

/** Typing settles this long before the grid is searched (a search reads every displayed cell). */
const SEARCH_DELAY_MS = 120;

export function useGridSearch<R>(
  api: () => GridApi<R> | null,
  open: boolean,
  bar: RefObject<HTMLDivElement | null>,
) {
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<GridMatch[]>([]);
  const [index, setIndex] = useState(-1);
  // The latest values for callbacks that outlive a render (timers, the store subscription).
  const live = useRef({ query, matches, index });
  live.current = { query, matches, index };

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

  const step = (direction: 1 | -1): void => {
    if (live.current.query === '') return;
    go(refresh(live.current.query), origin(), direction, false);
  };

  /** Reopened: "next" counts from the cell the analyst is on now, not an old match. */
  const forgetCurrent = (): void => {
    setIndex(-1);
    live.current = { ...live.current, index: -1 };
  };

  /** The current match's cell, if it is still shown. */
  const currentCell = (): CellPos | null => {
    const grid = api();
    const current = live.current.matches[live.current.index];
    return grid && current ? currentPos(grid, current) : null;
  };

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
    const grid = api();
    const unsubscribe =
      (grid &&
        editingOf(grid)?.onChange(() => {
          clearTimeout(timer);
          timer = setTimeout(() => refresh(live.current.query), SEARCH_DELAY_MS);
        })) ??
      (() => undefined);
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [open]);

  return { query, setQuery, matches, index, live, refresh, go, origin, step, forgetCurrent, currentCell };
}
