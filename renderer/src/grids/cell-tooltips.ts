/**
 * A grid's messages on hover (a cell's validation message, conflict, whole name or meter's
 * explanation; a column's full label) from one set of listeners on the grid's element. AG Grid's own
 * tooltip makes a manager with five listeners for every cell drawn, whether its column has a message
 * or not, and destroys it when the cell goes: a tenth of a fast fling's frame at 100k rows (the grid
 * bench's fling). With `enableBrowserTooltips` it makes none, and these grids give it no message to
 * show. A column says what its cells say with `context.tooltip(row)` and its header with
 * `context.headerTooltip` (`withOwnHeaderTooltips`); the message shows after the grid's delay, with
 * AG Grid's tooltip class and look (inside the grid's wrapper, where its theme applies).
 */
import type { ColDef, ColGroupDef, Column, GridApi } from 'ag-grid-community';
import type { GridRow } from '../grid-model/rows';

export type CellTooltip = (row: GridRow) => string | undefined;

/** What a column's cells say on hover, if it says anything. */
export function cellTooltipOf(column: Column | null | undefined): CellTooltip | undefined {
  const context = column?.getColDef().context as { tooltip?: unknown } | undefined;
  return typeof context?.tooltip === 'function' ? (context.tooltip as CellTooltip) : undefined;
}

/**
 * The columns with their header's message moved to `context.headerTooltip`: AG Grid's
 * `headerTooltip` would be the browser's title in these grids, shown late and beside ours.
 */
export function withOwnHeaderTooltips<T>(
  defs: ReadonlyArray<ColDef<T> | ColGroupDef<T>>,
): Array<ColDef<T> | ColGroupDef<T>> {
  return defs.map((def) => {
    if ('children' in def) return { ...def, children: withOwnHeaderTooltips(def.children) };
    if (def.headerTooltip === undefined) return def;
    const { headerTooltip, ...rest } = def;
    return { ...rest, context: { ...(def.context as object | undefined), headerTooltip } };
  });
}

/** The message of a cell (of a row drawn) or of a column's header. */
function messageOf(grid: GridApi<GridRow>, target: Element): string | undefined {
  const colId = target.getAttribute('col-id');
  const column = colId === null ? null : grid.getColumn(colId);
  if (target.classList.contains('ag-header-cell')) {
    const context = column?.getColDef().context as { headerTooltip?: unknown } | undefined;
    return typeof context?.headerTooltip === 'string' ? context.headerTooltip : undefined;
  }
  const rowId = target.closest('.ag-row')?.getAttribute('row-id');
  const row = rowId == null ? undefined : grid.getRowNode(rowId)?.data;
  return row ? cellTooltipOf(column)?.(row) : undefined;
}

/** Shows the message of the cell or header under the pointer after `delayMs`; returns the detach. */
export function attachCellTooltips(
  host: HTMLElement,
  api: () => GridApi<GridRow> | null,
  delayMs: number,
): () => void {
  let cell: Element | null = null;
  let pointer = { x: 0, y: 0 };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown: HTMLElement | null = null;

  const hide = (): void => {
    clearTimeout(timer);
    timer = undefined;
    shown?.remove();
    shown = null;
  };
  const show = (): void => {
    timer = undefined;
    const grid = api();
    if (!cell?.isConnected || !grid) return;
    const text = messageOf(grid, cell);
    if (!text) return;
    const box = host.querySelector<HTMLElement>('.ag-root-wrapper') ?? host;
    const origin = box.getBoundingClientRect();
    const tip = document.createElement('div');
    tip.className = 'ag-tooltip cell-tooltip';
    tip.setAttribute('role', 'tooltip');
    tip.textContent = text;
    box.appendChild(tip);
    // Below the pointer, as AG Grid places its own; kept inside the grid, which clips what overflows.
    const size = tip.getBoundingClientRect();
    let top = pointer.y - origin.top + 20;
    if (top + size.height > origin.height) top = Math.max(0, pointer.y - origin.top - size.height - 8);
    const left = Math.max(0, Math.min(pointer.x - origin.left, origin.width - size.width - 4));
    tip.style.top = `${top}px`;
    tip.style.left = `${left}px`;
    shown = tip;
  };
  const over = (e: MouseEvent): void => {
    const target = e.target instanceof Element ? e.target.closest('.ag-cell, .ag-header-cell') : null;
    pointer = { x: e.clientX, y: e.clientY };
    if (target === cell) return;
    hide();
    cell = target;
    if (cell) timer = setTimeout(show, delayMs);
  };
  const leave = (): void => {
    cell = null;
    hide();
  };
  // A click, a key or a scroll puts the message away; the next cell the pointer enters shows its own.
  const listeners: Array<[string, (e: MouseEvent) => void, AddEventListenerOptions]> = [
    ['mouseover', over, { passive: true }],
    ['mouseleave', leave, { passive: true }],
    ['mousedown', hide, { passive: true }],
    ['keydown', hide, { capture: true, passive: true }],
    ['wheel', leave, { passive: true }],
    ['scroll', leave, { capture: true, passive: true }],
  ];
  for (const [type, listener, options] of listeners)
    host.addEventListener(type, listener as EventListener, options);
  return () => {
    for (const [type, listener, options] of listeners)
      host.removeEventListener(type, listener as EventListener, options);
    hide();
  };
}
