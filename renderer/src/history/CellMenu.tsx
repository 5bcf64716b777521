/**
 * The grids' cell menu (right click): the cell's history, with its shortcut shown. AG Grid
 * Community has no context menu of its own.
 */
import { useEffect, useRef } from 'react';
import { closeCellMenu, historyShortcut, openCellHistory, useCellHistoryUi } from './cell-history-ui';

export function CellMenu() {
  const menu = useCellHistoryUi((s) => s.menu);
  const first = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menu) return;
    first.current?.focus();
    const away = (e: MouseEvent) => {
      if (!(e.target instanceof Node) || !first.current?.parentElement?.contains(e.target)) closeCellMenu();
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeCellMenu();
    };
    window.addEventListener('mousedown', away);
    window.addEventListener('keydown', escape);
    return () => {
      window.removeEventListener('mousedown', away);
      window.removeEventListener('keydown', escape);
    };
  }, [menu]);

  if (!menu) return null;
  return (
    <div
      className="cell-menu"
      role="menu"
      aria-label="Cell"
      data-testid="cell-menu"
      style={{ left: menu.x, top: menu.y }}
    >
      <button type="button" role="menuitem" ref={first} onClick={() => openCellHistory(menu.target)}>
        <span>Cell history…</span>
        <kbd>{historyShortcut}</kbd>
      </button>
    </div>
  );
}
