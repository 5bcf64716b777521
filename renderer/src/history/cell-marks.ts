/**
 * The cells whose value did not come from the analyst's hand (an import, meters, the service), as
 * main keeps them (`workspace.cellMarks`): read again a moment after the workspace changes, never
 * in a keypress's path; the grids ask `isMarked` per cell draw (a map and a set lookup).
 */
import { bridge } from '../bridge';
import { gridApi } from '../grids/registry';
import { useWorkspace } from '../store/workspace';

let marks = new Map<string, Set<string>>();

export function isMarked(localId: string, path: string): boolean {
  return marks.size > 0 && (marks.get(localId)?.has(path) ?? false);
}

const READ_AFTER_MS = 400;

async function readMarks(): Promise<void> {
  if (useWorkspace.getState().status !== 'ready') return;
  const next = await bridge.methods['workspace.cellMarks']({});
  const text = JSON.stringify(next);
  if (text === lastText) return;
  lastText = text;
  marks = new Map(Object.entries(next).map(([id, paths]) => [id, new Set(paths)]));
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
