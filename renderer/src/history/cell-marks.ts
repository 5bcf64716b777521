/**
 * The grids' mark on a value that did not come from the analyst's hand (the service's, an import's,
 * the meters', one from before history): main keeps the cells that did (`workspace.handCells`, few
 * beside a pulled workspace's), read again a moment after the workspace changes, never in a
 * keypress's path; the grids ask `isMarked` per cell draw (a map and a set lookup).
 */
import { bridge } from '../bridge';
import { gridApi } from '../grids/registry';
import { useWorkspace } from '../store/workspace';

let hand = new Map<string, Set<string>>();
/** Until main has answered, nothing is marked (a cell typed a moment ago is not flashed as another's). */
let known = false;

export function isMarked(localId: string, path: string, value: unknown): boolean {
  if (!known || value === null || value === undefined || value === '') return false;
  return !(hand.get(localId)?.has(path) ?? false);
}

const READ_AFTER_MS = 400;

async function readMarks(): Promise<void> {
  if (useWorkspace.getState().status !== 'ready') return;
  const next = await bridge.methods['workspace.handCells']({});
  const text = JSON.stringify(next);
  if (known && text === lastText) return;
  lastText = text;
  known = true;
  hand = new Map(Object.entries(next).map(([id, paths]) => [id, new Set(paths)]));
  for (const kind of ['assets', 'annual', 'certifications', 'energy_ratings'] as const)
    gridApi(kind)?.refreshCells();
}

let lastText = '{}';

/** Follows the workspace: its marks are read when it loads and after each change settles. */
export function connectCellMarks(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unsubscribe = useWorkspace.subscribe((state, prev) => {
    if (state.revision === prev.revision && state.status === prev.status) return;
    clearTimeout(timer);
    timer = setTimeout(() => void readMarks().catch(() => undefined), READ_AFTER_MS);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}
