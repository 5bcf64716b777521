import { randomUUID } from 'node:crypto';
import type { ChangeSource } from '../../shared/history/change-source';
import { setPathFrom, setPathValue, type AssetDoc, type Scalar } from '../../shared/sync/asset-doc';
import { newPartnersId, type RowImage } from './asset-document';
import type { AssetRecord } from './asset-record';
import type { StoreAccess } from './store-access';
import { WorkspaceEditError } from './workspace-edit-error';
import type { WritePath } from './write-path';

export { newPartnersId };

export interface Edit {
  localId: string;
  path: string;
  value: Scalar;
}

const typed: ChangeSource = { kind: 'typed' };

/** An asset's image for history, from its record as read (no second read). */
const imageOf = (record: AssetRecord): NonNullable<RowImage> => ({
  current: record.current,
  serviceAssetId: record.serviceAssetId,
  partnersId: record.partnersId,
});

/**
 * The analyst's edits of the workspace's assets, each through the write path (write-path.ts), which
 * journals it and tells the change recorder; committed (one transaction) before it returns. An edit
 * of an asset whose batch is out keeps the copy that was sent.
 */
export class AssetEdits {
  constructor(
    private readonly store: StoreAccess,
    private readonly path: WritePath,
  ) {}

  createAsset(doc: AssetDoc, source: ChangeSource = typed): AssetRecord {
    const localId = randomUUID();
    const partnersId = typeof doc.partners_id === 'number' ? doc.partners_id : newPartnersId();
    const current = { ...doc, partners_id: partnersId };
    this.store.transaction(() => {
      this.path.analyst('asset', localId, { kind: 'create', payload: current, source, before: null }, (w) => {
        w.insertLocal(localId, partnersId, current);
        return { current, serviceAssetId: null, partnersId };
      });
    });
    return this.store.mustGet(localId);
  }

  /**
   * Applies many cell edits at once (a paste, a fill-down) as one transaction: one read, one write
   * and one journal row per asset, with the paths it touched. Returns each asset's record as left
   * (read once, before the edit: the views are made from it without reading the row again).
   */
  setValues(edits: readonly Edit[], source: ChangeSource = typed): AssetRecord[] {
    const byAsset = new Map<string, Edit[]>();
    for (const edit of edits) {
      const list = byAsset.get(edit.localId);
      if (list) list.push(edit);
      else byAsset.set(edit.localId, [edit]);
    }
    return this.store.transaction(() => {
      const records: AssetRecord[] = [];
      for (const [localId, list] of byAsset) {
        const record = this.store.mustGet(localId);
        if (!record.current)
          throw new WorkspaceEditError(`Asset ${localId} is deleted; restore it before editing`);
        let next = record.current;
        for (const edit of list) next = setPathValue(next, edit.path, edit.value);
        const cells = list.map(({ path, value }) => ({ path, value }));
        const before = imageOf(record);
        this.path.analyst(
          'asset',
          localId,
          // Only these paths change (setPathValue): the recorder compares just them.
          { kind: 'set', payload: { edits: cells }, source, before, cells: list.map((edit) => edit.path) },
          (w) => {
            w.setCurrent(localId, next);
            return { ...before, current: next };
          },
        );
        // The base is the service's copy: the view compares it with the new copy.
        records.push({ ...record, current: next, inStep: undefined });
      }
      return records;
    });
  }

  /** Replaces the whole local copy (entry edits, imports); the journal keeps the new document. */
  replaceDoc(localId: string, doc: AssetDoc, kind = 'replace', source: ChangeSource = typed): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = imageOf(record);
      this.path.analyst('asset', localId, { kind, source, before }, (w) => {
        w.setCurrent(localId, doc);
        return { ...before, current: doc };
      });
    });
  }

  deleteAsset(localId: string, source: ChangeSource = typed): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = imageOf(record);
      this.path.analyst('asset', localId, { kind: 'delete', source, before }, (w) => {
        // Never sent: nothing on the service to delete, so the row simply goes.
        if (record.serviceAssetId === null && record.inFlight === null) {
          w.remove(localId);
          return null;
        }
        w.setCurrent(localId, null);
        return { ...before, current: null };
      });
    });
  }

  /** Drops local changes of an asset: back to what the service has. */
  revertAsset(localId: string, source: ChangeSource = typed): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = imageOf(record);
      this.path.analyst('asset', localId, { kind: 'revert', source, before }, (w) => {
        if (record.base === null) {
          w.remove(localId);
          return null;
        }
        w.setCurrent(localId, record.base);
        return { ...before, current: record.base };
      });
      this.store.sql('DELETE FROM conflicts WHERE local_id = ?').run(localId);
    });
  }

  resolveConflict(localId: string, path: string, choice: 'mine' | 'theirs'): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = imageOf(record);
      const source: ChangeSource = { kind: 'conflict', choice };
      this.path.analyst(
        'asset',
        localId,
        { kind: 'resolve', payload: { path, choice }, source, before },
        (w) => {
          if (choice === 'theirs' && record.current && record.base) {
            const next = setPathFrom(record.current, record.base, path);
            w.setCurrent(localId, next);
            return { ...before, current: next };
          }
          return before;
        },
      );
      this.store.sql('DELETE FROM conflicts WHERE local_id = ? AND path = ?').run(localId, path);
    });
  }

  /** An asset deleted on the service while edited here: keep mine (create again) or take theirs. */
  resolveRemoteDeletion(localId: string, choice: 'mine' | 'theirs'): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      if (!record.remoteDeleted) return;
      const before = imageOf(record);
      const source: ChangeSource = { kind: 'conflict', choice };
      const change = { kind: 'resolve-deletion', payload: { choice }, source, before };
      this.path.analyst('asset', localId, change, (w) => {
        if (choice === 'theirs' || record.current === null) {
          w.remove(localId);
          return null;
        }
        const { service_asset_id: _id, ...doc } = record.current;
        w.detachFromService(localId, doc);
        return { current: doc, serviceAssetId: null, partnersId: record.partnersId };
      });
    });
  }
}
