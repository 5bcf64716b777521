import type Database from 'better-sqlite3';
import type { CellHistoryEntry, ChangeSource } from '../../shared/history/change-source';
import { fromHand } from '../../shared/history/source-words';
import type { Scalar } from '../../shared/sync/asset-doc';
import type { ChangeRecorder, DocumentChange, DocumentRef } from './change-recorder';
import { changedCells, cellsOf, decodeValue, encodeValue } from './cell-values';
import { handCellsOf } from './hand-cells';
import { hasRowHistory, historyDocRow, unrecordedOriginSource } from './history-docs';
import { HistoryIds } from './history-ids';
import { placed, storedSource, uuidTime, type PlacesOf } from './history-sources';
import { encodeTail, markMoved, readTail, tailLength, tailLimit } from './history-tail';

/** What the cell history needs of its connection to the workspace file (the store's statement cache). */
export interface HistoryAccess {
  sql(text: string): Database.Statement;
}

const beforeHistory: ChangeSource = { kind: 'before-history' };
const insertSql =
  'INSERT INTO cell_history (doc, path, at, value, previous, source, place, hand) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
const pulledSource: ChangeSource = { kind: 'service', updatedAt: null };

export { placed, storedSource, uuidTime, type PlacesOf };

/**
 * The cell history of one workspace file (issue 31): the recorder the one write path calls with
 * every change, in the same transaction, and the reads of a cell's history and the grid's markers.
 * Tables in electron/workspace/history-schema.ts. Documents, paths and sources are small integers
 * cached per connection (history-ids.ts, which says how a rollback is known: `toldOfRollbacks`).
 */
export class CellHistory implements ChangeRecorder {
  /** Its documents', paths' and sources' ids, cached (history-ids.ts). */
  private readonly ids: HistoryIds;
  private startedAt: number | undefined;
  /** Where each cell of a document came from in its source, for the writes `placing` wraps. */
  private places: PlacesOf | undefined;
  /** The tail's length in journal rows as last known here (history-tail.ts; undefined: read it). */
  private tail: number | undefined;
  /** `PRAGMA data_version` when the tail was last known empty (another connection's commit may add one). */
  private tailVersion = -1;

  constructor(
    private readonly db: HistoryAccess,
    opts: { toldOfRollbacks?: boolean } = {},
  ) {
    this.ids = new HistoryIds(db, opts.toldOfRollbacks === true, (ref) => this.unrecordedOrigin(ref, null));
  }

  /**
   * A transaction (or a savepoint) of this connection rolled back: ids learnt in it may be gone,
   * and a tail moved in it is back. For an owner that said `toldOfRollbacks`; harmless otherwise.
   */
  forget(): void {
    this.tail = undefined;
    this.ids.forget();
  }

  /**
   * Runs `fn` (writes through the write path) knowing where each cell's new value sits in its
   * source: for a document's id, by path, a workbook's "Energy!F12" (an import's cells).
   */
  placing<T>(places: PlacesOf, fn: () => T): T {
    const before = this.places;
    this.places = places;
    try {
      return fn();
    } finally {
      this.places = before;
    }
  }

