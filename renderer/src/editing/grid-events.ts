/**
 * A grid container's key, click and clipboard events as editing commands. Events from a text field
 * (a cell editor, a filter box) are the field's own; keys are ignored while a cell is being edited.
 * They are the browser's events as they bubble out of the grid, so each is taken in its order: a
 * click before the key typed after it (AG Grid's own callbacks come later, in a timer).
 */
import type { ClipboardEvent, KeyboardEvent, MouseEvent } from 'react';
import type { GridApi } from 'ag-grid-community';
import { copyText, pasteText } from './clipboard';
import { clickedCell, dropRange, extendBy, rangeCommand, rangeText } from './cell-range';
import { clearCells, fillDown } from './fill-and-clear';
import { formatTsv } from './tsv';
import { gridCommandOf } from './keyboard';

export interface GridEditingTarget<R> {
  /** The grid's API once it is ready (null before and after); its editing model is in its context. */
  api(): GridApi<R> | null;
  /** Ctrl+F opens the find bar, F3 / Shift+F3 go to the next / previous match. */
  find?(command: 'find' | 'replace' | 'findNext' | 'findPrevious'): void;
  /** Alt+H opens the focused cell's history. */
  cellHistory?(): void;
}

export interface GridEditingHandlers {
  onKeyDown(e: KeyboardEvent<HTMLElement>): void;
  onClick(e: MouseEvent<HTMLElement>): void;
  onCopy(e: ClipboardEvent<HTMLElement>): void;
  onPaste(e: ClipboardEvent<HTMLElement>): void;
}

function isTextInput(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable;
}

const navigationKeys = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Tab',
  'Enter',
]);

const rangeSteps: Partial<Record<string, [number, number]>> = {
  rangeUp: [-1, 0],
  rangeDown: [1, 0],
  rangeLeft: [0, -1],
  rangeRight: [0, 1],
};

export function gridEditingHandlers<R>(target: GridEditingTarget<R>): GridEditingHandlers {
  return {
    onKeyDown(e) {
      const api = target.api();
      if (!api || isTextInput(e.target) || api.getEditingCells().length > 0) return;
      const command = gridCommandOf(e);
      if (!command && !e.shiftKey && navigationKeys.has(e.key)) dropRange(api);
      const step = command && rangeSteps[command];
      if (step) {
        e.preventDefault();
        extendBy(api, step[0], step[1]);
      } else if (command === 'fillDown') {
        e.preventDefault();
        if (!rangeCommand(api, 'fillDown')) fillDown(api);
      } else if (command === 'fillRight') {
        e.preventDefault();
        rangeCommand(api, 'fillRight');
      } else if (command === 'clear') {
        e.preventDefault();
        if (!rangeCommand(api, 'clear')) clearCells(api);
      } else if (command === 'cellHistory' && target.cellHistory) {
        e.preventDefault();
        target.cellHistory();
      } else if (
        (command === 'find' ||
          command === 'replace' ||
          command === 'findNext' ||
          command === 'findPrevious') &&
        target.find
      ) {
        e.preventDefault();
        target.find(command);
      }
    },
    onClick(e) {
      const api = target.api();
      const el = e.target as HTMLElement | null;
      // A click on a cell (AG Grid focused it on mousedown): the range's new anchor, or its end.
      if (!api || isTextInput(el) || !el?.closest?.('.ag-cell')) return;
      clickedCell(api, e.shiftKey);
    },
    onCopy(e) {
      const api = target.api();
      if (!api || isTextInput(e.target)) return;
      const range = rangeText(api);
      const text = range ? formatTsv(range) : copyText(api);
      if (text === null) return;
      e.clipboardData.setData('text/plain', text);
      e.preventDefault();
    },
    onPaste(e) {
      const api = target.api();
      if (!api || isTextInput(e.target)) return;
      const text = e.clipboardData.getData('text/plain');
      e.preventDefault();
      if (text) pasteText(api, text);
    },
  };
}
