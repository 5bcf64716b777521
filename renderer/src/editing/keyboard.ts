/** The spreadsheet shortcuts the grids take over from AG Grid (Community has none of them). */

export type GridCommand =
  | 'undo'
  | 'redo'
  | 'fillDown'
  | 'fillRight'
  | 'clear'
  | 'selectAll'
  | 'find'
  | 'replace'
  | 'findNext'
  | 'findPrevious'
  | 'rangeUp'
  | 'rangeDown'
  | 'rangeLeft'
  | 'rangeRight'
  | 'cellHistory';

const rangeKeys: Record<string, GridCommand> = {
  ArrowUp: 'rangeUp',
  ArrowDown: 'rangeDown',
  ArrowLeft: 'rangeLeft',
  ArrowRight: 'rangeRight',
};

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function gridCommandOf(event: KeyLike): GridCommand | null {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (mod && !event.altKey) {
    if (key === 'z' && !event.shiftKey) return 'undo';
    if (key === 'y' || (key === 'z' && event.shiftKey)) return 'redo';
    if (key === 'd') return 'fillDown';
    if (key === 'r' && !event.shiftKey) return 'fillRight';
    if (key === 'f' && !event.shiftKey) return 'find';
    // Ctrl+H: the same bar with the replace field focused, as in Excel.
    if (key === 'h' && !event.shiftKey) return 'replace';
    return null;
  }
  // Alt+H: the focused cell's history (no menu of the desktop app answers to Alt+H).
  if (event.altKey && !mod && !event.shiftKey && key === 'h') return 'cellHistory';
  // Shift+arrows grow a range of cells from the focused one.
  if (event.shiftKey && !event.altKey && rangeKeys[event.key]) return rangeKeys[event.key] ?? null;
  if (event.key === 'F3' && !mod && !event.altKey) return event.shiftKey ? 'findPrevious' : 'findNext';
  if (!event.altKey && (event.key === 'Delete' || (event.key === 'Backspace' && event.shiftKey)))
    return 'clear';
  return null;
}

/** Keys the grid must leave alone (its own handling would start an edit or do nothing useful). */
export function isGridShortcut(event: KeyLike): boolean {
  if (gridCommandOf(event) !== null) return true;
  const mod = event.ctrlKey || event.metaKey;
  // Copy and paste arrive as clipboard events on the grid's container.
  return mod && ['c', 'v', 'x'].includes(event.key.toLowerCase());
}

/** AG Grid's `suppressKeyboardEvent` for every grid's columns: our shortcuts are ours, not the grid's. */
export function suppressGridShortcuts(p: { editing: boolean; event: KeyLike }): boolean {
  return !p.editing && isGridShortcut(p.event);
}
