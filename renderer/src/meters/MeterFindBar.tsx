/**
 * Find in the Meters or Readings grid (Ctrl+F in the grid): a field, the match count, Enter /
 * Shift+Enter (and F3 / Shift+F3) to the next / previous match, which takes the grid's focus;
 * Escape closes it and hands the keyboard back to the grid. No replace here: edit the cells.
 */
import { useEffect, useImperativeHandle, useRef, useState, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import { matchLabel } from '../editing/find-replace';
import { findInMeterGrid, showMeterMatch, type MeterMatch } from './meter-grid-commands';

export interface MeterFindHandle {
  open(): void;
  step(direction: 1 | -1): void;
}

export function MeterFindBar<T extends { id: string }>(props: {
  api: () => GridApi<T> | null;
  handle: RefObject<MeterFindHandle | null>;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<MeterMatch[]>([]);
  const [index, setIndex] = useState(-1);
  const input = useRef<HTMLInputElement>(null);

  const search = (text: string): MeterMatch[] => {
    const grid = props.api();
    const found = grid ? findInMeterGrid(grid, text) : [];
    setMatches(found);
    setIndex(-1);
    return found;
  };
  const go = (direction: 1 | -1, list = matches): void => {
    const grid = props.api();
    if (!grid || list.length === 0) return;
    const next =
      index < 0 ? (direction === 1 ? 0 : list.length - 1) : (index + direction + list.length) % list.length;
    setIndex(next);
    showMeterMatch(grid, list[next] as MeterMatch);
    // Typing stays in the bar; the grid shows the match focused.
    input.current?.focus();
  };

  useImperativeHandle(props.handle, () => ({
    open() {
      setOpen(true);
      input.current?.focus();
      input.current?.select();
    },
    step(direction) {
      setOpen(true);
      if (query === '') input.current?.focus();
      else go(direction);
    },
  }));
  useEffect(() => {
    if (open) {
      input.current?.focus();
      input.current?.select();
    }
  }, [open]);

  if (!open) return null;
  const close = (): void => {
    setOpen(false);
    const grid = props.api();
    const focused = grid?.getFocusedCell();
    if (grid && focused) grid.setFocusedCell(focused.rowIndex, focused.column);
  };
  return (
    <div className="find-bar meters-find" data-testid={props.testId} role="search">
      <input
        ref={input}
        type="search"
        aria-label="Find"
        placeholder="Find"
        value={query}
        data-testid={`${props.testId}-input`}
        onChange={(e) => {
          setQuery(e.target.value);
          search(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'F3') {
            e.preventDefault();
            // Search again: the listing may have been read again since.
            go(e.shiftKey ? -1 : 1, index < 0 ? search(query) : matches);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      <span className="find-count" data-testid={`${props.testId}-count`}>
        {index >= 0 ? matchLabel(index, matches.length, query) : matchLabel(-1, matches.length, query)}
      </span>
      <button type="button" onClick={() => go(-1)} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={() => go(1)} aria-label="Next match">
        ↓
      </button>
      <button type="button" onClick={close} aria-label="Close find">
        ×
      </button>
    </div>
  );
}