  record(changes: readonly DocumentChange[], source: ChangeSource, at: number): void {
    if (changes.length === 0) return;
    if (this.arrival(changes, source)) return;
    // The cells each change of an existing document changed, found first: a write that changed
    // none (most of a batch answer's 5,000 assets) reads and writes nothing here.
    const changed = changes.map((change) =>
      change.before === null || change.before === undefined
        ? undefined
        : changedCells(change.doc.kind, change.before, change.after, change.cells),
    );
    if (changed.every((cells) => cells !== undefined && cells.length === 0)) return;
    this.checkCaches();
    this.ids.begin();
    // The analyst's latest edits first, so every row keeps its place in time (history-tail.ts).
    this.settle();
    const sourceId = this.ids.sourceId(storedSource(source));
    const insert = this.db.sql(insertSql);
    const second = this.secondOf(at);
    const hand = fromHand(source);
    for (const [i, change] of changes.entries()) {
      const places = this.places?.(change.doc.id);
      if ((change.before === null || change.before === undefined) && !hasRowHistory(this.db, change.doc)) {
        // A new document: one row says where it came from, unless it existed before (a delete undone).
        const created = this.db
          .sql(
            'INSERT INTO cell_docs (kind, ref, origin_at, origin_source) VALUES (?, ?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING RETURNING id',
          )
          .get(change.doc.kind, change.doc.id, this.msOf(second), sourceId) as { id: number } | undefined;
        if (created) {
          if (hand === true) this.handAll(created.id, change.doc.kind, change.after);
          // An import's new document: where each cell was is worth a row per cell.
          if (places)
            for (const [path, value] of cellsOf(change.doc.kind, change.after)) {
              const place = places.get(path);
              if (place !== undefined && value !== null)
                insert.run(
                  created.id,
                  this.ids.pathId(path),
                  second,
                  encodeValue(value),
                  null,
                  sourceId,
                  place,
                  hand === true ? 1 : null,
                );
            }
          continue;
        }
      }
      const cells = changed[i] ?? changedCells(change.doc.kind, change.before, change.after, change.cells);
      if (cells.length === 0) continue;
      const doc = this.ids.docId(change.doc);
      for (const cell of cells) {
        const path = this.ids.pathId(cell.path);
        const value = encodeValue(cell.value);
        // Whether the value now came from the analyst's hand: kept in the row itself (its newest
        // row says it for a cell), so a keypress writes one row, no mark beside it.
        const mine = cell.value !== null && (hand ?? this.earlierHand(doc, path, value));
        insert.run(
          doc,
          path,
          second,
          value,
          encodeValue(cell.previous),
          sourceId,
          places?.get(cell.path) ?? null,
          mine ? 1 : null,
        );
      }
    }
  }

  /**
   * An analyst's edit of an asset's cells (a keypress, a paste): its history as its journal row is
   * to keep it (history-tail.ts), no row here. Anything else, or a tail at its limit: undefined,
   * the tail moved first (the write path then records the change after its journal row).
   */
  carry(change: DocumentChange, source: ChangeSource, at: number): string | undefined {
    this.checkCaches();
    this.ids.begin();
    const { before, after, cells } = change;
    if (
      change.doc.kind !== 'asset' ||
      !cells ||
      this.places ||
      fromHand(source) !== true ||
      before === null ||
      before === undefined ||
      after === null ||
      (this.tail ??= tailLength(this.db)) >= tailLimit
    ) {
      this.settle();
      return undefined;
    }
    const changed = changedCells('asset', before, after, cells).map((cell) => ({
      path: this.ids.pathId(cell.path),
      value: encodeValue(cell.value),
      previous: encodeValue(cell.previous),
      // From the analyst's hand unless it emptied the cell, as `record` keeps it.
      hand: cell.value !== null,
    }));
    const text = encodeTail(this.ids.sourceId(storedSource(source)), this.secondOf(at), changed);
    this.tail += 1;
    return text;
  }

  /** Whether this connection left a tail to move (WorkspaceStore's idle settle). */
  get hasTail(): boolean {
    return this.tail !== undefined && this.tail > 0;
  }

  /** Whether there may be a tail to move (one left, or not known here: a killed session's). */
  get mayHaveTail(): boolean {
    return this.tail !== 0;
  }

