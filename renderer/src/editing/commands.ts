/**
 * Every change the analyst makes, as commands: each goes through the bridge to the workspace, the
 * store takes the asset views the bridge answers, and the undo stack records the values before and
 * after. Commands run one at a time, in order, so a fast typist's edits land as typed.
 */
import { flattenDoc, type AssetDoc, type Scalar } from '../../../shared/sync/asset-doc';
import type { AssetView } from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { applyViews, useWorkspace } from '../store/workspace';
import { notify, useUi } from '../store/ui';
import { getPathValue, sameValue } from '../grid-model/values';
import { pending } from './pending';
import { redoEdits, undoEdits, UndoStack, type CellChange, type UndoEntry } from './undo-stack';
import { errorMessage } from '../../../shared/errors';

export interface Edit {
  localId: string;
  path: string;
  value: Scalar;
}

export const undoStack = new UndoStack();
let queue: Promise<unknown> = Promise.resolve();

function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

function syncUndoFlags(): void {
  useUi.setState({ canUndo: undoStack.canUndo, canRedo: undoStack.canRedo });
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

/** Sends cell edits as one batch; records them for undo unless `record` is false. */
export function editCells(edits: readonly Edit[], label: string, record = true): Promise<boolean> {
  const changes: CellChange[] = [];
  const seen = new Map<string, CellChange>();
  for (const edit of edits) {
    const k = `${edit.localId}\u0000${edit.path}`;
    const prior = seen.get(k);
    if (prior) {
      prior.after = edit.value;
      continue;
    }
    const before = currentValue(edit.localId, edit.path);
    if (sameValue(before, edit.value) && edit.path.split('/').length !== 2) continue;
    const change = { localId: edit.localId, path: edit.path, before, after: edit.value };
    seen.set(k, change);
    changes.push(change);
  }
  if (changes.length === 0) return Promise.resolve(true);
  const sent = changes.map((c) => ({ localId: c.localId, path: c.path, value: c.after }));
  const token = pending.set(sent);
  const ids = [...new Set(sent.map((e) => e.localId))];
  pending.notify(ids);
  return serial(async () => {
    try {
      performance.mark('edit:sent');
      const views = await bridge.methods['workspace.edit']({ edits: sent });
      performance.mark('edit:answered');
      pending.clear(sent, token);
      applyViews(views);
      performance.mark('edit:saved');
      if (record) {
        undoStack.push({ label, changes, created: [], deleted: [] });
        syncUndoFlags();
      }
      return true;
    } catch (error) {
      pending.clear(sent, token);
      pending.notify(ids);
      notify('error', `Not saved: ${errorMessage(error)}`);
      return false;
    }
  });
}

/** Creates an asset (optionally with fields), recorded for undo. */
export function createAsset(
  fields: Record<string, Scalar> = {},
  edits: (localId: string) => Edit[] = () => [],
  label = 'Add asset',
): Promise<AssetView | undefined> {
  return serial(async () => {
    try {
      let view = await bridge.methods['workspace.createAsset']({ fields });
      const more = edits(view.localId);
      const changes: CellChange[] = more.map((e) => ({ ...e, before: null, after: e.value }));
      if (more.length > 0) {
        const views = await bridge.methods['workspace.edit']({ edits: more });
        view = views.find((v) => v.localId === view.localId) ?? view;
      }
      applyViews([view]);
      undoStack.push({ label, changes, created: [{ localId: view.localId, fields }], deleted: [] });
      syncUndoFlags();
      return view;
    } catch (error) {
      notify('error', `Could not add the asset: ${errorMessage(error)}`);
      return undefined;
    }
  });
}

/** Several new assets at once (a paste that grows the grid), each with its cell edits; one undo step. */
export function createAssetsWithEdits(
  rows: Array<{ fields: Record<string, Scalar>; edits: (localId: string) => Edit[] }>,
  extra: readonly Edit[],
  label: string,
): Promise<boolean> {
  return serial(async () => {
    const entry: UndoEntry = { label, changes: [], created: [], deleted: [] };
    try {
      const views: AssetView[] = [];
      const allEdits: Edit[] = [];
      for (const row of rows) {
        const view = await bridge.methods['workspace.createAsset']({ fields: row.fields });
        views.push(view);
        entry.created.push({ localId: view.localId, fields: row.fields });
        for (const e of row.edits(view.localId)) {
          allEdits.push(e);
          entry.changes.push({ ...e, before: null, after: e.value });
        }
      }
      for (const e of extra) {
        const before = currentValue(e.localId, e.path);
        if (sameValue(before, e.value)) continue;
        allEdits.push(e);
        entry.changes.push({ ...e, before, after: e.value });
      }
      const edited = allEdits.length > 0 ? await bridge.methods['workspace.edit']({ edits: allEdits }) : [];
      const byId = new Map(views.map((v) => [v.localId, v]));
      for (const v of edited) byId.set(v.localId, v);
      applyViews([...byId.values()]);
      undoStack.push(entry);
      syncUndoFlags();
      return true;
    } catch (error) {
      notify('error', `Paste not saved: ${errorMessage(error)}`);
      if (entry.created.length > 0 || entry.changes.length > 0) {
        undoStack.push(entry);
        syncUndoFlags();
      }
      return false;
    }
  });
}

/** Deletes assets; new ones disappear, synced ones stay marked deleted until the sync. */
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
      deletedDocs.clear();
      for (const view of views) deletedDocs.set(view.localId, view);
      undoStack.push({
        label: views.length === 1 ? 'Delete asset' : `Delete ${views.length} assets`,
        changes: [],
        created: [],
        deleted: views.map((v) => v.localId),
      });
      syncUndoFlags();
    } catch (error) {
      notify('error', `Could not delete: ${errorMessage(error)}`);
    }
  });
}

