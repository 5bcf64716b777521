import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { auditPages, type AuditRow } from '../../../electron/history/audit-log';
import { openSqlite } from '../../../electron/storage/sqlite';
import { cellSources, type CellSource } from '../../../electron/workspace/cell-sources';
import { readTail, tailLimit } from '../../../electron/workspace/history-tail';
import { migrate, schemaVersion } from '../../../electron/workspace/migrations';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import type { AssetDoc } from '../../../shared/sync/asset-doc';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';

/** An asset as a pull or an older workspace left it: no history document yet. */
function insertExisting(store: WorkspaceStore, localId: string, doc: AssetDoc): void {
  store.cells.access
    .sql('INSERT INTO assets (local_id, partners_id, base, local, updated_at) VALUES (?, 1, ?, NULL, 0)')
    .run(localId, JSON.stringify(doc));
}

const count = (store: WorkspaceStore, sql: string): number =>
  store.cells.access.sql(sql).pluck().get() as number;
const rows = (store: WorkspaceStore) => count(store, 'SELECT COUNT(*) FROM cell_history');
const type = (store: WorkspaceStore, localId: string, path: string, value: string | number | null) =>
  store.step('edit of 1 cell', () => store.setValues([{ localId, path, value }], { kind: 'typed' }));
const values = (store: WorkspaceStore, localId: string, path: string) =>
  store.cells
    .entries({ kind: 'asset', id: localId }, path, store.asset(localId)?.current?.[path] as string)
    .map((entry) => [entry.value, entry.source.kind]);

/** Everything the history shows: the cells' entries, the hand marks, the Sources tab's cells, the audit log. */
async function readings(store: WorkspaceStore, ids: readonly string[]) {
  const cells: Record<string, unknown> = {};
  for (const id of ids) for (const path of ['name', 'city']) cells[`${id} ${path}`] = values(store, id, path);
  const sources: Record<string, CellSource[]> = {};
  cellSources(
    store.cells,
    ids.map((localId) => ({ localId, doc: store.asset(localId)!.current! })),
    (localId, found) => (sources[localId] = found),
  );
  const audit: AuditRow[] = [];
  for await (const page of auditPages(store.cells, {})) audit.push(...page);
  return { cells, hand: Object.fromEntries(store.cells.handCells('asset', ids)), sources, audit };
}

/** The tables whose pages the log's frames since the last checkpoint wrote (SQLite's dbstat). */
function pagesWritten(store: WorkspaceStore, file: string): Set<string> {
  const names = new Map(
    (
      store.cells.access.sql('SELECT pageno, name FROM dbstat').all() as Array<{
        pageno: number;
        name: string;
      }>
    ).map((row) => [row.pageno, row.name]),
  );
  const wal = readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const out = new Set<string>();
  for (let at = 32; at + 24 <= wal.length; at += 24 + pageSize)
    out.add(names.get(wal.readUInt32BE(at)) ?? '?');
  return out;
}

