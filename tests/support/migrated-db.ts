import type Database from 'better-sqlite3';
import { openSqlite } from '../../electron/storage/sqlite';
import { migrate } from '../../electron/workspace/migrations';

/**
 * A workspace database at `file` (or in memory) brought to the current schema, with `sql` caching
 * its prepared statements as the store does: for tests of a module that takes the store's `sql`.
 */
export function migratedDb(file = ':memory:'): {
  db: Database.Database;
  sql: (text: string) => Database.Statement;
} {
  const db = openSqlite(file);
  migrate(db);
  const cache = new Map<string, Database.Statement>();
  const sql = (text: string) => {
    let statement = cache.get(text);
    if (!statement) cache.set(text, (statement = db.prepare(text)));
    return statement;
  };
  return { db, sql };
}