/** The views of assets as they were when deleted, for undo. */
const deletedDocs = new Map<string, AssetView>();
const deletedHistory = new Map<string, AssetView>();

function scalarTopFields(doc: AssetDoc): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (
      [
        'annual_data',
        'certifications',
        'energy_ratings',
        'service_asset_id',
        '_outliers',
        '_validations',
      ].includes(k)
    )
      continue;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/** Edits that rebuild a document's annual data on an asset (entries of lists are re-added apart). */
function annualEdits(localId: string, doc: AssetDoc, only?: (path: string) => boolean): Edit[] {
  const out: Edit[] = [];
  for (const [path, value] of flattenDoc(doc)) {
    if (!path.startsWith('annual_data/')) continue;
    if (only && !only(path)) continue;
    out.push({ localId, path, value });
  }
  return out;
}

async function restoreDeleted(localId: string): Promise<void> {
  const view = deletedHistory.get(localId) ?? deletedDocs.get(localId);
  if (!view) throw new Error('Nothing to restore');
  if (view.serviceAssetId !== null) {
    // Back to the service's copy, then the local changes it had.
    const restored = await bridge.methods['workspace.revertAsset']({ localId });
    const edits: Edit[] = [];
    const base = flattenDoc(restored?.doc);
    for (const [path, value] of flattenDoc(view.doc)) {
      const parts = path.split('/');
      if (parts[0] === 'certifications' || parts[0] === 'energy_ratings') continue;
      if ((base.get(path) ?? null) !== value) edits.push({ localId, path, value });
    }
    const views =
      edits.length > 0 ? await bridge.methods['workspace.edit']({ edits }) : restored ? [restored] : [];
    applyViews(views);
    return;
  }
  const created = await bridge.methods['workspace.createAsset']({ fields: scalarTopFields(view.doc) });
  let latest = created;
  const edits = annualEdits(created.localId, view.doc);
  if (edits.length > 0) {
    const views = await bridge.methods['workspace.edit']({ edits });
    latest = views[0] ?? latest;
  }
  for (const collection of ['certifications', 'energy_ratings'] as const) {
    const list = view.doc[collection];
    if (!Array.isArray(list)) continue;
    for (const entry of list as Record<string, unknown>[]) {
      const { _key: _k, id: _i, _validations: _v, ...fields } = entry;
      latest = await bridge.methods['workspace.addEntry']({
        localId: created.localId,
        collection,
        fields: fields as Record<string, Scalar>,
      });
    }
  }
  applyViews([latest]);
  deletedHistory.set(created.localId, view);
  undoStack.remapAsset(localId, created.localId);
}

