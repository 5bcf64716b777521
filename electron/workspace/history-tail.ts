import type Database from 'better-sqlite3';

/**
 * The cell history's tail (issue 31's keypress): the history of the analyst's latest cell edits,
 * kept in their own journal rows (`journal.cells`) until it is moved into `cell_history` in bulk.
 *
 * Why: a keypress's commit writes 5–8 pages of 16 KiB (its asset's row, the journal's and the
 * steps' last leaves, ...); a `cell_history` row of its own added two more (the table's last leaf
 * and a leaf of its index, at a random place) and the index's insert. The journal row is written
 * anyway, so the same entry in it costs some 30 bytes of a page already written: no page and no
 * index. The tail is moved (`CellHistory.settle`) before any other history is written (so ids stay
 * in time order), when the file goes quiet (WorkspaceStore's idle settle), when it reaches
 * `tailLimit` rows, and when the file closes; every reader of the history reads it too
 * (`readTail`). It is in the file, written by the edit's own transaction: a crash loses nothing.
 *
 * Which journal rows are the tail: those after `meta.history_moved_seq` (the last row moved) whose
 * `cells` is set, and they are always the journal's last rows. Any other journal row is written
 * only after the tail was moved (the write path asks `carry` first, which moves it when it declines),
 * so reading the journal backwards from its end until a row without `cells` finds the whole tail
 * and nothing older, however long the journal.
 */

/** The tail's length, in journal rows, beyond which a cell edit moves it rather than adding to it. */
export const tailLimit = 200;

/** One cell of the tail, as `cell_history` will keep it (the document by its asset's local id). */
export interface TailCell {
  /** The journal row's `seq`. */
  seq: number;
  /** The asset's local id (its history id is found when read or moved: history-docs.ts). */
  ref: string;
  path: number;
  /** Seconds since history began, as `cell_history.at`. */
  at: number;
  value: string | number | null;
  previous: string | number | null;
  source: number;
  hand: boolean;
}

/** A journal row's `cells`: [source, at, then path, value, previous, hand (1/0) per cell], JSON. */
export function encodeTail(
  source: number,
  at: number,
  cells: ReadonlyArray<{
    path: number;
    value: string | number | null;
    previous: string | number | null;
    hand: boolean;
  }>,
): string {
  const flat: Array<string | number | null> = [source, at];
  for (const cell of cells) flat.push(cell.path, cell.value, cell.previous, cell.hand ? 1 : 0);
  return JSON.stringify(flat);
}

interface Sql {
  sql(text: string): Database.Statement;
}

const tailSql = `SELECT seq, local_id, cells FROM journal
  WHERE seq > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'history_moved_seq') ORDER BY seq DESC`;

/** The tail's journal rows, oldest first (see the module's comment for why this finds them all). */
function tailRows(db: Sql): Array<[number, string, string]> {
  const rows: Array<[number, string, string]> = [];
  for (const row of db.sql(tailSql).raw().iterate() as Iterable<[number, string, string | null]>) {
    if (row[2] === null) break;
    rows.push(row as [number, string, string]);
  }
  return rows.reverse();
}

/** How many journal rows the tail holds. */
export function tailLength(db: Sql): number {
  return tailRows(db).length;
}

/**
 * The tail's cells, oldest first (newer than every row of `cell_history`), and its last journal
 * row (undefined: no tail; a row can carry no cell, an edit that changed nothing).
 */
export function readTail(db: Sql): { cells: TailCell[]; last: number | undefined } {
  const cells: TailCell[] = [];
  const rows = tailRows(db);
  for (const [seq, ref, text] of rows) {
    const flat = JSON.parse(text) as Array<string | number | null>;
    const source = flat[0] as number;
    const at = flat[1] as number;
    for (let i = 2; i + 3 < flat.length; i += 4)
      cells.push({
        seq,
        ref,
        path: flat[i] as number,
        at,
        value: flat[i + 1] ?? null,
        previous: flat[i + 2] ?? null,
        source,
        hand: flat[i + 3] === 1,
      });
  }
  return { cells, last: rows[rows.length - 1]?.[0] };
}

/** The newest tail cell of each asset and path, by local id then path id (for the marks' reads). */
export function newestInTail(db: Sql, refs?: ReadonlySet<string>): Map<string, Map<number, TailCell>> {
  const out = new Map<string, Map<number, TailCell>>();
  for (const cell of readTail(db).cells) {
    if (refs && !refs.has(cell.ref)) continue;
    let cells = out.get(cell.ref);
    if (!cells) out.set(cell.ref, (cells = new Map()));
    cells.set(cell.path, cell);
  }
  return out;
}

/** Marks the tail moved up to the journal row `seq` (inside the move's transaction). */
export function markMoved(db: Sql, seq: number): void {
  db.sql("UPDATE meta SET value = ? WHERE key = 'history_moved_seq'").run(String(seq));
}

/** How long the file must be quiet before the store moves the tail (WorkspaceStore's idle settle). */
const QUIET_MS = 1_000;

/**
 * Moves the tail once the file has been quiet for `QUIET_MS` (a timer that does not keep the
 * process alive): `wrote` after each write that left a tail, `stop` at close. `settle` runs the
 * move in a transaction of its own; one that cannot run now (a sliced step, another connection's
 * step) is tried again later.
 */
export class IdleSettle {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = 0;

  constructor(private readonly settle: () => boolean) {}

  wrote(): void {
    this.last = performance.now();
    if (!this.timer) this.arm(QUIET_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const quiet = performance.now() - this.last;
      if (quiet < QUIET_MS) this.arm(QUIET_MS - quiet);
      else if (!this.settle()) this.arm(QUIET_MS);
    }, ms);
    this.timer.unref();
  }
}
