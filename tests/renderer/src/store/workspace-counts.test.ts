import { describe, expect, it } from 'vitest';
import type { AssetStatus, AssetView } from '../../../../shared/sync/types';
import { countsOf, noCounts, recount } from '../../../../renderer/src/store/workspace-counts';
import { assetView } from '../../../support/asset-view';

const statuses: AssetStatus[] = ['clean', 'new', 'modified', 'deleted'];

function view(localId: string, seed: number): AssetView {
  return assetView(localId, {
    serviceAssetId: seed % 4 === 1 ? null : seed,
    doc: { name: `Asset ${localId}` },
    status: statuses[seed % 4]!,
    conflicts: seed % 5 === 0 ? [{ path: 'name', base: 'a', mine: 'b', theirs: 'c' }] : [],
    remoteDeleted: seed % 7 === 0,
    outliers: Array.from({ length: seed % 3 }, (_, k) => ({
      kpi: 'en' as const,
      type: 'lfl' as const,
      accepted: (seed + k) % 2 === 0,
      value: '40',
    })),
  });
}

describe('workspace counts', () => {
  it('counts each status, conflicts and unaccepted outliers; pending is new + changed + deleted', () => {
    const counts = countsOf([view('a', 1), view('b', 2), view('c', 3), view('d', 4), view('e', 5)]);
    // statuses: new, modified, deleted, clean, new; conflicts: seed 5; outliers: seed 1 (one, not
    // accepted), seed 2 (two, one accepted), seed 4 (one, accepted), seed 5 (two, one accepted).
    expect(counts).toEqual({
      assets: 4,
      pending: 4,
      created: 2,
      modified: 1,
      deleted: 1,
      conflicts: 1,
      outliers: 3,
    });
  });

  it('moved by replaced, added and removed views, equals a recount of the result', () => {
    let shown = new Map<string, AssetView>();
    let counts = noCounts;
    for (let step = 0; step < 200; step++) {
      const changes: Array<{ before: AssetView | undefined; after: AssetView | undefined }> = [];
      const next = new Map(shown);
      for (let k = 0; k < 3; k++) {
        const id = `id-${(step * 7 + k * 13) % 23}`;
        const after = (step + k) % 6 === 0 ? undefined : view(id, step * 3 + k);
        changes.push({ before: next.get(id), after });
        if (after) next.set(id, after);
        else next.delete(id);
      }
      counts = recount(counts, changes);
      shown = next;
      expect(counts).toEqual(countsOf(shown.values()));
    }
  });

  it('keeps the same object when nothing it counts moved, so the status bar does not redraw', () => {
    const before = view('a', 2);
    const counts = countsOf([before]);
    const after = { ...before, doc: { name: 'Renamed' } };
    expect(recount(counts, [{ before, after }])).toBe(counts);
    expect(recount(counts, [{ before, after: { ...before, status: 'clean' } }])).not.toBe(counts);
  });
});