describe("the cell history's tail (history in the edit's own journal row)", () => {
  it("a keypress writes no page of the history's tables: its history rides in its journal row", () => {
    const { store, file } = tempWorkspace('tail-pages');
    for (let i = 0; i < 50; i++) insertExisting(store, `a${i}`, newAsset(i, 6));
    type(store, 'a1', 'city', 'Delft');
    store.settleHistory();
    for (let i = 0; i < 20; i++) {
      store.cells.access.sql('PRAGMA wal_checkpoint(TRUNCATE)').get();
      type(store, `a${(i * 7) % 50}`, 'city', `City ${i}`);
      const written = pagesWritten(store, file);
      expect(written).toContain('journal');
      expect(written).not.toContain('cell_history');
      expect(written).not.toContain('cell_history_cell');
      expect(written).not.toContain('cell_docs');
    }
    expect(rows(store)).toBe(1);
    expect(readTail(store.cells.access).cells).toHaveLength(20);
    store.close();
  });

  it("is read by every reader (a cell's history, the hand marks, the Sources tab, the audit log) as once moved", async () => {
    const { store } = tempWorkspace('tail-readers');
    insertExisting(store, 'a', newAsset(1));
    insertExisting(store, 'b', newAsset(2));
    type(store, 'a', 'city', 'Delft');
    store.step('paste of 2 cells', () =>
      store.setValues(
        [
          { localId: 'a', path: 'name', value: 'Tower' },
          { localId: 'b', path: 'city', value: 'Ede' },
        ],
        { kind: 'paste' },
      ),
    );
    store.step('clear of 1 cell', () =>
      store.setValues([{ localId: 'b', path: 'city', value: null }], { kind: 'clear' }),
    );
    expect(rows(store)).toBe(0);
    const before = await readings(store, ['a', 'b']);
    expect(before.cells['a city']).toEqual([
      ['Delft', 'typed'],
      ['Amsterdam', 'before-history'],
    ]);
    expect(before.cells['b city']).toEqual([
      [null, 'clear'],
      ['Ede', 'paste'],
      ['Amsterdam', 'before-history'],
    ]);
    expect(before.hand).toEqual({ a: ['city', 'name'] });
    expect(before.sources['a']?.find((cell) => cell.path === 'city')?.source).toEqual({ kind: 'typed' });
    expect(before.audit.filter((row) => row.path !== '').map((row) => [row.path, row.value])).toEqual([
      ['city', 'Delft'],
      ['name', 'Tower'],
      ['city', 'Ede'],
      ['city', null],
    ]);
    expect(store.settleHistory()).toBe(true);
    expect(rows(store)).toBe(4);
    expect(readTail(store.cells.access).cells).toHaveLength(0);
    expect(await readings(store, ['a', 'b'])).toEqual(before);
    store.close();
  });

  it('is moved before any other history (ids stay in time order), at its limit, when the file is quiet and at close', async () => {
    const { store, file } = tempWorkspace('tail-moves');
    insertExisting(store, 'a', newAsset(1));
    type(store, 'a', 'city', 'Delft');
    // An undo records its change directly: the typed row goes in first.
    store.undo();
    expect(
      store.cells.access.sql('SELECT value FROM cell_history ORDER BY id').pluck().all() as unknown[],
    ).toEqual(['"Delft"', '"Amsterdam"']);
    expect(values(store, 'a', 'city')).toEqual([
      ['Amsterdam', 'undo'],
      ['Delft', 'typed'],
      ['Amsterdam', 'before-history'],
    ]);
    // An import's change (not the analyst's hand) too.
    type(store, 'a', 'city', 'Gouda');
    store.step('import', () =>
      store.setValues([{ localId: 'a', path: 'city', value: 'Breda' }], { kind: 'workbook', file: 'a.xlsx' }),
    );
    expect(rows(store)).toBe(4);
    expect(values(store, 'a', 'city').slice(0, 2)).toEqual([
      ['Breda', 'workbook'],
      ['Gouda', 'typed'],
    ]);
    // At its limit, the next edit moves it and is written directly.
    for (let i = 0; i <= tailLimit; i++) type(store, 'a', 'size', 2_000 + i);
    expect(rows(store)).toBe(4 + tailLimit + 1);
    expect(readTail(store.cells.access).cells).toHaveLength(0);
    // Quiet for a second: the store moves it.
    type(store, 'a', 'size', 5);
    expect(readTail(store.cells.access).cells).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(readTail(store.cells.access).cells).toHaveLength(0);
    expect(rows(store)).toBe(4 + tailLimit + 2);
    // At close.
    type(store, 'a', 'size', 6);
    store.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT COUNT(*) FROM cell_history').pluck().get()).toBe(4 + tailLimit + 3);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'history_moved_seq'").pluck().get()).toBe(
      String(db.prepare('SELECT MAX(seq) FROM journal').pluck().get()),
    );
    db.close();
  });

  it("is moved by another connection's history (a worker's) before its own, and main goes on after", () => {
    const { store: main, file } = tempWorkspace('tail-other');
    insertExisting(main, 'a', newAsset(1));
    type(main, 'a', 'city', 'Delft');
    type(main, 'a', 'name', 'Tower');
    const worker = WorkspaceStore.open(file);
    worker.step('import', () =>
      worker.setValues([{ localId: 'a', path: 'city', value: 'Breda' }], {
        kind: 'workbook',
        file: 'a.xlsx',
      }),
    );
    worker.close();
    expect(readTail(main.cells.access).cells).toHaveLength(0);
    expect(
      main.cells.access.sql('SELECT value FROM cell_history ORDER BY id').pluck().all() as unknown[],
    ).toEqual(['"Delft"', '"Tower"', '"Breda"']);
    type(main, 'a', 'city', 'Gouda');
    expect(values(main, 'a', 'city')).toEqual([
      ['Gouda', 'typed'],
      ['Breda', 'workbook'],
      ['Delft', 'typed'],
      ['Amsterdam', 'before-history'],
    ]);
    expect(main.cells.handCells('asset', ['a']).get('a')).toEqual(['city', 'name']);
    main.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT COUNT(*) FROM cell_history').pluck().get()).toBe(4);
    db.close();
  });

  it('migrates a file of the previous step: its journal carries nothing, its history reads as before', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-tail-')), 'old.sqlite');
    const old = openSqlite(file);
    migrate(old, schemaVersion - 1);
    old.exec(`
      INSERT INTO assets (local_id, partners_id, base, local, updated_at)
        VALUES ('a', 1, '{"name":"Asset 1","city":"Amsterdam"}', '{"name":"Asset 1","city":"Delft"}', 0);
      INSERT INTO journal (at, local_id, kind, payload) VALUES (1, 'a', 'set', '{}'), (2, 'a', 'set', '{}');
      INSERT INTO change_sources (json) VALUES ('{"kind":"typed"}');
      INSERT INTO cell_paths (path) VALUES ('city');
      INSERT INTO cell_history (doc, path, at, value, previous, source, hand)
        VALUES ((SELECT rowid - 2147483648 FROM assets), 1, 5, '"Delft"', '"Amsterdam"', 1, 1);
    `);
    old.close();
    const store = WorkspaceStore.open(file);
    expect(count(store, 'PRAGMA user_version')).toBe(schemaVersion);
    expect(count(store, "SELECT value FROM meta WHERE key = 'history_moved_seq'")).toBe('2');
    expect(readTail(store.cells.access).cells).toHaveLength(0);
    expect(values(store, 'a', 'city')).toEqual([
      ['Delft', 'typed'],
      ['Amsterdam', 'before-history'],
    ]);
    type(store, 'a', 'city', 'Ede');
    expect(values(store, 'a', 'city')[0]).toEqual(['Ede', 'typed']);
    expect(store.cells.handCells('asset', ['a']).get('a')).toEqual(['city']);
    store.close();
  });

  it(
    'loses nothing when the process is killed between an edit and the move',
    { timeout: 60_000 },
    async () => {
      for (const edits of [1, 17, 60]) {
        const { store, file } = tempWorkspace(`tail-crash-${edits}`);
        for (let i = 0; i < 5; i++) insertExisting(store, `a${i}`, newAsset(i));
        store.close();
        const lines = await runChild(file, edits);
        expect(lines.filter((line) => line.startsWith('ack '))).toHaveLength(edits);
        // Killed before any move: the history is all in the journal's rows.
        const db = new Database(file, { readonly: true });
        expect(db.prepare('SELECT COUNT(*) FROM cell_history').pluck().get()).toBe(0);
        db.close();
        const reopened = WorkspaceStore.open(file);
        const typed = Array.from({ length: edits }, (_, i) => i).filter((i) => i % 5 === 0);
        expect(values(reopened, 'a0', 'city')).toEqual([
          ...typed.reverse().map((i) => [`City ${i}`, i % 2 === 0 ? 'typed' : 'paste']),
          ['Amsterdam', 'before-history'],
        ]);
        reopened.close();
        const moved = new Database(file, { readonly: true });
        expect(moved.prepare('SELECT COUNT(*) FROM cell_history').pluck().get()).toBe(edits);
        moved.close();
      }
    },
  );
});

const child = fileURLToPath(new URL('./fixtures/tail-child.ts', import.meta.url));

/** Runs the child, which types `edits` cells and then SIGKILLs itself; its stdout lines. */
function runChild(file: string, edits: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file, String(edits)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve(out.split('\n')) : reject(new Error(`child ended (${code}): ${err}`)),
    );
  });
}
