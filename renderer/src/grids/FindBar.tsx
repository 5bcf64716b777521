/**
 * The find and replace bar above a grid (AG Grid Community has no find). Ctrl+F in the grid opens it
 * with the find field focused, Ctrl+H with the replace field focused; Enter / Shift+Enter and F3 / Shift+F3 go to the next / previous match,
 * which takes the grid's focus (scrolled into view) while typing stays in the bar; Escape closes it and
 * hands the keyboard back to the grid at the match. "Replace all" is one edit, one undo step.
 */
import { useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { GridApi } from 'ag-grid-community';
import { replaceAll, replaceAt, type ReplaceScope } from '../editing/find-in-grid';
import { matchLabel } from '../editing/find-replace';
import { gridCommandOf } from '../editing/keyboard';
import { useGridSearch } from './grid-search';

export interface FindBarHandle {
  /** `replace`: the replace field takes the keyboard (Ctrl+H), else the find field (Ctrl+F). */
  open(field?: 'find' | 'replace'): void;
  step(direction: 1 | -1): void;
}

export interface FindBarProps<R> {
  api: () => GridApi<R> | null;
  handle: RefObject<FindBarHandle | null>;
  testId: string;
}

export function FindBar<R>({ api, handle, testId }: FindBarProps<R>) {
  const [open, setOpen] = useState(false);
  const [replacement, setReplacement] = useState('');
  const [scope, setScope] = useState<ReplaceScope>('column');
  const findInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  // Which field takes the keyboard when the bar opens.
  const openField = useRef<'find' | 'replace'>('find');
  const bar = useRef<HTMLDivElement>(null);
  const { query, setQuery, matches, index, live, refresh, go, origin, step, forgetCurrent, currentCell } =
    useGridSearch(api, open, bar);

  const focusField = (field: 'find' | 'replace'): void => {
    const input = field === 'replace' ? replaceInput.current : findInput.current;
    input?.focus();
    input?.select();
  };

  useImperativeHandle(handle, () => ({
    open(field = 'find') {
      forgetCurrent();
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

  const close = (): void => {
    setOpen(false);
    const grid = api();
    const focused = grid?.getFocusedCell();
    if (grid && focused) grid.setFocusedCell(focused.rowIndex, focused.column);
  };

  const replaceCurrent = async (): Promise<void> => {
    const grid = api();
    const pos = currentCell();
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
      <ReplaceFields
        input={replaceInput}
        replacement={replacement}
        onReplacement={setReplacement}
        scope={scope}
        onScope={setScope}
        onReplace={(all) => void (all ? replaceEvery() : replaceCurrent())}
      />
      <button type="button" aria-label="Close find" data-testid="find-close" onClick={close}>
        ×
      </button>
    </div>
  );
}

/** The replace half of the bar: the replacement, Replace (Enter), Replace all (Ctrl+Enter) and its scope. */
function ReplaceFields(props: {
  input: RefObject<HTMLInputElement | null>;
  replacement: string;
  onReplacement(value: string): void;
  scope: ReplaceScope;
  onScope(scope: ReplaceScope): void;
  onReplace(all: boolean): void;
}) {
  return (
    <>
      <input
        ref={props.input}
        type="text"
        aria-label="Replace with"
        placeholder="Replace with"
        data-testid="replace-input"
        value={props.replacement}
        onChange={(e) => props.onReplacement(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          props.onReplace(e.ctrlKey || e.metaKey);
        }}
      />
      <button type="button" data-testid="replace-one" onClick={() => props.onReplace(false)}>
        Replace
      </button>
      <button type="button" data-testid="replace-all" onClick={() => props.onReplace(true)}>
        Replace all
      </button>
      <label>
        in{' '}
        <select
          aria-label="Replace all in"
          data-testid="replace-scope"
          value={props.scope}
          onChange={(e) => props.onScope(e.target.value === 'selection' ? 'selection' : 'column')}
        >
          <option value="column">this column</option>
          <option value="selection">the selection</option>
        </select>
      </label>
    </>
  );
}
