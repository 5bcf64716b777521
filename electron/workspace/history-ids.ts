import type Database from 'better-sqlite3';
import { changeSourceSchema, type ChangeSource } from '../../shared/history/change-source';
import type { DocumentRef } from './change-recorder';
import { historyDocOf } from './history-docs';

const beforeHistory: ChangeSource = { kind: 'before-history' };

/**
 * The cell history's documents, paths and sources as small integers, cached per connection
 * (cell-history.ts). A cache that learnt an id inside a transaction that then rolled back would
 * point at nothing (or at a later row given the same id). An owner that runs every transaction of
 * the connection itself tells of each rollback (`toldOfRollbacks`, then `forget`; WorkspaceStore
 * does), so a keypress reads and writes nothing for the caches. Otherwise a `record` that learns an
 * id first stamps a TEMP table of this connection, which a rollback undoes too: a stamp gone
 * missing clears the caches (each `record` reads the one-row table; only the rare one that learns
 * writes it).
 */
export class HistoryIds {
  private readonly docs = new Map<string, number>();
  private readonly paths = new Map<string, number>();
  private readonly sourceIds = new Map<string, number>();
  private readonly sourcesById = new Map<number, ChangeSource>();
  private stamp = 0;
  /** Whether this `record` stamped already (see the class's comment). */
  private stamped = false;
  /** Whether the stamp stands in for being told of rollbacks (see the class's comment). */
  private readonly stamps: boolean;

  /** `originOf`: where a document first seen by a change came from (`CellHistory.unrecordedOrigin`). */
  constructor(
    private readonly db: { sql(text: string): Database.Statement },
    toldOfRollbacks: boolean,
    private readonly originOf: (ref: DocumentRef) => { at: number; source: ChangeSource },
  ) {
    this.stamps = !toldOfRollbacks;
    if (!this.stamps) return;
    db.sql('CREATE TEMP TABLE IF NOT EXISTS history_cache_stamp (n INTEGER NOT NULL)').run();
    db.sql('DELETE FROM temp.history_cache_stamp').run();
    db.sql('INSERT INTO temp.history_cache_stamp (n) VALUES (0)').run();
  }

  /** Ids learnt in a transaction that rolled back may be gone: all are read again. */
  forget(): void {
    this.docs.clear();
    this.paths.clear();
    this.sourceIds.clear();
    this.sourcesById.clear();
  }

  /** A source by its id (an unknown one reads as before history). */
  sourceOf(id: number): ChangeSource {
    let source = this.sourcesById.get(id);
    if (!source) {
      const row = this.db.sql('SELECT json FROM change_sources WHERE id = ?').get(id) as
        { json: string } | undefined;
      const parsed = changeSourceSchema.safeParse(row ? JSON.parse(row.json) : null);
      source = parsed.success ? parsed.data : beforeHistory;
      this.learn();
      this.sourcesById.set(id, source);
    }
    return source;
  }

  /** A `record` begins: its first id learnt stamps (see the class's comment). */
  begin(): void {
    this.stamped = false;
  }

  /** Before a cache learns an id inside a transaction: the stamp a rollback would take back. */
  learn(): void {
    if (this.stamped || !this.stamps) return;
    this.stamped = true;
    this.db.sql('UPDATE temp.history_cache_stamp SET n = ?').run(++this.stamp);
  }

  checkCaches(): boolean {
    if (!this.stamps) return false;
    const row = this.db.sql('SELECT n FROM temp.history_cache_stamp').get() as { n: number } | undefined;
    if (row?.n === this.stamp) return false;
    this.forget();
    this.stamp = row?.n ?? 0;
    return true;
  }

  sourceId(source: ChangeSource): number {
    const json = JSON.stringify(source);
    let id = this.sourceIds.get(json);
    if (id === undefined) {
      id = this.entryId('change_sources', 'json', json);
      // Sources are few (a service's are per day, `storedSource`); a bound all the same.
      if (this.sourceIds.size > 1_000) this.sourceIds.clear();
      this.learn();
      this.sourceIds.set(json, id);
    }
    return id;
  }

  /** A document's id; one first seen by a change of its existing copy was there before history. */
  docId(ref: DocumentRef): number {
    const key = `${ref.kind}\u0000${ref.id}`;
    let id = this.docs.get(key);
    if (id === undefined) {
      // An asset: its `cell_docs` row if it has one, else its own row's id (history-docs.ts), so
      // its first edit, the common case, writes nothing here. A row's id is read each time, never
      // cached: a delete moves that history to a `cell_docs` row (and the rowid may come back).
      const found = ref.kind === 'asset' ? historyDocOf(this.db, ref) : undefined;
      if (found !== undefined && found < 0) return found;
      id = found ?? this.addDoc(ref);
      if (this.docs.size > 200_000) this.docs.clear();
      this.learn();
      this.docs.set(key, id);
    }
    return id;
  }

  /** A document's `cell_docs` row, added (no service's date: `datedOrigin` adds it), or found. */
  private addDoc(ref: DocumentRef): number {
    const origin = this.originOf(ref);
    const added = this.db
      .sql(
        'INSERT INTO cell_docs (kind, ref, origin_at, origin_source) VALUES (?, ?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING RETURNING id',
      )
      .get(ref.kind, ref.id, origin.at, this.sourceId(origin.source)) as { id: number } | undefined;
    return added?.id ?? (historyDocOf(this.db, ref) as number);
  }

  pathId(path: string): number {
    let id = this.paths.get(path);
    if (id === undefined) {
      id = this.entryId('cell_paths', 'path', path);
      this.learn();
      this.paths.set(path, id);
    }
    return id;
  }

  /**
   * The id of a source's or a path's row, added if new. Read first: a known one (each one after a
   * restart) writes nothing, where an upsert would write its row and key again into the commit.
   */
  private entryId(table: 'change_sources' | 'cell_paths', column: 'json' | 'path', value: string): number {
    const found = this.db.sql(`SELECT id FROM ${table} WHERE ${column} = ?`).get(value) as
      { id: number } | undefined;
    if (found) return found.id;
    return (
      this.db.sql(`INSERT INTO ${table} (${column}) VALUES (?) RETURNING id`).get(value) as { id: number }
    ).id;
  }
}
