import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { auditPages, type AuditRow } from '../../../electron/history/audit-log';
import { CellHistory } from '../../../electron/workspace/cell-history';
import { handCellsOf } from '../../../electron/workspace/hand-cells';
import { rowDocBase } from '../../../electron/workspace/history-docs';
import { ImportRecords } from '../../../electron/workspace/import-records';
import { schemaVersion } from '../../../electron/workspace/migrations';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';
import { migratedDb } from '../../support/migrated-db';

/** An asset as a workspace held it before history (or as a pull left it): no `cell_docs` row. */
function insertExisting(store: WorkspaceStore, localId: string, doc: AssetDoc): void {
  store.cells.access
    .sql('INSERT INTO assets (local_id, partners_id, base, local, updated_at) VALUES (?, 1, ?, NULL, 0)')
    .run(localId, JSON.stringify(doc));
}

const count = (store: WorkspaceStore, sql: string, ...args: unknown[]): number =>
  store.cells.access
    .sql(sql)
    .pluck()
    .get(...args) as number;

/** Everything the history shows of a workspace: each cell's entries, the hand marks, the audit log, the import. */
async function readings(
  history: CellHistory,
  imports: ImportRecords,
  ids: readonly string[],
  docs: (id: string) => AssetDoc,
) {
  const cells: Record<string, unknown> = {};
  for (const id of ids)
    for (const path of ['name', 'city', 'size'])
      cells[`${id} ${path}`] = history.entries(
        { kind: 'asset', id },
        path,
        (docs(id) as Record<string, string | number>)[path] ?? null,
      );
  const audit: AuditRow[] = [];
  for await (const page of auditPages(history, {})) audit.push(...page);
  const [record] = imports.recent();
  return {
    cells,
    hand: Object.fromEntries(handCellsOf(history.access, 'asset', ids)),
    audit,
    record: record && imports.detail(record.importId, { localId: ids[0]!, path: 'city' }),
  };
}

