import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CellHistory, storedSource } from '../../../electron/workspace/cell-history';
import { openSqlite } from '../../../electron/storage/sqlite';
import { migrate, schemaVersion } from '../../../electron/workspace/migrations';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { setPathValue } from '../../../shared/sync/asset-doc';
import { tempWorkspace } from '../../../support/sync-harness';
import { migratedDb } from '../../support/migrated-db';

function open(file: string): { db: Database.Database; history: CellHistory } {
  const { db, sql } = migratedDb(file);
  return { db, history: new CellHistory({ sql }) };
}

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'asset-desk-history-')), 'ws.sqlite');
const asset: AssetDoc = { name: 'Tower', size: 1000, annual_data: [{ year: 2024, en_abs_wf: 10 }] };
const doc = { kind: 'asset' as const, id: 'a1' };
const path = 'annual_data/2024/en_abs_wf';

describe('cell history', () => {
  it('keeps every value of a cell with its source, newest first, across a restart', () => {
    const file = tempFile();
    let { db, history } = open(file);
    history.record(
      [{ doc, before: null, after: asset }],
      { kind: 'service', updatedAt: '2026-03-03T10:00:00Z' },
      1000,
    );
    const typed = setPathValue(asset, path, 12);
    db.transaction(() => history.record([{ doc, before: asset, after: typed }], { kind: 'typed' }, 2000))();
    const pasted = setPathValue(typed, path, 13);
    history.record([{ doc, before: typed, after: pasted }], { kind: 'paste' }, 3000);
    history.record([{ doc, before: pasted, after: typed }], { kind: 'undo' }, 4000);
    db.close();
    ({ db, history } = open(file));
    expect(history.entries(doc, path, 12)).toEqual([
      { at: 4000, value: 12, previous: 13, source: { kind: 'undo' } },
      { at: 3000, value: 13, previous: 12, source: { kind: 'paste' } },
      { at: 2000, value: 12, previous: 10, source: { kind: 'typed' } },
      { at: 1000, value: 10, previous: null, source: { kind: 'service', updatedAt: '2026-03-03' } },
    ]);
    // A cell the pull brought and nothing changed: its one entry is the arrival.
    expect(history.entries(doc, 'name', 'Tower')).toEqual([
      {
        at: 1000,
        value: 'Tower',
        previous: null,
        source: { kind: 'service', updatedAt: '2026-03-03' },
      },
    ]);
    db.close();
  });

  it('shows what an older workspace held as before history, and keeps history per file', () => {
    const { history } = open(tempFile());
    const other = open(tempFile()).history;
    expect(history.entries(doc, 'name', 'Tower')).toEqual([
      { at: history.historyStartedAt(), value: 'Tower', previous: null, source: { kind: 'before-history' } },
    ]);
    history.record([{ doc, before: asset, after: { ...asset, name: 'Spire' } }], { kind: 'typed' }, 5000);
    expect(history.entries(doc, 'name', 'Spire').map((e) => [e.value, e.source.kind])).toEqual([
      ['Spire', 'typed'],
      ['Tower', 'before-history'],
    ]);
    expect(other.entries(doc, 'name', 'Spire').map((e) => e.source.kind)).toEqual(['before-history']);
  });

  it("knows the cells from the analyst's hand: typed, not imported, and an undo back to an import", () => {
    const { history } = open(':memory:');
    history.record([{ doc, before: null, after: asset }], { kind: 'typed' }, 1);
    expect(history.handCells('asset', ['a1']).get('a1')).toEqual([path, 'name', 'size']);
    const imported = setPathValue(asset, path, 20);
    history.record([{ doc, before: asset, after: imported }], { kind: 'workbook', file: 'a.xlsx' }, 2);
    expect(history.handCells('asset', ['a1']).get('a1')).toEqual(['name', 'size']);
    const typed = setPathValue(imported, path, 21);
    history.record([{ doc, before: imported, after: typed }], { kind: 'typed' }, 3);
    expect(history.handCells('asset', ['a1']).get('a1')).toEqual([path, 'name', 'size']);
    history.record([{ doc, before: typed, after: imported }], { kind: 'undo' }, 4);
    expect(history.handCells('asset', ['a1']).get('a1')).toEqual(['name', 'size']);
    // A pull's new asset: nothing from the hand, nothing written for it there.
    const pulled = { kind: 'asset' as const, id: 'a2' };
    history.record([{ doc: pulled, before: null, after: asset }], { kind: 'service', updatedAt: null }, 5);
    expect(history.handCells('asset', ['a2']).get('a2')).toBeUndefined();
  });

  it('answers the hand cells of the documents asked for only, of the kind asked for', () => {
    const { history } = open(':memory:');
    const ids = ['b1', 'b2', 'b3'];
    for (const [i, id] of ids.entries())
      history.record([{ doc: { kind: 'asset', id }, before: null, after: asset }], { kind: 'typed' }, i + 1);
    const answer = history.handCells('asset', ['b3', 'b1', 'missing']);
    expect([...answer.keys()]).toEqual(['b1', 'b3']);
    expect(answer.get('b1')).toEqual([path, 'name', 'size']);
    expect(history.handCells('asset', []).size).toBe(0);
    expect(history.handCells('answer', ['b1']).size).toBe(0);
  });

  it("writes nothing for a pull's new asset: its version 7 id dates its arrival from the service", () => {
    const { db, history } = open(':memory:');
    const arrived = history.historyStartedAt() + 5_000;
    const hex = arrived.toString(16).padStart(12, '0');
    const id = `${hex.slice(0, 8)}-${hex.slice(8)}-7000-8000-000000000001`;
    const pulled = { kind: 'asset' as const, id };
    history.record(
      [{ doc: pulled, before: null, after: asset }],
      { kind: 'service', updatedAt: null },
      arrived,
    );
    expect(db.prepare('SELECT COUNT(*) AS n FROM cell_docs').get()).toEqual({ n: 0 });
    const service = { kind: 'service', updatedAt: null };
    expect(history.entries(pulled, 'name', 'Tower')).toEqual([
      { at: arrived, value: 'Tower', previous: null, source: service },
    ]);
    // Its first edit makes its row, with the same origin.
    history.record(
      [{ doc: pulled, before: asset, after: { ...asset, name: 'Spire' } }],
      { kind: 'typed' },
      arrived + 1_000,
    );
    expect(history.entries(pulled, 'name', 'Spire').map((e) => [e.value, e.at, e.source.kind])).toEqual([
      ['Spire', arrived + 1_000, 'typed'],
      ['Tower', arrived, 'service'],
    ]);
  });

  it("keeps a pull's sources one per day of the service's updated_at, not one per asset", () => {
    const { db, history } = open(tempFile());
    const times = ['2026-03-03T08:00:00Z', '2026-03-03T17:59:59.123Z', '2026-03-03T23:30:00-02:00', null];
    times.forEach((updatedAt, i) => {
      const ref = { kind: 'asset' as const, id: `b${i}` };
      const changed = setPathValue(asset, path, 20 + i);
      history.record([{ doc: ref, before: asset, after: changed }], { kind: 'service', updatedAt }, 5000);
    });
    const stored = db.prepare('SELECT json FROM change_sources').pluck().all() as string[];
    expect(stored.filter((json) => json.includes('"service"')).sort()).toEqual([
      '{"kind":"service","updatedAt":"2026-03-03"}',
      '{"kind":"service","updatedAt":"2026-03-04"}',
      '{"kind":"service","updatedAt":null}',
    ]);
    expect(history.entries({ kind: 'asset', id: 'b1' }, path, 21)[0]?.source).toEqual({
      kind: 'service',
      updatedAt: '2026-03-03',
    });
    // Text that is no date is kept as the service gave it.
    expect(storedSource({ kind: 'service', updatedAt: 'soon' })).toEqual({
      kind: 'service',
      updatedAt: 'soon',
    });
    db.close();
  });

  it('forgets ids learnt in a transaction that rolled back', () => {
    const { db, history } = open(':memory:');
    expect(() =>
      db.transaction(() => {
        history.record(
          [{ doc, before: asset, after: { ...asset, city: 'Delft' } }],
          { kind: 'csv', file: 'x.csv', row: 3 },
          1,
        );
        throw new Error('refused');
      })(),
    ).toThrow('refused');
    history.record([{ doc, before: asset, after: { ...asset, country: 'NL' } }], { kind: 'typed' }, 2);
    expect(history.entries(doc, 'country', 'NL').map((e) => e.source.kind)).toEqual(['typed']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM cell_history').get()).toEqual({ n: 1 });
  });

  it('is a step of the migrations', () => {
    const { db } = open(':memory:');
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
  });

  it("moves an older file's hand marks into its history rows without losing a row or a mark", () => {
    const file = tempFile();
    const old = openSqlite(file);
    migrate(old, 9);
    const sql = (text: string) => old.prepare(text);
    // As schema 9 wrote it: rows per change, and a mark per cell whose value is the analyst's.
    sql(
      'INSERT INTO change_sources (id, json) VALUES (1, \'{"kind":"typed"}\'), (2, \'{"kind":"workbook","file":"a.xlsx"}\')',
    ).run();
    sql("INSERT INTO cell_paths (id, path) VALUES (1, 'name'), (2, 'size'), (3, ?)").run(path);
    sql(
      "INSERT INTO cell_docs (id, kind, ref, origin_at, origin_source) VALUES (1, 'asset', 'a1', 0, 1), (2, 'asset', 'a2', 0, 2)",
    ).run();
    const row = sql(
      'INSERT INTO cell_history (doc, path, at, value, previous, source) VALUES (?, ?, ?, ?, ?, ?)',
    );
    row.run(2, 3, 1, 11, 10, 1); // typed, then imported over: not the analyst's
    row.run(2, 3, 2, 12, 11, 2);
    row.run(2, 1, 3, '"Spire"', '"Tower"', 2); // imported, then typed over: the analyst's
    row.run(2, 1, 4, '"Mast"', '"Spire"', 1);
    const mark = sql('INSERT INTO cell_hand (doc, path) VALUES (?, ?)');
    mark.run(1, 1); // a1 made by hand, never changed since
    mark.run(1, 2);
    mark.run(2, 1);
    old.close();

    const { db, history } = open(file);
    expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    expect(db.prepare('SELECT COUNT(*) AS n FROM cell_history').get()).toEqual({ n: 4 });
    expect(Object.fromEntries(history.handCells('asset', ['a1', 'a2']))).toEqual({
      a1: ['name', 'size'],
      a2: ['name'],
    });
    // The cell's history reads as it did.
    expect(
      history.entries({ kind: 'asset', id: 'a2' }, 'name', 'Mast').map((e) => [e.value, e.source.kind]),
    ).toEqual([
      ['Mast', 'typed'],
      ['Spire', 'workbook'],
      ['Tower', 'workbook'],
    ]);
    // And the marks go on from the rows: a2's name imported over, its energy typed.
    const a2 = { kind: 'asset' as const, id: 'a2' };
    history.record(
      [{ doc: a2, before: { name: 'Mast' }, after: { name: 'Pole' } }],
      { kind: 'csv', file: 'b.csv' },
      9,
    );
    history.record(
      [
        {
          doc: a2,
          before: { annual_data: [{ year: 2024, en_abs_wf: 12 }] },
          after: { annual_data: [{ year: 2024, en_abs_wf: 13 }] },
        },
      ],
      { kind: 'typed' },
      10,
    );
    expect(history.handCells('asset', ['a2']).get('a2')).toEqual([path]);
    db.close();
  });

  it('over a workspace store, forgets ids learnt in a step or a savepoint that rolled back, told by the store', () => {
    const { store } = tempWorkspace('history-rollbacks');
    const ids = ['A', 'B', 'C'].map((name) => store.step('add', () => store.createAsset({ name })).localId);
    const [a, b, c] = ids as [string, string, string];
    // An old file's assets: no history document yet, so each first edit learns its document's id.
    store.cells.access.sql('DELETE FROM cell_docs').run();
    store.cells.forget();
    // A's first edit, its step rolled back: its document's id was learnt, then taken back.
    expect(() =>
      store.step('edit', () => {
        store.setValue(a, 'city', 'Delft', { kind: 'typed' });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    // A savepoint rolled back inside a step that goes on: C learnt in it, then taken back.
    store.step('edit', () => {
      expect(() =>
        store.setValues([
          { localId: c, path: 'city', value: 'Ede' },
          { localId: 'missing', path: 'city', value: 'x' },
        ]),
      ).toThrow();
      // B's document takes the id A's (and then C's) had for a moment.
      store.setValue(b, 'city', 'Breda', { kind: 'typed' });
    });
    store.step('edit', () => store.setValue(a, 'city', 'Assen', { kind: 'paste' }));
    store.step('edit', () => store.setValue(c, 'city', 'Epe', { kind: 'fill' }));
    const kinds = (id: string, value: string) =>
      store.cells.entries({ kind: 'asset', id }, 'city', value).map((e) => [e.value, e.source.kind]);
    expect(kinds(a, 'Assen')).toEqual([['Assen', 'paste']]);
    expect(kinds(b, 'Breda')).toEqual([['Breda', 'typed']]);
    expect(kinds(c, 'Epe')).toEqual([['Epe', 'fill']]);
    // The edits' history rides in their journal rows until moved (history-tail.ts): 3 rows then.
    expect(store.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get()).toEqual({ n: 0 });
    expect(store.settleHistory()).toBe(true);
    expect([kinds(a, 'Assen'), kinds(b, 'Breda'), kinds(c, 'Epe')]).toEqual([
      [['Assen', 'paste']],
      [['Breda', 'typed']],
      [['Epe', 'fill']],
    ]);
    expect(store.cells.access.sql('SELECT COUNT(*) AS n FROM cell_history').get()).toEqual({ n: 3 });
    store.close();
  });
});
