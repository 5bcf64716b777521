import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations';
import { makePrivateDir, makePrivateFiles } from './private-files';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the sandbox database in `dataDir` and brings its schema up to date.
 * WAL keeps readers (listings) from blocking behind a batch transaction; `synchronous=NORMAL` is
 * durable across process crashes in WAL mode, which is what a restart needs.
 */
export function openDatabase(dataDir: string): Db {
  makePrivateDir(dataDir);
  // SQLite gives its -wal and -shm files the database file's mode: 0600 for all three.
  const file = path.join(dataDir, 'sandbox.sqlite');
  makePrivateFiles(file, `${file}-wal`, `${file}-shm`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A 5,000-asset batch is ~15 MB of rows: keep it in the page cache until commit instead of
  // spilling to the WAL mid-transaction.
  db.pragma('cache_size = -65536');
  migrate(db);
  return db;
}

/** Applies every migration newer than the recorded version, each in its own transaction. */
export function migrate(db: Db): number {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  let current = row.v ?? 0;
  const record = db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)');
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, new Date().toISOString());
    })();
    current = m.version;
  }
  return current;
}
