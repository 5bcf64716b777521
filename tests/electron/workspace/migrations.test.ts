import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { migrate, schemaVersion } from '../../../electron/workspace/migrations';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { newAsset } from '../../../support/sync-harness';

/** One asset row as the first four schemas stored it: both copies whole (current NULL: deleted). */
interface OldRow {
  localId: string;
  serviceAssetId: number | null;
  base: AssetDoc | null;
  current: AssetDoc | null;
}

/** A workspace file as the app at schema `version` left it, holding `rows`. */
function oldWorkspace(version: number, rows: OldRow[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-ws-')), 'old.sqlite');
  const db = new Database(file);
  migrate(db, version);
  const insert = db.prepare(
    'INSERT INTO assets (local_id, service_asset_id, partners_id, base, current, updated_at) VALUES (?, ?, NULL, ?, ?, 0)',
  );
  for (const row of rows) {
    const json = (doc: AssetDoc | null) => (doc === null ? null : JSON.stringify(doc));
    insert.run(row.localId, row.serviceAssetId, json(row.base), json(row.current));
  }
  expect(db.pragma('user_version', { simple: true })).toBe(version);
  db.close();
  return file;
}

const synced = (i: number, code = 'OCHI'): AssetDoc => ({
  ...newAsset(i),
  service_asset_id: 500 + i,
  property_type_code: code,
});

describe('workspace migrations', () => {
  it("give pending values of the first, invented property-type list the service's code, and leave the service's own alone", () => {
    const file = oldWorkspace(2, [
      {
        localId: 'new',
        serviceAssetId: null,
        base: null,
        current: { ...newAsset(1), property_type_code: 'OFF' },
      },
      { localId: 'theirs', serviceAssetId: 501, base: synced(1, 'HOT'), current: synced(1, 'HOT') },
      { localId: 'edited', serviceAssetId: 502, base: synced(2, 'HOT'), current: synced(2, 'RES') },
    ]);

    const reopened = WorkspaceStore.open(file);
    expect(reopened.asset('new')?.current?.property_type_code).toBe('OCHI');
    expect(reopened.asset('theirs')?.current?.property_type_code).toBe('HOT');
    expect(reopened.asset('theirs')?.base?.property_type_code).toBe('HOT');
    expect(reopened.asset('edited')?.current?.property_type_code).toBe('RMFA');
    expect(reopened.asset('edited')?.base?.property_type_code).toBe('HOT');
    // Nothing else of the documents changed.
    expect(reopened.asset('new')?.current?.name).toBe('Asset 1');
    reopened.close();
  });

  it('keep the local copy only where it differs from the base, and every asset reads as it did', () => {
    const rows: OldRow[] = [
      { localId: 'in-step', serviceAssetId: 501, base: synced(1), current: synced(1) },
      { localId: 'edited', serviceAssetId: 502, base: synced(2), current: { ...synced(2), city: 'Utrecht' } },
      { localId: 'deleted', serviceAssetId: 503, base: synced(3), current: null },
      { localId: 'new', serviceAssetId: null, base: null, current: newAsset(4) },
    ];
    const file = oldWorkspace(4, rows);

    const store = WorkspaceStore.open(file);
    for (const row of rows) {
      const record = store.asset(row.localId);
      expect(record?.base ?? null).toEqual(row.base);
      expect(record?.current ?? null).toEqual(row.current);
    }
    expect(store.pendingCandidates().map((c) => [c.localId, c.hasCurrent])).toEqual([
      ['edited', true],
      ['deleted', false],
      ['new', true],
    ]);
    store.close();

    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    const stored = db
      .prepare('SELECT local_id, local IS NOT NULL AS copy, deleted FROM assets ORDER BY rowid')
      .all();
    db.close();
    expect(stored).toEqual([
      { local_id: 'in-step', copy: 0, deleted: 0 },
      { local_id: 'edited', copy: 1, deleted: 0 },
      { local_id: 'deleted', copy: 0, deleted: 1 },
      { local_id: 'new', copy: 1, deleted: 0 },
    ]);
  });
});