export function undo(): Promise<void> {
  return serial(async () => {
    const entry = undoStack.undo();
    if (!entry) return;
    try {
      const edits = undoEdits(entry).filter((e) => !entry.created.some((c) => c.localId === e.localId));
      if (edits.length > 0) applyViews(await bridge.methods['workspace.edit']({ edits }));
      if (entry.created.length > 0) {
        const ids = entry.created.map((c) => c.localId);
        for (const id of ids) {
          const view = viewOf(id);
          if (view) deletedHistory.set(id, view);
        }
        await bridge.methods['workspace.deleteAssets']({ localIds: ids });
        applyViews([], ids);
      }
      for (const id of entry.deleted) {
        const view = deletedDocs.get(id);
        if (view) deletedHistory.set(id, view);
        await restoreDeleted(id);
      }
      notify('info', `Undone: ${entry.label}`);
    } catch (error) {
      undoStack.rollbackUndo();
      notify('error', `Could not undo: ${errorMessage(error)}`);
    } finally {
      syncUndoFlags();
    }
  });
}

export function redo(): Promise<void> {
  return serial(async () => {
    const entry = undoStack.redo();
    if (!entry) return;
    try {
      for (const created of entry.created) {
        const view = await bridge.methods['workspace.createAsset']({ fields: created.fields });
        undoStack.remapAsset(created.localId, view.localId);
        applyViews([view]);
      }
      const edits = redoEdits(entry);
      if (edits.length > 0) applyViews(await bridge.methods['workspace.edit']({ edits }));
      if (entry.deleted.length > 0) {
        const views = entry.deleted.map(viewOf).filter((v): v is AssetView => v !== undefined);
        await bridge.methods['workspace.deleteAssets']({ localIds: views.map((v) => v.localId) });
        for (const v of views) deletedDocs.set(v.localId, v);
        applyViews(
          views
            .filter((v) => v.serviceAssetId !== null)
            .map((v) => ({ ...v, status: 'deleted' as const, changedPaths: [] })),
          views.filter((v) => v.serviceAssetId === null).map((v) => v.localId),
        );
      }
      notify('info', `Redone: ${entry.label}`);
    } catch (error) {
      undoStack.rollbackRedo();
      notify('error', `Could not redo: ${errorMessage(error)}`);
    } finally {
      syncUndoFlags();
    }
  });
}

/** Drops an asset's local changes (back to the service's copy); undo puts the changes back. */
export function revertAssets(localIds: readonly string[]): Promise<void> {
  return serial(async () => {
    const changes: CellChange[] = [];
    for (const localId of localIds) {
      const before = viewOf(localId);
      if (!before || before.status === 'clean') continue;
      try {
        const after = await bridge.methods['workspace.revertAsset']({ localId });
        if (after) {
          const a = flattenDoc(before.doc);
          const b = flattenDoc(after.doc);
          for (const path of new Set([...a.keys(), ...b.keys()])) {
            const head = path.split('/')[0];
            if (head === 'certifications' || head === 'energy_ratings') continue;
            const from = a.get(path) ?? null;
            const to = b.get(path) ?? null;
            if (from !== to && before.status !== 'deleted')
              changes.push({ localId, path, before: from, after: to });
          }
          applyViews([after]);
        } else {
          applyViews([], [localId]);
        }
      } catch (error) {
        notify('error', `Could not revert: ${errorMessage(error)}`);
      }
    }
    // Recorded so that undo puts the local values back.
    if (changes.length > 0) {
      undoStack.push({ label: 'Revert', changes, created: [], deleted: [] });
      syncUndoFlags();
    }
  });
}

export function addEntry(
  localId: string,
  collection: 'certifications' | 'energy_ratings',
  fields: Record<string, Scalar>,
): Promise<void> {
  return serial(async () => {
    try {
      applyViews([await bridge.methods['workspace.addEntry']({ localId, collection, fields })]);
    } catch (error) {
      notify('error', `Could not add: ${errorMessage(error)}`);
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
