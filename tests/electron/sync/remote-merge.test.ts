import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Asset } from '../../../shared/domain';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';
import { RemoteMerge } from '../../../electron/sync/remote-merge';

/** The service's copy of asset `id`, as a listing or an answer gives it. */
const remote = (id: number, city = 'Amsterdam'): Asset => ({
  service_asset_id: id,
  name: `Asset ${id}`,
  country: 'NL',
  state_province: 'Noord-Holland',
  city,
  ownership: 100,
  size: 1_000 + id,
  property_type_code: 'OCHI',
  certifications: [],
  annual_data: [],
  _outliers: [],
  created_at: null,
  updated_at: null,
});

/** How the file stores each asset's local copy: 'none' (the base is it), 'own' or 'deleted'. */
function storedCopies(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT local_id, local IS NOT NULL AS own, deleted FROM assets').all() as Array<{
    local_id: string;
    own: number;
    deleted: number;
  }>;
  db.close();
  return Object.fromEntries(
    rows.map((row) => [row.local_id, row.deleted ? 'deleted' : row.own ? 'own' : 'none']),
  );
}

describe('the workspace stores the local copy only where it is not the service’s', () => {
  it('once for a pulled asset, its own copy while edited, none again when the edit is undone', () => {
    const { store, file } = tempWorkspace('one-copy');
    expect(new RemoteMerge(store).applyRemote(remote(7))).toBe('added');
    const { localId } = store.assetByServiceId(7)!;
    expect(storedCopies(file)).toEqual({ [localId]: 'none' });
    expect(store.asset(localId)?.current).toEqual(store.asset(localId)?.base);

    store.step('Edit', () => store.setValue(localId, 'city', 'Utrecht'));
    expect(storedCopies(file)).toEqual({ [localId]: 'own' });
    expect(store.asset(localId)?.current?.city).toBe('Utrecht');
    expect(store.asset(localId)?.base?.city).toBe('Amsterdam');

    store.undo();
    expect(storedCopies(file)).toEqual({ [localId]: 'none' });
    expect(store.asset(localId)?.inStep).toBe(true);

    store.step('Delete', () => store.deleteAsset(localId));
    expect(storedCopies(file)).toEqual({ [localId]: 'deleted' });
    expect(store.asset(localId)?.current).toBeNull();
    store.undo();
    expect(store.asset(localId)?.current?.city).toBe('Amsterdam');
    store.close();
  });

  it('a pull under an edit keeps the edit as the local copy, and one that catches up stores none', () => {
    const { store, file } = tempWorkspace('merge-copy');
    new RemoteMerge(store).applyRemote(remote(8));
    const { localId } = store.assetByServiceId(8)!;
    store.setValue(localId, 'name', 'Renamed here');

    // The service moved the city: merged under the local rename, which stays pending.
    expect(new RemoteMerge(store).applyRemote(remote(8, 'Haarlem'))).toBe('updated');
    expect(store.asset(localId)?.current).toMatchObject({ name: 'Renamed here', city: 'Haarlem' });
    expect(storedCopies(file)).toEqual({ [localId]: 'own' });

    // The service's answer to the rename: the local copy is the service's again.
    new RemoteMerge(store).acknowledge(localId, { ...remote(8, 'Haarlem'), name: 'Renamed here' });
    expect(storedCopies(file)).toEqual({ [localId]: 'none' });
    expect(store.asset(localId)?.current).toMatchObject({ name: 'Renamed here', city: 'Haarlem' });
    expect(store.pendingCandidates()).toEqual([]);
    store.close();
  });

  it('gives the assets a pull brings in local ids that are unique and in the order they came', () => {
    const { store } = tempWorkspace('pulled-ids');
    // Thousands within a few milliseconds: the ids of one millisecond are counted, not drawn.
    store.transaction(() => {
      for (let id = 1; id <= 5_000; id++) new RemoteMerge(store).applyRemote(remote(id));
    });
    const ids = store.listAssets().map((record) => record.localId);
    expect(new Set(ids).size).toBe(5_000);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    store.close();
  });
});

