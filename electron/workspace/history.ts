import { UserFacingError } from '../../shared/errors';
import type { HistoryState } from '../../shared/sync/types';
import { responseOfJournalKey } from './answer-document';
import { meterJournalPrefixes } from './meter-document';
import type { SqlAccess } from './store-access';

/**
 * Undo and redo, kept in the workspace's own SQLite file (so scoped to its connection and entity,
 * and kept across restarts), built on the journal. Part of the write path (write-path.ts): the
 * journal and the steps are written only here.
 *
 * Each user action is one step; every journal row the action writes carries the step and the
 * document's image before and after. Undo puts the "before" images back, redo the "after" ones,
 * each in one transaction, through the write path (each kind restores its own, see document-kind.ts).
 * Only the analyst's copy is ever restored, never the service's (`base`): an undo after a sync is a
 * new pending change, sent by the next sync like any edit. A cell edit restores only its own paths,
 * so a change pulled since is not reversed with it.
 */

/** Steps kept for undo; older ones stay in the journal as audit, without their images. */
const KEPT_STEPS = 500;

export interface JournalRow {
  seq: number;
  local_id: string;
  kind: string;
  payload: string;
  before: string | null;
  after: string | null;
}

export interface StepOutcome {
  label: string;
  /** Assets whose row changed (still there) and assets whose row is gone. */
  touched: string[];
  /** Portfolio responses whose answers the step changed. */
  responses: number[];
  /** Whether the step changed meters, readings or derived figures (the Meters tab reads them again). */
  meters: boolean;
}

/** Puts one journal row's image back (the write path's, with the row's kind). */
export type RestoreRow = (row: JournalRow, side: 'before' | 'after') => void;

/** What a sliced step's owner does around it (the workspace file's log: wal-flush.ts). */
export interface SliceHooks {
  /** Between two slices. */
  between?: () => void;
  /** Just before COMMIT (awaited; other writes still refused). */
  beforeCommit?: () => Promise<void>;
  /** Once committed (COMMIT then skips SQLite's own checkpoint). */
  afterCommit?: () => void;
}

/** A write asked for while a sliced step waits between its slices: refused, nothing joins that step. */
export const stepBusy = (): UserFacingError =>
  new UserFacingError('Readings are still being written to the workspace: try again when that is done.');

/**
 * How long a slice of a sliced step runs before main answers other calls (bridge p99 <= 50 ms):
 * on a loaded machine a slice's wall time stretches several-fold, hence well below the goal.
 */
const SLICE_MS = 10;

export class History {
  private active: number | null = null;
  /** Set while a sliced step waits between slices (see `slicedStep`). */
  private waiting = false;

  constructor(
    private readonly store: SqlAccess,
    private readonly restore: RestoreRow,
  ) {}

  /** Whether a step is being recorded (journal rows then keep their images). */
  get recording(): boolean {
    return this.active !== null;
  }

  /** The step being recorded (its `steps` id), or null: an import's record names its undo step. */
  get current(): number | null {
    return this.active;
  }

  /** Whether a sliced step is waiting between slices: no other write may run on this connection. */
  get paused(): boolean {
    return this.waiting;
  }

  /** Runs `fn` as one labelled step (one transaction); a step that journalled nothing is dropped. */
  step<T>(label: string, fn: () => T): T {
    if (this.waiting) throw stepBusy();
    if (this.active !== null) return fn();
    return this.store.transaction(() => {
      const { lastInsertRowid } = this.store
        .sql('INSERT INTO steps (label, at) VALUES (?, ?)')
        .run(label, this.store.now());
      const id = Number(lastInsertRowid);
      this.active = id;
      try {
        const result = fn();
        const wrote = this.store.sql('SELECT 1 FROM journal WHERE step = ? LIMIT 1').get(id);
        if (!wrote) this.store.sql('DELETE FROM steps WHERE id = ?').run(id);
        else this.forgetRedoAndOld(id);
        return result;
      } finally {
        this.active = null;
      }
    });
  }

  /**
   * One labelled step too big for one task (an import of a million readings): still one transaction
   * and one undo step, but written in slices; `pause()` lets main answer other calls once a slice
   * has run ~10 ms. Between slices, reads on this connection see the step's rows so far, and any
   * write is refused with `stepBusy` (none may join the step, nor commit it half done).
   */
  async slicedStep<T>(
    label: string,
    fn: (pause: () => Promise<void>) => Promise<T>,
    hooks: SliceHooks = {},
  ): Promise<T> {
    if (this.active !== null || this.waiting) throw stepBusy();
    this.store.sql('BEGIN IMMEDIATE').run();
    let slice = performance.now();
    const pause = async (): Promise<void> => {
      if (performance.now() - slice < SLICE_MS) return;
      hooks.between?.();
      this.waiting = true;
      try {
        await new Promise<void>((resolve) => setImmediate(resolve));
      } finally {
        this.waiting = false;
        slice = performance.now();
      }
    };
    try {
      const { lastInsertRowid } = this.store
        .sql('INSERT INTO steps (label, at) VALUES (?, ?)')
        .run(label, this.store.now());
      const id = Number(lastInsertRowid);
      this.active = id;
      const result = await fn(pause);
      const wrote = this.store.sql('SELECT 1 FROM journal WHERE step = ? LIMIT 1').get(id);
      if (!wrote) this.store.sql('DELETE FROM steps WHERE id = ?').run(id);
      else this.forgetRedoAndOld(id);
      if (hooks.beforeCommit) {
        this.waiting = true;
        try {
          await hooks.beforeCommit();
        } finally {
          this.waiting = false;
        }
      }
      // The log's copy into the file is left to `afterCommit` (a worker's connection), not this COMMIT.
      if (hooks.afterCommit) this.store.sql('PRAGMA wal_autocheckpoint = 0').run();
      try {
        this.store.sql('COMMIT').run();
      } finally {
        if (hooks.afterCommit) this.store.sql('PRAGMA wal_autocheckpoint = 1000').run();
      }
      hooks.afterCommit?.();
      return result;
    } catch (error) {
      this.store.sql('ROLLBACK').run();
      throw error;
    } finally {
      this.active = null;
      this.waiting = false;
    }
  }

