import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AssetView } from '../../../../shared/sync/types';
import { AssetTable } from '../../../../renderer/src/store/asset-table';
import { assetView } from '../../../support/asset-view';

const view = (localId: string, name: string): AssetView =>
  assetView(localId, { doc: { name }, status: 'new' });

const contents = (table: AssetTable): Map<string, AssetView> => new Map([...table]);

describe('asset table', () => {
  it('holds what a Map would after puts and removals, and leaves every earlier table as it was', () => {
    const ids = [...Array.from({ length: 300 }, () => randomUUID()), 'a', 'b', ''];
    let table = AssetTable.empty;
    const reference = new Map<string, AssetView>();
    const history: Array<[AssetTable, Map<string, AssetView>]> = [];
    for (let step = 0; step < 400; step++) {
      const put = [0, 1, 2].map((k) => view(ids[(step * 17 + k * 101) % ids.length]!, `v${step}.${k}`));
      const remove = step % 3 === 0 ? [ids[(step * 29) % ids.length]!, 'never there'] : [];
      table = table.with(put, remove);
      for (const v of put) reference.set(v.localId, v);
      for (const id of remove) reference.delete(id);
      expect(table.size).toBe(reference.size);
      if (step % 20 === 0) history.push([table, new Map(reference)]);
    }
    for (const [old, expected] of history) {
      expect(contents(old)).toEqual(expected);
      expect(old.size).toBe(expected.size);
      for (const [id, v] of expected) {
        expect(old.get(id)).toBe(v);
        expect(old.has(id)).toBe(true);
      }
      expect([...old.values()].length).toBe(expected.size);
    }
    expect(table.has('never there')).toBe(false);
    expect(table.get('never there')).toBeUndefined();
  });

  it('is built from views, the later of two with one id winning', () => {
    const table = AssetTable.of([view('x', 'first'), view('y', 'y'), view('x', 'second')]);
    expect(table.size).toBe(2);
    expect(table.get('x')?.doc['name']).toBe('second');
  });

  it('is the same table when nothing was put in or taken out', () => {
    const table = AssetTable.of([view('x', 'x')]);
    expect(table.with([], ['not there'])).toBe(table);
    expect(table.with([view('x', 'again')])).not.toBe(table);
    expect(table.get('x')?.doc['name']).toBe('x');
  });
});
