import type Database from 'better-sqlite3';
import { openSqlite } from '../storage/sqlite';
import type { Entity } from '../../shared/domain';
import type { AssetDoc, FieldConflict, Scalar } from '../../shared/sync/asset-doc';
import type { HistoryState, ServerVerdict } from '../../shared/sync/types';
import { AssetEdits, type Edit } from './asset-edits';
import type { AssetRecord } from './asset-record';
import { CellHistory } from './cell-history';
import { ImportRecords } from './import-records';
import { IdleSettle } from './history-tail';
import { stepBusy, type StepOutcome } from './history';
import { checkpointOffMain, WalFlusher } from './wal-flush';
import type { ChangeRecorder } from './change-recorder';
import type { ChangeSource } from '../../shared/history/change-source';
import { WritePath } from './write-path';
import { migrate } from './migrations';
import type { SqlAccess, StoreAccess } from './store-access';
import { LedgerReads } from './ledger-reads';

export type { ServerVerdict };

/**
 * The durable local workspace of one connection and entity: a SQLite file (WAL, synchronous FULL),
 * so an edit acknowledged to the analyst survives a crash or a power cut. Each public mutation is
 * one transaction.
 */
export class WorkspaceStore extends LedgerReads {
  private readonly now: () => number;

  /** The analyst's edits, a part sharing this store. */
  private readonly edits: AssetEdits;
  /** The one write path of the documents (write-path.ts), with the history it journals. */
  private readonly path: WritePath;
  private readonly access: SqlAccess;
  /** Every change's source and time per cell (issue 31): the write path's recorder, and its reads. */
  readonly cells: CellHistory;
  /** The imports applied to this file, each recorded once (import-records.ts), for "Show the import". */
  readonly imports: ImportRecords;
  /**
   * Whether another connection (a worker thread's) may write a step into this file as this store
   * would: the file is on disk and its changes go to its own cell history, not to a recorder the
   * caller gave (which lives on this thread).
   */
  readonly writableElsewhere: boolean;
  /** Moves the cell history's tail (history-tail.ts) once the file is quiet. */
  private readonly idle = new IdleSettle(() => this.settleHistory());

  private constructor(
    db: Database.Database,
    now: () => number,
    recorder?: ChangeRecorder | null,
    onStatement?: (text: string) => void,
  ) {
    super(db, onStatement);
    this.now = now;
    const access: StoreAccess = {
      sql: (text) => this.sql(text),
      now: () => this.now(),
      mustGet: (localId) => this.mustGet(localId),
      transaction: (fn) => this.transaction(fn),
    };
    this.access = access;
    // Every transaction of this connection is run here, so the cell history is told of each
    // rollback (`rolledBack`) rather than checking its caches on every write.
    this.cells = new CellHistory(access, { toldOfRollbacks: true });
    this.path = new WritePath(access, recorder === null ? undefined : (recorder ?? this.cells));
    this.writableElsewhere = recorder === undefined && this.file !== '' && this.file !== ':memory:';
    this.edits = new AssetEdits(access, this.path);
    this.imports = new ImportRecords(access, () => this.path.currentStep());
  }

  /**
   * `recorder`: told of every change the write path makes; by default the file's own cell history
   * (`cells`), null for none (the benches' "without history").
   * `onStatement`: told of each statement run (by its text), for a test to count the reads.
   * `readOnly`: a connection that only reads (a worker thread's, beside main's; SQLite refuses it any
   * write). The file must already be migrated by the connection that writes it.
   */
  static open(
    file: string,
    opts: {
      now?: () => number;
      recorder?: ChangeRecorder | null;
      onStatement?: (text: string) => void;
      readOnly?: boolean;
    } = {},
  ): WorkspaceStore {
    const db = openSqlite(file);
    if (opts.readOnly) db.pragma('query_only = ON');
    else migrate(db);
    return new WorkspaceStore(db, opts.now ?? Date.now, opts.recorder, opts.onStatement);
  }

  close(): void {
    this.idle.stop();
    // The tail is in the file either way; moved now, the next open reads no journal for it.
    if (this.cells.mayHaveTail && !this.db.pragma('query_only', { simple: true })) this.settleHistory();
    this.db.close();
  }

  /** Moves the cell history's tail (history-tail.ts) in a transaction of its own; false: busy, try again. */
  settleHistory(): boolean {
    if (!this.db.open) return true;
    if (this.path.paused) return false;
    try {
      this.transaction(() => this.cells.settle());
      return true;
    } catch {
      return false;
    }
  }

  // --- entity and reference data (for offline pickers, dropdowns and rules)

  saveEntity(entity: Entity): void {
    this.sql(
      'INSERT INTO entity (id, json, fetched_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at',
    ).run(entity.id, JSON.stringify(entity), this.now());
  }

