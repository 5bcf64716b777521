import { randomInt, randomUUID } from 'node:crypto';
import { setPathFrom, setPathValue, type AssetDoc, type Scalar } from '../../shared/sync/asset-doc';
import type { AssetRecord } from './asset-record';
import type { History, RowImage } from './history';
import { writeCurrent, type StoreAccess } from './store-access';
import { WorkspaceEditError } from './workspace-edit-error';

export interface Edit {
  localId: string;
  path: string;
  value: Scalar;
}

/**
 * A random 9-digit id (100000000–999999999): short enough for an analyst to read and type, and in
 * a space of 900 million, so two laptops rarely give the same one; a reconcile adopts an asset by
 * it only among the entity's assets the workspace does not know yet.
 */
export function newPartnersId(): number {
  return 100_000_000 + randomInt(900_000_000);
}

/**
 * The analyst's edits of the workspace's assets: each is journalled and committed (one
 * transaction) before it returns, and an edit of an asset whose batch is out keeps the copy that
 * was sent.
 */
export class AssetEdits {
  constructor(
    private readonly store: StoreAccess,
    private readonly history: History,
  ) {}

  createAsset(doc: AssetDoc): AssetRecord {
    const localId = randomUUID();
    const partnersId = typeof doc.partners_id === 'number' ? doc.partners_id : newPartnersId();
    const current = { ...doc, partners_id: partnersId };
    this.store.transaction(() => {
      this.store
        .sql('INSERT INTO assets (local_id, partners_id, base, local, updated_at) VALUES (?, ?, NULL, ?, ?)')
        .run(localId, partnersId, JSON.stringify(current), this.store.now());
      this.journal(localId, 'create', current, null);
    });
    return this.store.mustGet(localId);
  }

  /**
   * Applies many cell edits at once (a paste, a fill-down) as one transaction: one write and one
   * journal row per asset, with the paths it touched.
   */
  setValues(edits: readonly Edit[]): void {
    const byAsset = new Map<string, Edit[]>();
    for (const edit of edits) {
      const list = byAsset.get(edit.localId);
      if (list) list.push(edit);
      else byAsset.set(edit.localId, [edit]);
    }
    this.store.transaction(() => {
      for (const [localId, list] of byAsset) {
        const record = this.store.mustGet(localId);
        if (!record.current)
          throw new WorkspaceEditError(`Asset ${localId} is deleted; restore it before editing`);
        const before = this.before(localId);
        let next = record.current;
        for (const edit of list) next = setPathValue(next, edit.path, edit.value);
        writeCurrent(this.store, localId, next);
        const cells = list.map(({ path, value }) => ({ path, value }));
        this.journal(localId, 'set', { edits: cells }, before);
      }
    });
  }

  /** Replaces the whole local copy (entry edits, imports); the journal keeps the new document. */
  replaceDoc(localId: string, doc: AssetDoc, kind = 'replace'): void {
    this.store.transaction(() => {
      this.store.mustGet(localId);
      const before = this.before(localId);
      writeCurrent(this.store, localId, doc);
      this.journal(localId, kind, {}, before);
    });
  }

  deleteAsset(localId: string): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = this.before(localId);
      // Never sent: nothing on the service to delete, so the row simply goes.
      if (record.serviceAssetId === null && record.inFlight === null) {
        this.store.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      } else {
        writeCurrent(this.store, localId, null);
      }
      this.journal(localId, 'delete', {}, before);
    });
  }

  /** Drops local changes of an asset: back to what the service has. */
  revertAsset(localId: string): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = this.before(localId);
      if (record.base === null) this.store.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      else writeCurrent(this.store, localId, record.base);
      this.store.sql('DELETE FROM conflicts WHERE local_id = ?').run(localId);
      this.journal(localId, 'revert', {}, before);
    });
  }

  resolveConflict(localId: string, path: string, choice: 'mine' | 'theirs'): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      const before = this.before(localId);
      if (choice === 'theirs' && record.current && record.base) {
        writeCurrent(this.store, localId, setPathFrom(record.current, record.base, path));
      }
      this.store.sql('DELETE FROM conflicts WHERE local_id = ? AND path = ?').run(localId, path);
      this.journal(localId, 'resolve', { path, choice }, before);
    });
  }

  /** An asset deleted on the service while edited here: keep mine (create again) or take theirs. */
  resolveRemoteDeletion(localId: string, choice: 'mine' | 'theirs'): void {
    this.store.transaction(() => {
      const record = this.store.mustGet(localId);
      if (!record.remoteDeleted) return;
      const before = this.before(localId);
      if (choice === 'theirs' || record.current === null) {
        this.store.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      } else {
        const { service_asset_id: _id, ...doc } = record.current;
        this.store
          .sql(
            'UPDATE assets SET service_asset_id = NULL, base = NULL, local = ?, deleted = 0, remote_deleted = 0, updated_at = ? WHERE local_id = ?',
          )
          .run(JSON.stringify(doc), this.store.now(), localId);
      }
      this.journal(localId, 'resolve-deletion', { choice }, before);
    });
  }

  /** The row as it was, for undo; only inside a step (imports and merges outside one skip the read). */
  private before(localId: string): RowImage {
    return this.history.recording ? this.history.image(localId) : null;
  }

  private journal(localId: string, kind: string, payload: unknown, before: RowImage): void {
    this.history.journal(localId, kind, payload, before);
  }
}
