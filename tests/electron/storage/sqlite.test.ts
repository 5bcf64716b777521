import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../electron/storage/sqlite';

describe('how main opens its SQLite files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempFile = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-sqlite-'));
    dirs.push(dir);
    return join(dir, 'file.sqlite');
  };

  it('a new file gets 16 KiB pages, in WAL with synchronous FULL', () => {
    const db = openSqlite(tempFile());
    db.exec('CREATE TABLE t (x)');
    expect(db.pragma('page_size', { simple: true })).toBe(16_384);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('a file made with 4 KiB pages keeps them, and its rows', () => {
    const file = tempFile();
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('kept')");
    expect(old.pragma('page_size', { simple: true })).toBe(4_096);
    old.close();

    const db = openSqlite(file);
    expect(db.pragma('page_size', { simple: true })).toBe(4_096);
    expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual(['kept']);
    db.close();
  });
});