describe('the service’s verdict on a pulled asset', () => {
  const said = (errors: Record<string, string[]>): Pick<Asset, '_validations' | 'annual_data'> => ({
    _validations: { errors: {} },
    annual_data: [{ year: 2024, _validations: { errors } }],
  });
  const storedVerdict = (file: string, id: number): unknown => {
    const db = new Database(file, { readonly: true });
    const row = db.prepare('SELECT server_validations FROM assets WHERE service_asset_id = ?').get(id);
    db.close();
    return (row as { server_validations: string | null }).server_validations;
  };

  it('stores a verdict without messages as nothing to show, and lets it replace one with messages', () => {
    const { store, file } = tempWorkspace('verdict');
    new RemoteMerge(store).applyRemote({ ...remote(9), ...said({}) });
    const { localId } = store.assetByServiceId(9)!;
    expect(store.asset(localId)?.serverValidations).toBeNull();
    expect(storedVerdict(file, 9)).toBe('');

    // The service now refuses a field of the record (the document is the same): the verdict says so.
    expect(new RemoteMerge(store).applyRemote({ ...remote(9), ...said({ en_abs_we: ['Too high'] }) })).toBe(
      'unchanged',
    );
    const refused = store.asset(localId)?.serverValidations;
    expect(refused?.annualData[0]).toEqual({
      year: 2024,
      _validations: { errors: { en_abs_we: ['Too high'] } },
    });

    // A listing that says nothing of validations keeps the verdict; a silent one clears it.
    new RemoteMerge(store).applyRemote({ ...remote(9), annual_data: [{ year: 2024 }] });
    expect(store.asset(localId)?.serverValidations).toEqual(refused);
    new RemoteMerge(store).applyRemote({ ...remote(9), ...said({ en_abs_we: [] }) });
    expect(store.asset(localId)?.serverValidations).toBeNull();
    store.close();
  });
});

describe('a batch answer taken over the copy sent (issue 33: its images known, not read back)', () => {
  it('records the cells the service changed, with its source, and nothing for an answer that kept them', () => {
    const { store } = tempWorkspace('answer-images');
    const created = store.createAsset(newAsset(3));
    const other = store.createAsset(newAsset(4));
    const sentOf = (localId: string) => store.copiesOf(localId)!.current!;
    const ids = (localId: string) => {
      const record = store.asset(localId)!;
      return { serviceAssetId: null, partnersId: record.partnersId, doc: record.current! };
    };
    const answer = (localId: string, id: number, city: string): Asset => ({
      ...(JSON.parse(sentOf(localId)) as Asset),
      service_asset_id: id,
      city,
      certifications: [],
      _outliers: [],
      created_at: null,
      updated_at: '2026-03-03T10:00:00Z',
    });
    const carried = (asset: Asset) => JSON.parse(JSON.stringify(asset)) as Record<string, unknown>;
    const merge = new RemoteMerge(store);
    const changed = answer(created.localId, 901, 'Haarlem');
    const kept = answer(other.localId, 902, 'Amsterdam');
    store.transaction(() => {
      const [sentA, sentB] = [sentOf(created.localId), sentOf(other.localId)];
      expect(
        merge.acknowledge(created.localId, changed, sentA, carried(changed), false, ids(created.localId)),
      ).toBe(false);
      expect(merge.acknowledge(other.localId, kept, sentB, carried(kept), false, ids(other.localId))).toBe(
        true,
      );
    });
    expect(store.asset(created.localId)).toMatchObject({ serviceAssetId: 901, inStep: true });
    expect(store.asset(created.localId)?.current?.city).toBe('Haarlem');
    const [latest, ...older] = store.cells.entries({ kind: 'asset', id: created.localId }, 'city', 'Haarlem');
    expect(latest).toMatchObject({
      value: 'Haarlem',
      previous: 'Amsterdam',
      source: { kind: 'service', updatedAt: '2026-03-03' },
    });
    expect(older.map((entry) => entry.value)).toEqual(['Amsterdam']);
    // Nothing else of the first changed; nothing of the second.
    expect(store.cells.entries({ kind: 'asset', id: created.localId }, 'name', 'Asset 3')).toHaveLength(1);
    expect(store.cells.entries({ kind: 'asset', id: other.localId }, 'city', 'Amsterdam')).toHaveLength(1);
    expect(store.asset(other.localId)).toMatchObject({ serviceAssetId: 902, inStep: true });

    // An update answered with the very text sent (the usual case): the copy sent, nothing recorded.
    store.setValue(other.localId, 'city', 'Utrecht');
    const sentC = sentOf(other.localId);
    const echoed = JSON.parse(sentC) as Asset;
    store.transaction(() => {
      expect(
        merge.acknowledge(other.localId, echoed, sentC, carried(echoed), false, {
          ...ids(other.localId),
          serviceAssetId: 902,
        }),
      ).toBe(true);
    });
    expect(store.asset(other.localId)).toMatchObject({ serviceAssetId: 902, inStep: true });
    expect(store.copiesOf(other.localId)?.base).toBe(sentC);
    expect(store.cells.entries({ kind: 'asset', id: other.localId }, 'city', 'Utrecht')).toHaveLength(2);
    store.close();
  });
});
