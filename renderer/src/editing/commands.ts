/**
 * Every change the analyst makes, as commands: each goes through the bridge to the workspace, and
 * the store takes the asset views the bridge answers. Undo and redo live in main (the workspace's
 * journal, `workspace.undo` / `workspace.redo`): each command is one step there, labelled there
 * ("paste of 9 cells", from what the hand did: typed, paste, fill, replace, clear), and the renderer
 * keeps no history, only what the toolbar shows of main's answer.
 * Commands run one at a time, in order, so a fast typist's edits land as typed.
 */
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { HandSourceKind } from '../../../shared/history/change-source';
import type { AssetView, HistoryOutcome, HistoryState } from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { applyViews, useWorkspace } from '../store/workspace';
import { notify, useUi } from '../store/ui';
import { getPathValue, sameValue } from '../grid-model/values';
import { pending } from './pending';
import { handEdited } from '../history/cell-marks';
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

function viewOf(localId: string): AssetView | undefined {
  return useWorkspace.getState().assets.get(localId);
}

/** The value a cell holds now: a pending (typed, saving) value wins over the saved one. */
export function currentValue(localId: string, path: string): Scalar {
  const typed = pending.get(localId, path);
  if (typed) return typed.value;
  return getPathValue(viewOf(localId)?.doc, path);
}

/**
 * Sends cell edits as one batch: one undo step in main, which labels it from `how` (what the hand
 * did) or, for a named action, takes its label ("add year 2024").
 */
export function editCells(edits: readonly Edit[], how: HandSourceKind | { label: string }): Promise<boolean> {
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
  const named = typeof how === 'string' ? { source: how } : { label: how.label };
  const saved = serial(async () => {
    try {
      performance.mark('edit:sent');
      const { views, history } = await bridge.methods['workspace.edit']({ edits: sent, ...named });
      performance.mark('edit:answered');
      pending.clear(sent, token);
      handEdited(sent);
      applyViews(views, [], { byHand: true });
      performance.mark('edit:saved');
      showHistory(history);
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

/** Creates an asset (optionally with fields and cell edits): one undo step ("adding an asset"). */
export function createAsset(
  fields: Record<string, Scalar> = {},
  edits: Array<{ path: string; value: Scalar }> = [],
): Promise<AssetView | undefined> {
  return serial(async () => {
    try {
      const { views, history } = await bridge.methods['workspace.createAssets']({
        rows: [{ fields, edits }],
        edits: [],
      });
      applyViews(views);
      showHistory(history);
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
  source: HandSourceKind,
): Promise<boolean> {
  const edits = extra.filter((e) => !sameValue(currentValue(e.localId, e.path), e.value));
  return serial(async () => {
    try {
      const { views, history } = await bridge.methods['workspace.createAssets']({ rows, edits, source });
      applyViews(views);
      showHistory(history);
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
      await refreshHistory();
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
        await refreshHistory();
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
