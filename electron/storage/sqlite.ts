import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile } from './private-files';

/**
 * Opens one of main's SQLite files the one way they are all opened: WAL with synchronous FULL, so a
 * write acknowledged to the analyst survives a crash or a power cut; foreign keys on; and a busy
 * timeout, because the workspace and its responses share a file through two connections. The file
 * is 0600 in a 0700 folder (SQLite gives its -wal and -shm files the database file's mode).
 *
 * A new file gets 16 KiB pages (SQLite's default is 4): an asset row is most of a kilobyte, and a
 * pull writes 20,000 of them; with a quarter of the pages to split, checksum and append to the WAL,
 * the pull's SQLite work drops by a fifth, and a keypress's commit stays within its goal (see the
 * grid bench). A file made earlier keeps its pages: the size is fixed once a file has a table.
 */
export function openSqlite(file: string): Database.Database {
  if (file !== ':memory:') {
    ensurePrivateDir(dirname(file));
    ensurePrivateFile(file);
  }
  const db = new Database(file);
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}