  entity(): Entity | undefined {
    const row = this.sql('SELECT json FROM entity LIMIT 1').get() as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as Entity) : undefined;
  }

  saveReference(key: string, value: unknown): void {
    this.sql(
      'INSERT INTO reference_data (key, json, fetched_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at',
    ).run(key, JSON.stringify(value), this.now());
  }

  reference(key: string): unknown {
    const row = this.sql('SELECT json FROM reference_data WHERE key = ?').get(key) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as unknown) : undefined;
  }

  getMeta(key: string): string | undefined {
    const row = this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  // --- the analyst's edits: each is journalled and committed before it returns (see AssetEdits)

  createAsset(doc: AssetDoc, source?: ChangeSource): AssetRecord {
    return this.edits.createAsset(doc, source);
  }

  /**
   * Applies many cell edits at once (a paste, a fill-down) as one transaction; the records as left
   * (each row read once).
   */
  setValues(edits: readonly Edit[], source?: ChangeSource): AssetRecord[] {
    return this.edits.setValues(edits, source);
  }

  setValue(localId: string, path: string, value: Scalar, source?: ChangeSource): void {
    this.setValues([{ localId, path, value }], source);
  }

  /** Replaces the whole local copy (entry edits, imports); the journal keeps the new document. */
  replaceDoc(localId: string, doc: AssetDoc, kind = 'replace', source?: ChangeSource): void {
    this.edits.replaceDoc(localId, doc, kind, source);
  }

  deleteAsset(localId: string, source?: ChangeSource): void {
    this.edits.deleteAsset(localId, source);
  }

  /** Drops local changes of an asset: back to what the service has. */
  revertAsset(localId: string, source?: ChangeSource): void {
    this.edits.revertAsset(localId, source);
  }

  resolveConflict(localId: string, path: string, choice: 'mine' | 'theirs'): void {
    this.edits.resolveConflict(localId, path, choice);
  }

  /** An asset deleted on the service while edited here: keep mine (create again) or take theirs. */
  resolveRemoteDeletion(localId: string, choice: 'mine' | 'theirs'): void {
    this.edits.resolveRemoteDeletion(localId, choice);
  }

  // --- the outbox: which assets rode in a batch whose outcome is not applied yet

  /**
   * Records a batch before it is sent. `marked`: the assets whose rows say they are in flight (by
   * default all): deleting a new asset whose create is out keeps its row for the answer, and an edit
   * keeps the copy that was sent (`sent`). The sync marks only its creates: an asset the service
   * already has is rebased at settlement on the copy the push kept (`settleBatch`'s `sent`), which
   * spares rewriting every row of a 5,000-update batch just to mark it.
   */
  beginBatch(batchId: string, localIds: readonly string[], marked: readonly string[] = localIds): void {
    this.rolledBack(() =>
      this.db
        .transaction(() => {
          const ids = JSON.stringify(localIds);
          this.sql(
            "INSERT INTO outbox (batch_id, created_at, state, local_ids) VALUES (?, ?, 'sending', ?)",
          ).run(batchId, this.now(), ids);
          // One statement for the batch: one per asset cost twice as much (5,000 runs, not the writes).
          if (marked.length > 0)
            this.sql(
              'UPDATE assets SET in_flight = ?, sent = NULL WHERE local_id IN (SELECT value FROM json_each(?))',
            ).run(batchId, marked === localIds ? ids : JSON.stringify(marked));
        })
        .immediate(),
    );
  }

  markBatchAmbiguous(batchId: string): void {
    this.sql("UPDATE outbox SET state = 'ambiguous' WHERE batch_id = ?").run(batchId);
  }

  /** Applies a whole batch answer in one transaction (`apply`: batch-settlement.ts), then forgets the batch. */
  settleBatch(batchId: string, apply: () => void): void {
    this.rolledBack(() =>
      this.db
        .transaction(() => {
          apply();
          this.sql('UPDATE assets SET in_flight = NULL, sent = NULL WHERE in_flight = ?').run(batchId);
          this.sql('DELETE FROM outbox WHERE batch_id = ?').run(batchId);
        })
        .immediate(),
    );
  }

  /** The service refused the asset sent (inside a settlement): its verdict, for the grid. */
  markInvalid(localId: string, verdict: ServerVerdict): void {
    this.sql('UPDATE assets SET server_validations = ? WHERE local_id = ?').run(
      JSON.stringify(verdict),
      localId,
    );
  }

  /** The service no longer has the asset an update was sent for (inside a settlement). */
  markNotFound(localId: string): void {
    this.sql('UPDATE assets SET not_found = 1 WHERE local_id = ?').run(localId);
  }

  /** Forgets a batch the service refused whole (nothing applied). */
  abandonBatch(batchId: string): void {
    this.settleBatch(batchId, () => undefined);
  }

  // --- the service's copy taken in (the sync's remote merge, electron/sync/remote-merge.ts)

  /** The write path's entry for the service's copy: every document it changes goes through it. */
  get serviceWrites(): Pick<WritePath, 'service'> {
    return this.path;
  }

  /** An edited asset the service confirmed gone: a conflict for the user (not the analyst's copy). */
  markRemoteDeleted(localId: string): void {
    this.sql('UPDATE assets SET remote_deleted = 1 WHERE local_id = ?').run(localId);
  }

  /** Keeps the conflicts a three-way merge found on an asset, for the user to resolve. */
  keepConflicts(localId: string, conflicts: readonly FieldConflict[]): void {
    if (conflicts.length === 0) return;
    const insert = this.sql(
      'INSERT INTO conflicts (local_id, path, base, mine, theirs) VALUES (?, ?, ?, ?, ?) ON CONFLICT(local_id, path) DO UPDATE SET base = excluded.base, mine = excluded.mine, theirs = excluded.theirs',
    );
    for (const conflict of conflicts) {
      insert.run(
        localId,
        conflict.path,
        JSON.stringify(conflict.base),
        JSON.stringify(conflict.mine),
        JSON.stringify(conflict.theirs),
      );
    }
  }

  /**
   * IMMEDIATE: the write lock is taken up front. The sync's worker thread writes this file through
   * its own connection; a deferred transaction that read first could not then write after the
   * worker committed (SQLITE_BUSY_SNAPSHOT), where an immediate one waits its turn.
   */
  /**
   * Every statement of this store: one that writes, asked for while a sliced step waits between its
   * slices, is refused (it would join the step's open transaction and go or stay with it). Only
   * other code runs then: the step itself is awaiting.
   */
  protected override sql(text: string): Database.Statement {
    const statement = super.sql(text);
    // `path` is unset while the constructor migrates the file.
    if (!statement.reader && (this.path as WritePath | undefined)?.paused) throw stepBusy();
    return statement;
  }

  transaction<T>(fn: () => T): T {
    // Between the slices of a sliced step (an import's), no other write may join its transaction.
    if (this.path.paused) throw stepBusy();
    const result = this.rolledBack(() => this.db.transaction(fn).immediate());
    if (this.cells.hasTail) this.idle.wrote();
    return result;
  }

  /**
   * Reads in one deferred transaction: every read in `fn` sees the file as of its first (WAL: other
   * connections' commits meanwhile are not seen), and no write lock is taken, so writers go on.
   */
  snapshot<T>(fn: () => T): T {
    return this.db.transaction(fn).deferred();
  }

  /**
   * Runs a transaction (or, nested, a savepoint): one that throws has rolled back, so the cell
   * history forgets the ids it may have learnt in it (CellHistory's `toldOfRollbacks`).
   */
  private rolledBack<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      this.cells.forget();
      throw error;
    }
  }

  // --- history (electron/workspace/history.ts): one step per user action, undone in one transaction

  /** Runs one user action as one labelled undo step. */
  step<T>(label: string, fn: () => T): T {
    return this.path.step(label, fn);
  }

  /** One user action too big for one task, as one undo step written in slices (history.ts). */
  async slicedStep<T>(
    label: string,
    fn: (pause: () => Promise<void>) => Promise<T>,
    opts: { checkpoint?: 'here' | 'caller' } = {},
  ): Promise<T> {
    // Its log is synced as it grows and checkpointed off main's thread (wal-flush.ts), or left to the
    // caller (a worker thread that would otherwise live on, its heap held, until the copy is done).
    const wal = new WalFlusher(this.file);
    const checkpoint = opts.checkpoint ?? 'here';
    try {
      return await this.path.slicedStep(label, fn, {
        between: () => wal.tick(),
        beforeCommit: () => wal.settle(),
        afterCommit: () => {
          if (checkpoint === 'here') void checkpointOffMain(this.file);
        },
      });
    } catch (error) {
      // Its ROLLBACK (history.ts) takes back what the cell history learnt in it.
      this.cells.forget();
      throw error;
    }
  }

  /**
   * One step written into this file by another connection (a worker thread's): until `fn` settles
   * every write here is refused with `stepBusy`, as between a sliced step's slices; reads see the
   * file as it was until that step commits.
   */
  async writtenElsewhere<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await this.path.writtenElsewhere(fn);
    } finally {
      // The other connection's history ids are not this one's to have learnt; start afresh.
      this.cells.forget();
    }
  }

  undo(): StepOutcome | null {
    return this.path.undo();
  }

  redo(): StepOutcome | null {
    return this.path.redo();
  }

  historyState(): HistoryState {
    return this.path.historyState();
  }

  /**
   * For the meters (electron/meters/): reads on this connection, and the one write path their
   * changes go through (kinds `meter`, `reading`, `derived`), in the assets' steps and transactions.
   */
  get meterAccess(): { access: SqlAccess; path: WritePath } {
    return { access: this.access, path: this.path };
  }

  // --- internals shared with AssetEdits

  /** @internal */
  run(sql: string, ...params: unknown[]): void {
    this.sql(sql).run(...params);
  }
}
