import { describe, expect, it } from 'vitest';
import { CellHistory } from '../../../electron/workspace/cell-history';
import { handCellsOf, newestHandSql } from '../../../electron/workspace/hand-cells';
import { migratedDb } from '../../support/migrated-db';
import type { AssetDoc } from '../../../shared/sync/asset-doc';

const asset: AssetDoc = { name: 'Tower', size: 1000 };
const doc = (id: string) => ({ kind: 'asset' as const, id });

describe("the analyst's hand cells", () => {
  it("are a cell's newest row's word, or its document's making by hand when no change touched it", () => {
    const { sql } = migratedDb();
    const history = new CellHistory({ sql });
    history.record([{ doc: doc('m'), before: null, after: asset }], { kind: 'typed' }, 1);
    history.record(
      [{ doc: doc('m'), before: asset, after: { ...asset, size: 2 } }],
      { kind: 'workbook', file: 'a.xlsx' },
      2,
    );
    history.record(
      [{ doc: doc('p'), before: asset, after: { ...asset, name: 'Spire' } }],
      { kind: 'paste' },
      3,
    );
    history.record(
      [{ doc: doc('p'), before: { ...asset, name: 'Spire' }, after: { ...asset, name: null } }],
      { kind: 'clear' },
      4,
    );
    history.record(
      [{ doc: doc('p'), before: { ...asset, name: null }, after: { ...asset, name: 'Spire' } }],
      { kind: 'undo' },
      5,
    );
    expect(Object.fromEntries(handCellsOf({ sql }, 'asset', ['p', 'm', 'x']))).toEqual({
      m: ['name'],
      p: ['name'],
    });
  });

  it('are read from the index of the history alone, for the documents asked only', () => {
    const { db } = migratedDb();
    const text = db
      .prepare("SELECT sql FROM sqlite_schema WHERE name = 'cell_history_cell'")
      .pluck()
      .get() as string;
    expect(text).toMatch(/\(doc, path, id, hand\)/);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${newestHandSql}`)
      .all({ ids: '["a"]', kind: 'asset' }) as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join(' | ')).toMatch(
      /SEARCH h USING COVERING INDEX cell_history_cell/,
    );
  });
});
