/**
 * The grids' mark on a value that did not come from the analyst's hand (the service's, an import's,
 * the meters', one from before history). Main keeps the cells that did (`cell_hand`); the grids ask
 * `isMarked` per cell draw (a map and a set lookup, hand-cache.ts), and the rows drawn that are not
 * known yet are asked of main a moment later in one call (`workspace.handCells` with their ids),
 * then only those rows whose marks the answer changes are drawn again. Nothing here reads the whole workspace: its every
 * hand cell was 1.3 M rows, 4.5 s in main, read after each change while pages loaded. Never in a
 * keypress's path: an edited asset is just forgotten until it is drawn again.
 */
import { handCellsBatch } from '../../../shared/history/hand-cells';
import { bridge } from '../bridge';
import { pending } from '../editing/pending';
import { gridApi } from '../grids/registry';
import { useWorkspace, type WorkspaceState } from '../store/workspace';
import { HandCache } from './hand-cache';

const cache = new HandCache(handCellsBatch);

export function isMarked(localId: string, path: string, value: unknown): boolean {
  // Typed and being saved: the analyst's, whatever main said of the value before it.
  if (pending.has(localId, path)) return false;
  const marked = cache.isMarked(localId, path, value);
  if (cache.pending) schedule();
  return marked;
}

/**
 * The analyst's hand set these cells (an edit main has just saved): told before the edit's views
 * land, so the grids draw them with it. Their assets keep what main said of their other cells: a
 * keypress neither unmarks the row until main is asked again nor asks it (each cost the keypress's
 * views a second draw of the asset's rows, and the row's marks blinked).
 */
export function handEdited(cells: ReadonlyArray<{ localId: string; path: string }>): void {
  const byAsset = new Map<string, string[]>();
  for (const { localId, path } of cells) byAsset.set(localId, [...(byAsset.get(localId) ?? []), path]);
  for (const [localId, paths] of byAsset) cache.handEdited(localId, paths);
}

/** Long enough that a grid's draw of its rows (over a frame or two) is asked in one call. */
const ASK_AFTER_MS = 30;
let timer: ReturnType<typeof setTimeout> | undefined;
let asking = false;

function schedule(): void {
  if (timer !== undefined || asking) return;
  timer = setTimeout(() => {
    timer = undefined;
    void ask();
  }, ASK_AFTER_MS);
}

async function ask(): Promise<void> {
  // A workspace still loading is asked once it is ready (the subscription schedules it).
  if (useWorkspace.getState().status !== 'ready') return;
  asking = true;
  try {
    while (cache.pending) {
      const ids = cache.take();
      let hand: Record<string, string[]>;
      try {
        hand = await bridge.methods['workspace.handCells']({ ids });
      } catch {
        // The workspace closed or changed under the call: its rows are asked again when drawn.
        cache.failed(ids);
        return;
      }
      redraw(cache.answer(ids, hand));
    }
  } finally {
    asking = false;
    if (cache.pending) schedule();
  }
}

/** Draws again the cells of the rendered rows of these assets only, in every grid. */
function redraw(localIds: readonly string[]): void {
  if (localIds.length === 0) return;
  const ids = new Set(localIds);
  for (const kind of ['assets', 'annual', 'certifications', 'energy_ratings'] as const) {
    const api = gridApi(kind);
    if (!api) continue;
    const rowNodes = api.getRenderedNodes().filter((node) => node.data && ids.has(node.data.localId));
    if (rowNodes.length > 0) api.refreshCells({ rowNodes });
  }
}

function sameWorkspace(a: WorkspaceState, b: WorkspaceState): boolean {
  return a.meta?.connectionId === b.meta?.connectionId && a.meta?.entity.id === b.meta?.entity.id;
}

/**
 * Follows the workspace: a changed asset is forgotten at once (before the grids draw its new
 * value, so a value typed a moment ago is never marked from an older answer), a reload makes the
 * answers stale, another workspace drops them.
 */
export function connectCellMarks(): () => void {
  const unsubscribe = useWorkspace.subscribe((state, prev) => {
    if (!sameWorkspace(state, prev)) cache.clear();
    else if (state.change !== prev.change) {
      if (state.change.kind === 'reset') cache.reset();
      else if (!state.change.byHand) {
        cache.changed(state.change.localIds);
        // Drawn already from the older answer if the grid took the change first: drawn again now,
        // in the same task, so no frame shows it marked.
        redraw(state.change.localIds);
      }
    }
    if (cache.pending) schedule();
  });
  return () => {
    clearTimeout(timer);
    timer = undefined;
    unsubscribe();
  };
}
