import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import { schemaVersion } from '../../../electron/workspace/migrations';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { newAsset, tempWorkspace } from '../sync/harness';

const remote = (code: string): Asset => ({
  service_asset_id: 501,
  name: 'On the service',
  country: 'NL',
  state_province: 'NH',
  city: 'Amsterdam',
  ownership: 100,
  size: 1000,
  property_type_code: code,
  certifications: [],
  annual_data: [],
  _outliers: [],
  created_at: null,
  updated_at: null,
});

describe('workspace migrations', () => {
  it("give pending values of the first, invented property-type list the service's code, and leave the service's own alone", () => {
    const { store, file } = tempWorkspace('legacy-codes');
    const local = store.createAsset({ ...newAsset(1), property_type_code: 'OFF' });
    store.applyRemote(remote('HOT'));
    const synced = store.assetByServiceId(501)!;
    const edited = store.applyRemote({ ...remote('HOT'), service_asset_id: 502, name: 'Edited here' });
    expect(edited).toBe('added');
    store.setValue(store.assetByServiceId(502)!.localId, 'property_type_code', 'RES');
    store.close();
    // The file as the previous version left it.
    const raw = new Database(file);
    raw.pragma(`user_version = ${schemaVersion - 2}`);
    raw.close();

    const reopened = WorkspaceStore.open(file);
    expect(reopened.asset(local.localId)?.current?.property_type_code).toBe('OCHI');
    expect(reopened.asset(synced.localId)?.current?.property_type_code).toBe('HOT');
    expect(reopened.asset(synced.localId)?.base?.property_type_code).toBe('HOT');
    const pendingEdit = reopened.assetByServiceId(502)!;
    expect(pendingEdit.current?.property_type_code).toBe('RMFA');
    expect(pendingEdit.base?.property_type_code).toBe('HOT');
    // Nothing else of the documents changed.
    expect(reopened.asset(local.localId)?.current?.name).toBe('Asset 1');
    reopened.close();
  });
});
