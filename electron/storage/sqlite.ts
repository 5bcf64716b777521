import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';

/**
 * Opens one of main's SQLite files the one way they are all opened: WAL with synchronous FULL, so a
 * write acknowledged to the analyst survives a crash or a power cut; foreign keys on; and a busy
 * timeout, because the workspace and its responses share a file through two connections. The file
 * is 0600 in a 0700 folder (SQLite gives its -wal and -shm files the database file's mode).
 */
export function openSqlite(file: string): Database.Database {
  if (file !== ':memory:') {
    ensurePrivateDir(dirname(file));
    ensurePrivateFile(file);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