  /**
   * Moves the tail (history-tail.ts) into `cell_history`, in the caller's transaction: before any
   * other history is written, when the file is quiet, at close. Cheap when there is none.
   */
  settle(): void {
    const version = (this.db.sql('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (this.tail === 0 && version === this.tailVersion) return;
    const { cells, last } = readTail(this.db);
    if (last !== undefined) {
      this.ids.learn();
      const insert = this.db.sql(insertSql);
      const docs = new Map<string, number>();
      for (const cell of cells) {
        let doc = docs.get(cell.ref);
        if (doc === undefined) docs.set(cell.ref, (doc = this.ids.docId({ kind: 'asset', id: cell.ref })));
        insert.run(
          doc,
          cell.path,
          cell.at,
          cell.value,
          cell.previous,
          cell.source,
          null,
          cell.hand ? 1 : null,
        );
      }
      markMoved(this.db, last);
    }
    this.tail = 0;
    this.tailVersion = version;
  }

  /**
   * A cell's history, newest first. `current`: the cell's value now, which is its first value when
   * nothing changed it since its document arrived. The last entry is that arrival (or "before
   * history" for what an older workspace held), when the cell had a value then.
   */
  entries(ref: DocumentRef, path: string, current: Scalar): CellHistoryEntry[] {
    this.checkCaches();
    const doc = historyDocRow(this.db, ref);
    const out: CellHistoryEntry[] = [];
    let first: Scalar = current;
    // The analyst's latest edits, not yet moved into the table (history-tail.ts): the newest.
    if (ref.kind === 'asset') {
      const found = this.db.sql('SELECT id FROM cell_paths WHERE path = ?').get(path) as
        { id: number } | undefined;
      const tail = readTail(this.db).cells.filter((cell) => cell.ref === ref.id && cell.path === found?.id);
      for (const cell of tail.reverse())
        out.push({
          at: this.msOf(cell.at),
          value: decodeValue(cell.value),
          previous: decodeValue(cell.previous),
          source: this.sourceOf(cell.source),
        });
    }
    if (doc) {
      const rows = this.db
        .sql(
          'SELECT h.at, h.value, h.previous, h.source, h.place FROM cell_history h JOIN cell_paths p ON p.id = h.path WHERE h.doc = ? AND p.path = ? ORDER BY h.id DESC',
        )
        .all(doc.id, path) as Array<{
        at: number;
        value: unknown;
        previous: unknown;
        source: number;
        place: string | null;
      }>;
      for (const row of rows) {
        out.push({
          at: this.msOf(row.at),
          value: decodeValue(row.value),
          previous: decodeValue(row.previous),
          source: placed(this.sourceOf(row.source), row.place),
        });
      }
      if (out.length > 0) first = out[out.length - 1]?.previous as Scalar;
    }
    if (first !== null) {
      const origin =
        doc && doc.origin_source !== unrecordedOriginSource
          ? { at: doc.origin_at, source: this.datedOrigin(ref, this.sourceOf(doc.origin_source)) }
          : this.unrecordedOrigin(ref);
      out.push({ at: origin.at, value: first, previous: null, source: origin.source });
    }
    return out;
  }

  /** The cells of the given documents whose value came from the analyst's hand (hand-cells.ts). */
  handCells(kind: DocumentRef['kind'], ids: readonly string[]): Map<string, string[]> {
    return handCellsOf(this.db, kind, ids);
  }

  /** The connection, for the audit log's reads. */
  get access(): HistoryAccess {
    return this.db;
  }

  /**
   * A pull's new asset, the commonest change of all, writes nothing: its local id (a version 7
   * UUID, remote-merge.ts) says when it arrived, so a document without a `cell_docs` row whose id
   * is dated since history began arrived from the service then (`unrecordedOrigin`).
   */
  private arrival(changes: readonly DocumentChange[], source: ChangeSource): boolean {
    const [change] = changes;
    if (changes.length !== 1 || !change || change.before !== null || this.places) return false;
    if (source.kind !== 'service' || change.doc.kind !== 'asset') return false;
    const arrived = uuidTime(change.doc.id);
    return arrived !== undefined && arrived >= this.historyStartedAt();
  }

  /**
   * Where a document without a `cell_docs` row came from: a pull since history began, with the
   * service's `updated_at` its row kept when it arrived (`assets.arrived_updated_at`, read here
   * unless the caller read it: the audit log reads them all at once), or before history.
   */
  unrecordedOrigin(ref: DocumentRef, arrivedUpdatedAt?: string | null): { at: number; source: ChangeSource } {
    const arrived = ref.kind === 'asset' ? uuidTime(ref.id) : undefined;
    const started = this.historyStartedAt();
    if (arrived === undefined || arrived < started) return { at: started, source: beforeHistory };
    const updatedAt = arrivedUpdatedAt !== undefined ? arrivedUpdatedAt : this.arrivalDate(ref.id);
    return {
      at: Math.floor(arrived / 1_000) * 1_000,
      // Cut to its day as a pull's changes are (`storedSource`): `docId` stores it as one row per day.
      source: updatedAt ? storedSource({ kind: 'service', updatedAt }) : pulledSource,
    };
  }

  /**
   * A document's origin as its `cell_docs` row keeps it, with the service's date a pulled asset's
   * row leaves out (`docId`): its `assets.arrived_updated_at`, written once when it arrived (read
   * here unless the caller read it).
   */
  datedOrigin(ref: DocumentRef, source: ChangeSource, arrived?: string | null): ChangeSource {
    if (source.kind !== 'service' || source.updatedAt !== null || ref.kind !== 'asset') return source;
    const updatedAt = arrived !== undefined ? arrived : this.arrivalDate(ref.id);
    return updatedAt ? storedSource({ kind: 'service', updatedAt }) : source;
  }

  private arrivalDate(localId: string): string | null {
    const row = this.db.sql('SELECT arrived_updated_at AS at FROM assets WHERE local_id = ?').get(localId) as
      { at: string | null } | undefined;
    return row?.at ?? null;
  }

  /** A portfolio answer's value now, as its row keeps it (JSON text; null: no such answer). */
  answerValue(responseId: number, variable: string): string | null {
    const row = this.db
      .sql('SELECT current_value FROM response_values WHERE response_id = ? AND variable = ?')
      .get(responseId, variable) as { current_value: string } | undefined;
    return row?.current_value ?? null;
  }

  /** A time as `cell_history.at` keeps it: whole seconds since history began. */
  secondOf(ms: number): number {
    return Math.floor(ms / 1_000) - Math.floor(this.historyStartedAt() / 1_000);
  }

  /** `cell_history.at` back to epoch milliseconds (every time history shows is to the second). */
  msOf(second: number): number {
    return Math.floor(this.historyStartedAt() / 1_000) * 1_000 + second * 1_000;
  }

  /** When this file began keeping history (the date of "before history"). */
  historyStartedAt(): number {
    if (this.startedAt === undefined) {
      const row = this.db.sql("SELECT value FROM meta WHERE key = 'history_started_at'").get() as
        { value: string } | undefined;
      this.startedAt = Number(row?.value ?? 0);
    }
    return this.startedAt;
  }

  sourceOf(id: number): ChangeSource {
    return this.ids.sourceOf(id);
  }

  private checkCaches(): void {
    if (this.ids.checkCaches()) this.tail = undefined;
  }

  /** Undo and redo put back an earlier value: the analyst's if the change that set it was. */
  private earlierHand(doc: number, path: number, value: string | number | null): boolean {
    const rows = this.db
      .sql('SELECT value, source FROM cell_history WHERE doc = ? AND path = ? ORDER BY id DESC LIMIT 200')
      .all(doc, path) as Array<{ value: unknown; source: number }>;
    for (const row of rows) {
      if (row.value !== value) continue;
      const mine = fromHand(this.sourceOf(row.source));
      if (mine !== null) return mine;
    }
    const origin = this.db.sql('SELECT origin_source FROM cell_docs WHERE id = ?').get(doc) as
      { origin_source: number } | undefined;
    return origin ? fromHand(this.sourceOf(origin.origin_source)) === true : false;
  }

  private handAll(doc: number, kind: DocumentRef['kind'], image: unknown): void {
    const mine = this.db.sql('INSERT OR IGNORE INTO cell_hand (doc, path) VALUES (?, ?)');
    for (const [path, value] of cellsOf(kind, image))
      if (value !== null) mine.run(doc, this.ids.pathId(path));
  }
}
