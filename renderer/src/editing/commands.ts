/**
 * Every change the analyst makes, as commands: each goes through the bridge to the workspace, and
 * the store takes the asset views the bridge answers. Undo and redo live in main (the workspace's
 * journal, `workspace.undo` / `workspace.redo`): each command is one step there, labelled here
 * ("paste of 9 cells"), and the renderer keeps no history, only what the toolbar shows of it.
 * Commands run one at a time, in order, so a fast typist's edits land as typed.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { AssetView, HistoryOutcome, HistoryState } from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { applyViews, useWorkspace } from '../store/workspace';
import { notify, useUi } from '../store/ui';
import { getPathValue, sameValue } from '../grid-model/values';
import { pending } from './pending';
import { errorMessage } from '../../../shared/errors';

export interface Edit {
  localId: string;
  path: string;
  value: Scalar;
}

let queue: Promise<unknown> = Promise.resolve();
let queued = 0;

/**
 * Main's calls one after another, in the order the analyst acted. An idle queue starts the call at
 * once: a typed value leaves before the grid's own work on the key (stop editing, move, redraw).
 */
function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queued === 0 ? task() : queue.then(task, task);
  queued++;
  queue = run.catch(() => undefined).finally(() => queued--);
  return run;
}

/** Shows main's history in the toolbar. */
function showHistory(history: HistoryState): void {
  useUi.setState({
    canUndo: history.undo !== null,
    canRedo: history.redo !== null,
    undoLabel: history.undo,
    redoLabel: history.redo,
  });
}

/** A command just became main's newest step: undo is that, redo is gone. */
function stepDone(label: string): void {
  showHistory({ undo: label, redo: null });
}

/** Asks main for the history (after an entity switch, a pull or an import reloaded the workspace). */
export function refreshHistory(): Promise<void> {
  return bridge.methods['workspace.history']({}).then(showHistory, () =>
    showHistory({ undo: null, redo: null }),
  );
}

// A reloaded workspace (another entity, a pull, an import) has its own history in main; none, none.
useWorkspace.subscribe((state, prev) => {
  if (state.change === prev.change || state.change.kind !== 'reset') return;
  if (state.status === 'ready') void refreshHistory();
  else showHistory({ undo: null, redo: null });
});

/** "paste of 9 cells" for the grid's commands; other labels as given. */
function stepLabel(label: string, cells: number): string {
  const verb = label.toLowerCase();
  if (['paste', 'fill down', 'clear', 'edit', 'replace'].includes(verb))
    return `${verb} of ${cells} ${cells === 1 ? 'cell' : 'cells'}`;
  return verb;
}

function viewOf(localId: string): AssetView | undefined {
  return useWorkspace.getState().assets.get(localId);
}

/** The value a cell holds now: a pending (typed, saving) value wins over the saved one. */
export function currentValue(localId: string, path: string): Scalar {
  const typed = pending.get(localId, path);
  if (typed) return typed.value;
  return getPathValue(viewOf(localId)?.doc, path);
}

/** Sends cell edits as one batch: one undo step in main. */
export function editCells(edits: readonly Edit[], label: string): Promise<boolean> {
  const latest = new Map<string, Edit>();
  for (const edit of edits) {
    const k = `${edit.localId}\u0000${edit.path}`;
    if (latest.has(k)) {
      latest.set(k, edit);
      continue;
    }
    const before = currentValue(edit.localId, edit.path);
    if (sameValue(before, edit.value) && edit.path.split('/').length !== 2) continue;
    latest.set(k, edit);
  }
  const sent = [...latest.values()].map((e) => ({ localId: e.localId, path: e.path, value: e.value }));
  if (sent.length === 0) return Promise.resolve(true);
  const token = pending.set(sent);
  const step = stepLabel(label, sent.length);
  const saved = serial(async () => {
    try {
      performance.mark('edit:sent');
      const views = await bridge.methods['workspace.edit']({ edits: sent, label: step });
      performance.mark('edit:answered');
      pending.clear(sent, token);
      applyViews(views);
      performance.mark('edit:saved');
      stepDone(step);
      return true;
    } catch (error) {
      pending.clear(sent, token);
      pending.notify(sent);
      notify('error', `Not saved: ${errorMessage(error)}`);
      return false;
    }
  });
  // The cells show the typed value as "saving" while main writes it.
  pending.notify(sent);
  return saved;
}

/** Creates an asset (optionally with fields and cell edits): one undo step. */
export function createAsset(
  fields: Record<string, Scalar> = {},
  edits: Array<{ path: string; value: Scalar }> = [],
  label = 'adding an asset',
): Promise<AssetView | undefined> {
  return serial(async () => {
    try {
      const views = await bridge.methods['workspace.createAssets']({
        rows: [{ fields, edits }],
        edits: [],
        label,
      });
      applyViews(views);
      stepDone(label);
      return views[0];
    } catch (error) {
      notify('error', `Could not add the asset: ${errorMessage(error)}`);
      return undefined;
    }
  });
}

/**
 * Several new assets at once (a paste that grows the grid), each with its cell edits, and edits of
 * existing cells: one transaction and one undo step in main.
 */
