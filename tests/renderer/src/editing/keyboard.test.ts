/** The spreadsheet keys the grids take from AG Grid: find, ranges by Shift+arrows, fill down and right. */
import { describe, expect, it } from 'vitest';
import {
  gridCommandOf,
  isGridShortcut,
  suppressGridShortcuts,
} from '../../../../renderer/src/editing/keyboard';

const key = (
  k: string,
  mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'metaKey' | 'altKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('grid keys', () => {
  it('grows a range with Shift+arrows and leaves plain arrows to the grid', () => {
    expect(gridCommandOf(key('ArrowDown', { shiftKey: true }))).toBe('rangeDown');
    expect(gridCommandOf(key('ArrowUp', { shiftKey: true }))).toBe('rangeUp');
    expect(gridCommandOf(key('ArrowLeft', { shiftKey: true }))).toBe('rangeLeft');
    expect(gridCommandOf(key('ArrowRight', { shiftKey: true }))).toBe('rangeRight');
    expect(gridCommandOf(key('ArrowDown'))).toBe(null);
    expect(gridCommandOf(key('ArrowDown', { shiftKey: true, altKey: true }))).toBe(null);
    expect(isGridShortcut(key('ArrowDown', { shiftKey: true }))).toBe(true);
    expect(isGridShortcut(key('ArrowDown'))).toBe(false);
  });

  it('takes Ctrl+F, Ctrl+H, F3 and Shift+F3 as the find keys', () => {
    expect(gridCommandOf(key('f', { ctrlKey: true }))).toBe('find');
    expect(gridCommandOf(key('h', { ctrlKey: true }))).toBe('replace');
    expect(gridCommandOf(key('F3'))).toBe('findNext');
    expect(gridCommandOf(key('F3', { shiftKey: true }))).toBe('findPrevious');
    expect(gridCommandOf(key('f'))).toBe(null);
  });

  it('fills down with Ctrl+D and right with Ctrl+R (Cmd on a Mac)', () => {
    expect(gridCommandOf(key('d', { ctrlKey: true }))).toBe('fillDown');
    expect(gridCommandOf(key('r', { ctrlKey: true }))).toBe('fillRight');
    expect(gridCommandOf(key('r', { metaKey: true }))).toBe('fillRight');
    expect(gridCommandOf(key('r', { ctrlKey: true, shiftKey: true }))).toBe(null);
    expect(gridCommandOf(key('r'))).toBe(null);
  });

  it("opens a cell's history with Alt+H, and leaves Ctrl+Alt+H alone", () => {
    expect(gridCommandOf(key('h', { altKey: true }))).toBe('cellHistory');
    expect(gridCommandOf(key('H', { altKey: true }))).toBe('cellHistory');
    expect(isGridShortcut(key('h', { altKey: true }))).toBe(true);
    expect(gridCommandOf(key('h', { altKey: true, ctrlKey: true }))).toBeNull();
    expect(gridCommandOf(key('h'))).toBeNull();
  });

  it("keeps every grid's own handling from our shortcuts, but not from a cell being edited", () => {
    expect(suppressGridShortcuts({ editing: false, event: key('Delete') })).toBe(true);
    expect(suppressGridShortcuts({ editing: false, event: key('c', { ctrlKey: true }) })).toBe(true);
    expect(suppressGridShortcuts({ editing: true, event: key('Delete') })).toBe(false);
    expect(suppressGridShortcuts({ editing: false, event: key('x') })).toBe(false);
  });
});
