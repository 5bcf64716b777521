/**
 * The analyst's edits as the bridge's `workspace.*` methods: each is one labelled undo step,
 * labelled here (the one place a step's label is made), answered with the assets as they are now
 * and main's history after it. Part of `WorkspaceService`'s slice of the bridge.
 */
import { randomUUID } from 'node:crypto';
import type { ChangeSource, HandSourceKind } from '../../shared/history/change-source';
import { entryKey, type AssetDoc } from '../../shared/sync/asset-doc';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { AssetView, EditOutcome, HistoryOutcome } from '../../shared/sync/types';
import { notFound } from '../../shared/errors';
import type { BridgeHandlers } from '../bridge/handlers';
import { assetView, toAssetView } from './asset-views';
import type { WorkspaceStore } from './workspace-store';

export type EditHandlers = Pick<
  BridgeHandlers,
  | 'workspace.edit'
  | 'workspace.createAsset'
  | 'workspace.createAssets'
  | 'workspace.undo'
  | 'workspace.redo'
  | 'workspace.history'
  | 'workspace.deleteAssets'
  | 'workspace.revertAsset'
  | 'workspace.addEntry'
  | 'workspace.removeEntry'
  | 'workspace.resolveConflict'
  | 'workspace.resolveRemoteDeletion'
>;

/** The verb of a step of cells, by what the analyst's hand did. */
const verbs: Record<HandSourceKind, string> = {
  typed: 'edit',
  paste: 'paste',
  fill: 'fill',
  replace: 'replace',
  clear: 'clear',
};

/** "paste of 9 cells", "edit of 1 cell" (`noun`: "meter cell" for the Meters tab's grids). */
export function cellsLabel(source: HandSourceKind, count: number, noun = 'cell'): string {
  return `${verbs[source]} of ${count} ${count === 1 ? noun : `${noun}s`}`;
}

/**
 * `store`: the open workspace's (or a sentence why there is none, thrown); `idName`: the name the
 * connection's service reads the asset id under (what it no longer takes is kept here).
 */
export function editHandlers(store: () => WorkspaceStore, idName: () => AssetIdName): EditHandlers {
  const view = (s: WorkspaceStore, localId: string) => assetView(s, localId, idName());
  const mustView = (s: WorkspaceStore, localId: string): AssetView => {
    const result = view(s, localId);
    if (!result) throw notFound(`No asset ${localId} in the workspace`);
    return result;
  };

  /** Undo or redo one step: the assets it touched as they are now, and those now gone. */
  const travel = (direction: 'undo' | 'redo'): HistoryOutcome => {
    const s = store();
    const outcome = direction === 'undo' ? s.undo() : s.redo();
    const views: AssetView[] = [];
    const removed: string[] = [];
    for (const id of outcome?.touched ?? []) {
      const found = view(s, id);
      if (found) views.push(found);
      else removed.push(id);
    }
    return {
      label: outcome?.label ?? null,
      views,
      removed,
      responses: outcome?.responses ?? [],
      history: s.historyState(),
    };
  };

  const editEntries = (
    label: string,
    localId: string,
    collection: 'certifications' | 'energy_ratings',
    edit: (list: Record<string, unknown>[]) => void,
  ): AssetView => {
    const s = store();
    const record = s.asset(localId);
    if (!record?.current) throw notFound(`No editable asset ${localId}`);
    const doc: AssetDoc = structuredClone(record.current);
    const list = Array.isArray(doc[collection]) ? (doc[collection] as Record<string, unknown>[]) : [];
    edit(list);
    doc[collection] = list;
    const what = collection === 'certifications' ? 'certification' : 'energy rating';
    s.step(`${label} of a ${what}`, () => s.replaceDoc(localId, doc, `${collection}-edit`));
    return mustView(s, localId);
  };

  return {
    'workspace.edit': ({ edits, source = 'typed', label }): EditOutcome => {
      const s = store();
      const change: ChangeSource = { kind: source };
      // The records as the edit left them (each row read once): the views need no second read.
      const records = s.step(label ?? cellsLabel(source, edits.length), () => s.setValues(edits, change));
      const views = records.map((record) => toAssetView(record, s.conflicts(record.localId), idName()));
      return { views, history: s.historyState() };
    },
    'workspace.createAsset': ({ fields }) => {
      const s = store();
      const record = s.step('adding an asset', () =>
        s.createAsset({ ...fields, annual_data: [], certifications: [] }),
      );
      return mustView(s, record.localId);
    },
    'workspace.createAssets': ({ rows, edits, source = 'typed', label }): EditOutcome => {
      const s = store();
      const change: ChangeSource = { kind: source };
      const cells = rows.reduce(
        (n, row) => n + row.edits.length + Object.keys(row.fields).length,
        edits.length,
      );
      const named =
        label ?? (rows.length === 1 && cells === 0 ? 'adding an asset' : cellsLabel(source, cells));
      const ids = s.step(named, () => {
        const created = rows.map((row) => {
          const record = s.createAsset({ ...row.fields, annual_data: [], certifications: [] }, change);
          if (row.edits.length > 0)
            s.setValues(
              row.edits.map((edit) => ({ ...edit, localId: record.localId })),
              change,
            );
          return record.localId;
        });
        if (edits.length > 0) s.setValues(edits, change);
        return [...new Set([...created, ...edits.map((edit) => edit.localId)])];
      });
      return { views: ids.map((id) => mustView(s, id)), history: s.historyState() };
    },
    'workspace.undo': () => travel('undo'),
    'workspace.redo': () => travel('redo'),
    'workspace.history': () => store().historyState(),
    'workspace.deleteAssets': ({ localIds }) => {
      const s = store();
      const label = localIds.length === 1 ? 'delete of an asset' : `delete of ${localIds.length} assets`;
      s.step(label, () => {
        for (const id of localIds) if (s.asset(id)) s.deleteAsset(id);
      });
      return localIds;
    },
    'workspace.revertAsset': ({ localId }) => {
      const s = store();
      s.step('revert of an asset', () => s.revertAsset(localId));
      return view(s, localId);
    },
    'workspace.addEntry': ({ localId, collection, fields }) =>
      editEntries('addition', localId, collection, (list) =>
        list.push({ ...fields, _key: randomUUID().slice(0, 8) }),
      ),
    'workspace.removeEntry': ({ localId, collection, key }) =>
      editEntries('removal', localId, collection, (list) => {
        const index = list.findIndex((entry) => entryKey(collection, entry) === key);
        if (index >= 0) list.splice(index, 1);
      }),
    'workspace.resolveConflict': ({ localId, path, choice }) => {
      const s = store();
      s.step(`keeping ${choice} for a conflict`, () => s.resolveConflict(localId, path, choice));
      return view(s, localId);
    },
    'workspace.resolveRemoteDeletion': ({ localId, choice }) => {
      const s = store();
      s.step(`keeping ${choice} for a deleted asset`, () => s.resolveRemoteDeletion(localId, choice));
      return view(s, localId);
    },
  };
}