export function createAssetsWithEdits(
  rows: Array<{ fields: Record<string, Scalar>; edits: Array<{ path: string; value: Scalar }> }>,
  extra: readonly Edit[],
  label: string,
): Promise<boolean> {
  const edits = extra.filter((e) => !sameValue(currentValue(e.localId, e.path), e.value));
  const cells = rows.reduce((n, row) => n + row.edits.length + Object.keys(row.fields).length, edits.length);
  const step = stepLabel(label, cells);
  return serial(async () => {
    try {
      applyViews(await bridge.methods['workspace.createAssets']({ rows, edits, label: step }));
      stepDone(step);
      return true;
    } catch (error) {
      notify('error', `Paste not saved: ${errorMessage(error)}`);
      return false;
    }
  });
}

/**
 * Deletes assets: new ones disappear, synced ones stay, struck through, until the sync sends the
 * delete (Restore, or undo, brings them back). One undo step.
 */
export function deleteAssets(localIds: readonly string[]): Promise<void> {
  const views = localIds.map(viewOf).filter((v): v is AssetView => v !== undefined && v.status !== 'deleted');
  if (views.length === 0) return Promise.resolve();
  return serial(async () => {
    try {
      await bridge.methods['workspace.deleteAssets']({ localIds: views.map((v) => v.localId) });
      const kept: AssetView[] = [];
      const removed: string[] = [];
      for (const view of views) {
        if (view.serviceAssetId === null) removed.push(view.localId);
        else kept.push({ ...view, status: 'deleted', changedPaths: [] });
      }
      applyViews(kept, removed);
      stepDone(views.length === 1 ? 'delete of an asset' : `delete of ${views.length} assets`);
      const names = views.map((v) => String(v.doc['name'] ?? 'unnamed asset'));
      const shown =
        names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
      notify(
        'info',
        `Deleted ${shown}. ` +
          (kept.length > 0
            ? 'They stay struck through until Sync, which asks before deleting on the service; ↺ or Undo restores.'
            : 'Undo restores.'),
      );
    } catch (error) {
      notify('error', `Could not delete: ${errorMessage(error)}`);
    }
  });
}

/** Undo or redo one step in main; the assets it touched come back as they are now. */
/**
 * Others whose changes are steps of main's history (the Responses tab's answers): their edits land
 * before an undo runs, and they hear which of theirs a step changed.
 */
export interface HistoryParticipant {
  settled(): Promise<unknown>;
  changed(outcome: HistoryOutcome): void;
}
const participants = new Set<HistoryParticipant>();

export function joinHistory(participant: HistoryParticipant): () => void {
  participants.add(participant);
  return () => void participants.delete(participant);
}

function travel(direction: 'undo' | 'redo'): Promise<void> {
  return serial(async () => {
    try {
      // An answer typed or ticked a moment ago is the newest step: it reaches main first.
      await Promise.all([...participants].map((p) => p.settled()));
      const outcome = await bridge.methods[direction === 'undo' ? 'workspace.undo' : 'workspace.redo']({});
      applyViews(outcome.views, outcome.removed);
      showHistory(outcome.history);
      for (const participant of participants) participant.changed(outcome);
      if (outcome.label) notify('info', `${direction === 'undo' ? 'Undone' : 'Redone'}: ${outcome.label}`);
    } catch (error) {
      notify('error', `Could not ${direction}: ${errorMessage(error)}`);
      await refreshHistory();
    }
  });
}

export function undo(): Promise<void> {
  return travel('undo');
}

export function redo(): Promise<void> {
  return travel('redo');
}

/** Drops assets' local changes (back to the service's copy); each revert is an undo step in main. */
export function revertAssets(localIds: readonly string[]): Promise<void> {
  return serial(async () => {
    for (const localId of localIds) {
      const before = viewOf(localId);
      if (!before || before.status === 'clean') continue;
      try {
        const after = await bridge.methods['workspace.revertAsset']({ localId });
        if (after) applyViews([after]);
        else applyViews([], [localId]);
        stepDone('revert of an asset');
      } catch (error) {
        notify('error', `Could not revert: ${errorMessage(error)}`);
      }
    }
  });
}

/** Adds an entry; resolves with the asset as it is now (null when main refused). */
export function addEntry(
  localId: string,
  collection: 'certifications' | 'energy_ratings',
  fields: Record<string, Scalar>,
): Promise<AssetView | null> {
  return serial(async () => {
    try {
      const view = await bridge.methods['workspace.addEntry']({ localId, collection, fields });
      applyViews([view]);
      return view;
    } catch (error) {
      notify('error', `Could not add: ${errorMessage(error)}`);
      return null;
    }
  });
}

export function removeEntry(
  localId: string,
  collection: 'certifications' | 'energy_ratings',
  key: string,
): Promise<void> {
  return serial(async () => {
    try {
      applyViews([await bridge.methods['workspace.removeEntry']({ localId, collection, key })]);
    } catch (error) {
      notify('error', `Could not remove: ${errorMessage(error)}`);
    }
  });
}

/** Waits for every queued command (tests and the sync button use it). */
export function settled(): Promise<unknown> {
  return queue;
}