describe("an asset's history document", () => {
  it('is its own row: its first edit writes no cell_docs row, and a deleted asset never lends its history to a new one', () => {
    const { store } = tempWorkspace('row-doc');
    insertExisting(store, 'old', newAsset(1));
    store.step('edit of 1 cell', () => store.setValues([{ localId: 'old', path: 'city', value: 'Delft' }]));
    expect(count(store, 'SELECT COUNT(*) FROM cell_docs')).toBe(0);
    const rowid = count(store, "SELECT rowid FROM assets WHERE local_id = 'old'");
    // In its journal row first (history-tail.ts), then moved under the row's id.
    expect(count(store, 'SELECT COUNT(*) FROM cell_history')).toBe(0);
    store.settleHistory();
    expect(count(store, 'SELECT COUNT(*) FROM cell_docs')).toBe(0);
    expect(count(store, 'SELECT COUNT(*) FROM cell_history WHERE doc = ?', rowid - rowDocBase)).toBe(1);
    expect(store.cells.entries({ kind: 'asset', id: 'old' }, 'city', 'Delft').map((e) => e.value)).toEqual([
      'Delft',
      'Amsterdam',
    ]);

    // The row goes (a never-sent asset deleted): its history moves to a row of its own...
    store.step('delete', () => store.deleteAsset('old'));
    expect(count(store, "SELECT COUNT(*) FROM assets WHERE local_id = 'old'")).toBe(0);
    expect(count(store, 'SELECT COUNT(*) FROM cell_history WHERE doc < 0')).toBe(0);
    // ...so a new asset given the same rowid (max + 1 again) starts with none.
    insertExisting(store, 'new', newAsset(2));
    expect(count(store, "SELECT rowid FROM assets WHERE local_id = 'new'")).toBe(rowid);
    expect(
      store.cells.entries({ kind: 'asset', id: 'new' }, 'city', 'Amsterdam').map((e) => e.value),
    ).toEqual(['Amsterdam']);
    store.step('edit of 1 cell', () => store.setValues([{ localId: 'new', path: 'city', value: 'Leiden' }]));
    expect(store.cells.entries({ kind: 'asset', id: 'new' }, 'city', 'Leiden').map((e) => e.value)).toEqual([
      'Leiden',
      'Amsterdam',
    ]);
    // The delete undone: the old asset's history is there again, and goes on.
    store.undo();
    store.undo();
    expect(store.asset('old')?.current?.city).toBe('Delft');
    store.step('edit of 1 cell', () => store.setValues([{ localId: 'old', path: 'city', value: 'Gouda' }]));
    expect(store.cells.entries({ kind: 'asset', id: 'old' }, 'city', 'Gouda').map((e) => e.value)).toEqual([
      'Gouda',
      'Delft',
      null,
      'Delft',
      'Amsterdam',
    ]);
    store.close();
  });

  it('migrates a file of the previous step without loss: every cell, the hand marks, the audit log and the import read the same', async () => {
    // A file as step 10 wrote it: the app's own writes (a hand-made asset, edits, an import), each
    // document a `cell_docs` row, as step 10's recorder registered every document it saw.
    const { store, file } = tempWorkspace('step-10');
    insertExisting(store, 'before', newAsset(1));
    const made = store.createAsset(newAsset(2)).localId;
    store.step('edit of 1 cell', () =>
      store.setValues([{ localId: 'before', path: 'city', value: 'Delft' }]),
    );
    store.step('paste', () =>
      store.setValues(
        [
          { localId: made, path: 'city', value: 'Leiden' },
          { localId: 'before', path: 'name', value: 'Pasted' },
        ],
        { kind: 'paste' },
      ),
    );
    store.step('import', () =>
      store.transaction(() => {
        const { id, source } = store.imports.begin('workbook', 'assets-2025.xlsx');
        store.cells.placing(
          (localId) => (localId === 'before' ? new Map([['city', 'Assets!F3']]) : undefined),
          () =>
            store.replaceDoc(
              'before',
              { ...store.asset('before')!.current!, city: 'Gouda' },
              'import',
              source,
            ),
        );
        const imported = store.cells.placing(
          () => new Map([['name', 'Assets!B4']]),
          () => store.createAsset(newAsset(3), source),
        );
        store.imports.finish(id, source, {
          kind: 'workbook',
          sheets: ['Assets'],
          created: 1,
          updated: 1,
          cells: 2,
          skipped: 0,
          skippedWhat: 'assets rejected',
          label: `import of 2 assets (${imported.localId})`,
        });
      }),
    );
    store.close();
    const ids = ['before', made];
    {
      // Back to step 10: no trigger, and the asset first seen by a change registered as it did.
      const { db } = migratedDb(file);
      const rowid = db.prepare("SELECT rowid FROM assets WHERE local_id = 'before'").pluck().get() as number;
      db.exec(`
        INSERT OR IGNORE INTO change_sources (json) VALUES ('{"kind":"before-history"}');
        INSERT INTO cell_docs (kind, ref, origin_at, origin_source)
          SELECT 'asset', 'before', CAST(value AS INTEGER), (SELECT id FROM change_sources WHERE json = '{"kind":"before-history"}')
          FROM meta WHERE key = 'history_started_at';
        UPDATE cell_history SET doc = (SELECT id FROM cell_docs WHERE ref = 'before') WHERE doc = ${rowid - rowDocBase};
        DROP TRIGGER assets_history_kept;
        PRAGMA user_version = 10;
      `);
      db.close();
    }
    const old = new Database(file);
    expect(old.pragma('user_version', { simple: true })).toBe(10);
    expect(old.prepare('SELECT COUNT(*) FROM cell_docs WHERE kind = ?').pluck().get('asset')).toBe(3);
    const cache = new Map<string, ReturnType<typeof old.prepare>>();
    const access = {
      sql: (text: string) => {
        let s = cache.get(text);
        if (!s) cache.set(text, (s = old.prepare(text)));
        return s;
      },
      now: () => Date.now(),
    };
    const docOf = (id: string) =>
      JSON.parse(
        (
          access.sql('SELECT COALESCE(local, base) AS d FROM assets WHERE local_id = ?').get(id) as {
            d: string;
          }
        ).d,
      ) as AssetDoc;
    // Read by this code at step 10 (where every document has its `cell_docs` row, as before).
    const before = await readings(new CellHistory(access), new ImportRecords(access, () => null), ids, docOf);
    old.close();

    const reopened = WorkspaceStore.open(file);
    expect(count(reopened, 'PRAGMA user_version')).toBe(schemaVersion);
    const after = await readings(reopened.cells, reopened.imports, ids, (id) => reopened.asset(id)!.current!);
    expect(after).toEqual(before);
    expect(Object.keys(after.cells)).toHaveLength(6);
    expect((after.cells['before city'] as Array<{ value: unknown }>).map((e) => e.value)).toEqual([
      'Gouda',
      'Delft',
      'Amsterdam',
    ]);
    // The pasted name is the analyst's (the import's city is not); the hand-made asset's every cell is.
    expect(after.hand['before']).toEqual(['name']);
    expect(after.hand[made]).toEqual(expect.arrayContaining(['city', 'name', 'size', 'country']));
    expect(after.record?.rows.map((r) => [r.path, r.value])).toEqual([
      ['city', 'Gouda'],
      ['name', 'Asset 3'],
    ]);
    expect(after.record?.highlighted).toBe(0);
    expect(after.audit.length).toBeGreaterThanOrEqual(5);
    // An edit after the migration goes on under the document's row, not a new id.
    reopened.step('edit', () => reopened.setValues([{ localId: 'before', path: 'city', value: 'Breda' }]));
    expect(reopened.cells.entries({ kind: 'asset', id: 'before' }, 'city', 'Breda')).toHaveLength(4);
    expect(count(reopened, 'SELECT COUNT(*) FROM cell_history WHERE doc < 0')).toBe(0);
    reopened.close();
  });
});