  /**
   * While another connection writes one step into this file (a readings import's worker thread):
   * as between a sliced step's slices, every write on this one is refused until `fn` settles.
   */
  async writtenElsewhere<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active !== null || this.waiting) throw stepBusy();
    this.waiting = true;
    try {
      return await fn();
    } finally {
      this.waiting = false;
    }
  }

  /**
   * Journals one change of a document; inside a step, with its images for undo (undefined: none
   * kept). `cells`: the change's cell history when it rides in this row (history-tail.ts), else null.
   */
  journal(
    key: string,
    kind: string,
    payload: unknown,
    before: unknown,
    after: unknown,
    cells: string | null = null,
  ): void {
    const inStep = this.active !== null;
    this.store
      .sql(
        'INSERT INTO journal (at, local_id, kind, payload, step, before, after, cells) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        this.store.now(),
        key,
        kind,
        JSON.stringify(payload),
        this.active,
        inStep && before !== undefined ? JSON.stringify(before) : null,
        inStep && after !== undefined ? JSON.stringify(after) : null,
        cells,
      );
  }

  state(): HistoryState {
    const undo = this.store.sql('SELECT label FROM steps WHERE undone = 0 ORDER BY id DESC LIMIT 1').get() as
      { label: string } | undefined;
    const redo = this.store.sql('SELECT label FROM steps WHERE undone = 1 ORDER BY id ASC LIMIT 1').get() as
      { label: string } | undefined;
    return { undo: undo?.label ?? null, redo: redo?.label ?? null };
  }

  undo(): StepOutcome | null {
    return this.store.transaction(() => {
      const step = this.store
        .sql('SELECT id, label FROM steps WHERE undone = 0 ORDER BY id DESC LIMIT 1')
        .get() as { id: number; label: string } | undefined;
      if (!step) return null;
      const rows = this.rowsOf(step.id).reverse();
      for (const row of rows) this.restore(row, 'before');
      this.store.sql('UPDATE steps SET undone = 1 WHERE id = ?').run(step.id);
      return { label: step.label, ...outcomeOf(rows) };
    });
  }

  redo(): StepOutcome | null {
    return this.store.transaction(() => {
      const step = this.store
        .sql('SELECT id, label FROM steps WHERE undone = 1 ORDER BY id ASC LIMIT 1')
        .get() as { id: number; label: string } | undefined;
      if (!step) return null;
      const rows = this.rowsOf(step.id);
      for (const row of rows) this.restore(row, 'after');
      this.store.sql('UPDATE steps SET undone = 0 WHERE id = ?').run(step.id);
      return { label: step.label, ...outcomeOf(rows) };
    });
  }

  private rowsOf(step: number): JournalRow[] {
    return this.store
      .sql('SELECT seq, local_id, kind, payload, before, after FROM journal WHERE step = ? ORDER BY seq')
      .all(step) as JournalRow[];
  }

  /** A new action: what was undone can no longer be redone; steps beyond the kept ones are let go. */
  private forgetRedoAndOld(id: number): void {
    const dropped = 'SELECT id FROM steps WHERE (undone = 1 AND id < ?) OR id <= ? - ?';
    // A row's history, once moved into `cell_history` (history-tail.ts), goes with its images: the
    // row is written again here anyway.
    this.store
      .sql(
        `UPDATE journal SET step = NULL, before = NULL, after = NULL,
         cells = CASE WHEN seq <= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'history_moved_seq') THEN NULL ELSE cells END
         WHERE step IN (${dropped})`,
      )
      .run(id, id, KEPT_STEPS);
    this.store.sql(`DELETE FROM steps WHERE id IN (${dropped})`).run(id, id, KEPT_STEPS);
  }
}

/** The assets and the responses a step's rows changed. */
function outcomeOf(rows: JournalRow[]): Omit<StepOutcome, 'label'> {
  const ids = [...new Set(rows.map((row) => row.local_id))];
  const responses = new Set<number>();
  const touched: string[] = [];
  let meters = false;
  for (const id of ids) {
    if (meterJournalPrefixes.some((prefix) => id.startsWith(prefix))) {
      meters = true;
      continue;
    }
    const response = responseOfJournalKey(id);
    if (response === undefined) touched.push(id);
    else responses.add(response);
  }
  return { touched, responses: [...responses], meters };
}
