import { randomUUID } from 'node:crypto';
import type { Asset, Validations } from '../../shared/domain';
import { changedPaths, mergeThreeWay, type AssetDoc } from '../../shared/sync/asset-doc';
import { verdictOf } from '../../shared/sync/server-verdict';
import { parseDoc, type AssetRecord } from './asset-record';
import type { StoreAccess } from './store-access';
import { WorkspaceEditError } from './workspace-edit-error';

/** The service's asset reduced to the document the analyst edits (service-owned keys kept aside). */
export function docFromRemote(asset: Asset): AssetDoc {
  const { _validations: _v, _outliers: _o, created_at: _c, updated_at: _u, asset_size: _s, ...rest } = asset;
  const doc: AssetDoc = { ...rest };
  doc.annual_data = asset.annual_data.map(({ _validations: _av, ...entry }) => entry);
  doc.certifications = asset.certifications.map(({ _validations: _cv, ...entry }) => entry);
  if (asset.energy_ratings)
    doc.energy_ratings = asset.energy_ratings.map(({ _validations: _ev, ...entry }) => entry);
  return doc;
}

/** What a pulled or acknowledged asset says of itself, stored as the service's verdict. */
function verdictJson(asset: {
  _validations?: Validations;
  annual_data?: unknown;
  certifications?: unknown;
}): string | null {
  return asset._validations ? JSON.stringify(verdictOf(asset)) : null;
}

/**
 * The service's copy taken into the workspace: pulled assets merged three ways (conflicts kept for
 * the user), answers to what we sent acknowledged under the edits made meanwhile, and assets the
 * service no longer has marked. Runs inside the store's transactions.
 */
export class RemoteMerge {
  constructor(private readonly store: StoreAccess) {}

  /**
   * Brings one remote asset in: a new asset is added; a known one is merged three ways, with
   * conflicts kept for the user. Returns what happened, for the pull's summary.
   */
  applyRemote(asset: Asset): 'added' | 'updated' | 'unchanged' | 'conflict' {
    const id = asset.service_asset_id;
    if (id === null) return 'unchanged';
    const theirs = docFromRemote(asset);
    const known = this.store.sql('SELECT local_id FROM assets WHERE service_asset_id = ?').get(id) as
      { local_id: string } | undefined;
    const existing = known ? this.store.mustGet(known.local_id) : undefined;
    if (!existing) {
      const json = JSON.stringify(theirs);
      this.store
        .sql(
          'INSERT INTO assets (local_id, service_asset_id, partners_id, base, current, outliers, server_validations, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          randomUUID(),
          id,
          typeof asset.partners_id === 'number' ? asset.partners_id : null,
          json,
          json,
          JSON.stringify(asset._outliers),
          verdictJson(asset),
          this.store.now(),
        );
      return 'added';
    }
    return this.mergeInto(existing, theirs, asset);
  }

  /**
   * Takes the service's answer for an asset it created or updated from what we sent: the answer
   * becomes the base, and edits the analyst made while the batch was in flight stay pending.
   */
  acknowledge(localId: string, asset: Asset): void {
    const row = this.store.sql('SELECT current, sent FROM assets WHERE local_id = ?').get(localId) as
      { current: string | null; sent: string | null } | undefined;
    if (!row) throw new WorkspaceEditError(`No asset ${localId} in the workspace`);
    const theirs = docFromRemote(asset);
    const theirsJson = JSON.stringify(theirs);
    let currentJson: string | null;
    if (row.current === null) currentJson = null;
    else if (row.sent === null || row.current === row.sent) {
      // Nothing was edited while the batch was out (no copy was kept): the service's copy is the
      // new local copy.
      currentJson = theirsJson;
    } else {
      const sent = parseDoc(row.sent) ?? theirs;
      currentJson = JSON.stringify(mergeThreeWay(sent, parseDoc(row.current) ?? {}, theirs).merged);
    }
    this.store
      .sql(
        'UPDATE assets SET service_asset_id = ?, base = ?, current = ?, outliers = ?, server_validations = ?, not_found = 0, updated_at = ? WHERE local_id = ?',
      )
      .run(
        asset.service_asset_id,
        theirsJson,
        currentJson,
        JSON.stringify(asset._outliers),
        verdictJson(asset),
        this.store.now(),
        localId,
      );
  }

  /**
   * Of `records`, those whose absence the service confirmed (a 404 on the asset itself, never a
   * listing that merely lacked it) were deleted on the service: an unedited one goes, an edited one
   * becomes a conflict for the user. A pending delete of an asset that is gone is done, not lost.
   */
  markMissing(
    records: readonly AssetRecord[],
    confirmedGone: ReadonlySet<number>,
  ): { removed: number; conflicts: number } {
    let removed = 0;
    let conflicts = 0;
    for (const record of records) {
      if (record.serviceAssetId === null || !confirmedGone.has(record.serviceAssetId)) continue;
      const edited = record.current !== null && changedPaths(record.base, record.current).length > 0;
      if (edited) {
        this.store.sql('UPDATE assets SET remote_deleted = 1 WHERE local_id = ?').run(record.localId);
        conflicts++;
      } else {
        this.store.sql('DELETE FROM assets WHERE local_id = ?').run(record.localId);
        removed++;
      }
    }
    return { removed, conflicts };
  }

  private mergeInto(
    existing: AssetRecord,
    theirs: AssetDoc,
    asset: Asset,
  ): 'updated' | 'unchanged' | 'conflict' {
    const base = existing.base ?? theirs;
    const changedRemotely = changedPaths(base, theirs).length > 0;
    let current = existing.current;
    let result: 'updated' | 'unchanged' | 'conflict' = changedRemotely ? 'updated' : 'unchanged';
    if (current !== null && changedRemotely) {
      const { merged, conflicts } = mergeThreeWay(base, current, theirs);
      current = merged;
      const insert = this.store.sql(
        'INSERT INTO conflicts (local_id, path, base, mine, theirs) VALUES (?, ?, ?, ?, ?) ON CONFLICT(local_id, path) DO UPDATE SET base = excluded.base, mine = excluded.mine, theirs = excluded.theirs',
      );
      for (const conflict of conflicts) {
        insert.run(
          existing.localId,
          conflict.path,
          JSON.stringify(conflict.base),
          JSON.stringify(conflict.mine),
          JSON.stringify(conflict.theirs),
        );
      }
      if (conflicts.length > 0) result = 'conflict';
    }
    this.store
      .sql(
        'UPDATE assets SET base = ?, current = ?, outliers = ?, server_validations = COALESCE(?, server_validations), remote_deleted = 0, not_found = 0, updated_at = ? WHERE local_id = ?',
      )
      .run(
        JSON.stringify(theirs),
        current === null ? null : JSON.stringify(current),
        JSON.stringify(asset._outliers),
        verdictJson(asset),
        this.store.now(),
        existing.localId,
      );
    return result;
  }
}
