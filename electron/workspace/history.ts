import type Database from 'better-sqlite3';
import { entryKey, setPathFrom, type AssetDoc } from '../../shared/sync/asset-doc';
import type { HistoryState } from '../../shared/sync/types';
import { newPartnersId } from './asset-edits';
import { writeCurrent, type StoreAccess } from './store-access';

/**
 * Undo and redo, kept in the workspace's own SQLite file (so scoped to its connection and entity,
 * and kept across restarts), built on the journal.
 *
 * Each user action is one step; every journal row the action writes carries the step and the
 * asset's row image before and after. Undo puts the "before" images back, redo the "after" ones,
 * each in one transaction. Only the analyst's copy (`current`) is ever restored, never the service's
 * (`base`): an undo after a sync is a new pending change, sent by the next sync like any edit.
 * A cell edit restores only its own paths, so a change pulled since is not reversed with it.
 */

/** An asset row as an action found or left it; null: there was no row. */
export type RowImage = {
  current: AssetDoc | null;
  serviceAssetId: number | null;
  partnersId: number | null;
} | null;

/** Steps kept for undo; older ones stay in the journal as audit, without their images. */
const KEPT_STEPS = 500;

interface JournalRow {
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
  /** Journal keys of other documents the step changed (meters: `meters:<asset local id>`). */
  docs: string[];
}

/**
 * Documents kept beside the assets in the same file (meters and readings, electron/meters/): their
 * journal rows are keyed `<prefix>...`, and their owner puts a row's image back on undo and redo.
 * Until the one write path (issue 35) takes them as document kinds.
 */
export interface SideDocKind {
  prefix: string;
  restore(image: unknown): void;
}

/**
 * A portfolio answer as a step found or left it (the responses store writes these; undo puts
 * `columns` of `row` back). Journal rows of answers are keyed `response:<id>`.
 */
export interface AnswerImage {
  responseId: number;
  variable: string;
  /** The answer's row, or null: there was none. */
  row: Record<(typeof answerColumns)[number], unknown> | null;
  /** What this step changed, so undo leaves the rest (a base a sync moved since) alone. */
  columns: ReadonlyArray<(typeof answerColumns)[number]>;
}

export const answerColumns = [
  'base_value',
  'base_lock_version',
  'current_value',
  'conflict_value',
  'conflict_lock_version',
  'server_errors',
] as const;

const answerPrefix = 'response:';

/** A statement runner: the workspace store's, or the responses store's own connection to the file. */
type Prepare = (text: string) => Pick<Database.Statement, 'run'>;

/**
 * Records one labelled step of a change outside the assets (a portfolio answer) in the same
 * journal, so one Undo undoes what its label says whichever tab made it. Call inside a transaction.
 */
export function journalAnswerStep(
  prepare: Prepare,
  at: number,
  label: string,
  kind: string,
  payload: unknown,
  before: AnswerImage,
  after: AnswerImage,
): void {
  const { lastInsertRowid } = prepare('INSERT INTO steps (label, at) VALUES (?, ?)').run(label, at);
  const id = Number(lastInsertRowid);
  prepare(
    'INSERT INTO journal (at, local_id, kind, payload, step, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    at,
    `${answerPrefix}${before.responseId}`,
    kind,
    JSON.stringify(payload),
    id,
    JSON.stringify(before),
    JSON.stringify(after),
  );
  forgetRedoAndOld(prepare, id);
}

/** A new action: what was undone can no longer be redone; steps beyond the kept ones are let go. */
function forgetRedoAndOld(prepare: Prepare, id: number): void {
  const dropped = 'SELECT id FROM steps WHERE (undone = 1 AND id < ?) OR id <= ? - ?';
  prepare(`UPDATE journal SET step = NULL, before = NULL, after = NULL WHERE step IN (${dropped})`).run(
    id,
    id,
    KEPT_STEPS,
  );
  prepare(`DELETE FROM steps WHERE id IN (${dropped})`).run(id, id, KEPT_STEPS);
}

export class History {
  private active: number | null = null;
  private readonly sideKinds: SideDocKind[] = [];

  constructor(private readonly store: StoreAccess) {}

  /** Whether a step is being recorded (journal rows then keep their images). */
  get recording(): boolean {
    return this.active !== null;
  }

  /** Runs `fn` as one labelled step (one transaction); a step that journalled nothing is dropped. */
  step<T>(label: string, fn: () => T): T {
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
        else forgetRedoAndOld((text) => this.store.sql(text), id);
        return result;
      } finally {
        this.active = null;
      }
    });
  }

  /** A kind of side document (meters) whose journal rows this history restores. */
  registerSideKind(kind: SideDocKind): void {
    if (!this.sideKinds.some((k) => k.prefix === kind.prefix)) this.sideKinds.push(kind);
  }

  /** Journals a change of side documents inside the current step (outside one: audit only). */
  journalSide(key: string, kind: string, payload: unknown, before: unknown, after: unknown): void {
    const inStep = this.active !== null;
    this.store
      .sql(
        'INSERT INTO journal (at, local_id, kind, payload, step, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        this.store.now(),
        key,
        kind,
        JSON.stringify(payload),
        this.active,
        inStep ? JSON.stringify(before) : null,
        inStep ? JSON.stringify(after) : null,
      );
  }

  image(localId: string): RowImage {
    const row = this.store
      .sql('SELECT current, service_asset_id, partners_id FROM assets WHERE local_id = ?')
      .get(localId) as
      { current: string | null; service_asset_id: number | null; partners_id: number | null } | undefined;
    if (!row) return null;
    return {
      current: row.current === null ? null : (JSON.parse(row.current) as AssetDoc),
      serviceAssetId: row.service_asset_id,
      partnersId: row.partners_id,
    };
  }

  /** Journals one change of an asset; inside a step, with its images for undo. */
  journal(localId: string, kind: string, payload: unknown, before: RowImage): void {
    const inStep = this.active !== null;
    this.store
      .sql(
        'INSERT INTO journal (at, local_id, kind, payload, step, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        this.store.now(),
        localId,
        kind,
        JSON.stringify(payload),
        this.active,
        inStep ? JSON.stringify(before) : null,
        inStep ? JSON.stringify(this.image(localId)) : null,
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
      return { label: step.label, ...outcomeOf(rows, this.sideKinds) };
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
      return { label: step.label, ...outcomeOf(rows, this.sideKinds) };
    });
  }

  private rowsOf(step: number): JournalRow[] {
    return this.store
      .sql('SELECT seq, local_id, kind, payload, before, after FROM journal WHERE step = ? ORDER BY seq')
      .all(step) as JournalRow[];
  }

  /** Puts one journal row's image back on its asset. */
  private restore(row: JournalRow, side: 'before' | 'after'): void {
    const text = side === 'before' ? row.before : row.after;
    if (row.local_id.startsWith(answerPrefix)) {
      if (text !== null) this.restoreAnswer(JSON.parse(text) as AnswerImage);
      return;
    }
    const sideKind = this.sideKinds.find((kind) => row.local_id.startsWith(kind.prefix));
    if (sideKind) {
      if (text !== null) sideKind.restore(JSON.parse(text) as unknown);
      return;
    }
    const target = (text === null ? null : JSON.parse(text)) as RowImage;
    const existing = this.store
      .sql('SELECT current, service_asset_id, in_flight FROM assets WHERE local_id = ?')
      .get(row.local_id) as
      { current: string | null; service_asset_id: number | null; in_flight: string | null } | undefined;
    const wanted = target?.current ?? null;
    if (!existing) {
      if (wanted === null || target === null) return;
      // Gone meanwhile (never sent and deleted, or deleted on the service): back under the same
      // local id as a new asset; one the service had gets a fresh partners id, so it is not
      // mistaken for the old one when its answer is reconciled.
      const partnersId =
        target.serviceAssetId !== null ? newPartnersId() : (target.partnersId ?? newPartnersId());
      this.store
        .sql('INSERT INTO assets (local_id, partners_id, base, local, updated_at) VALUES (?, ?, NULL, ?, ?)')
        .run(
          row.local_id,
          partnersId,
          JSON.stringify({ ...wanted, partners_id: partnersId }),
          this.store.now(),
        );
      return;
    }
    if (wanted === null) {
      if (existing.service_asset_id === null && existing.in_flight === null) {
        this.store.sql('DELETE FROM assets WHERE local_id = ?').run(row.local_id);
      } else writeCurrent(this.store, row.local_id, null);
      return;
    }
    let next: AssetDoc = wanted;
    const paths = cellPaths(row);
    if (paths && existing.current !== null) {
      next = JSON.parse(existing.current) as AssetDoc;
      for (const path of paths) next = setPathFrom(next, wanted, entryLevel(wanted, path));
    }
    writeCurrent(this.store, row.local_id, next);
  }

  /** Puts an answer's changed columns back (a first answer undone: its row goes). */
  private restoreAnswer(image: AnswerImage): void {
    const key = [image.responseId, image.variable];
    if (image.row === null) {
      this.store.sql('DELETE FROM response_values WHERE response_id = ? AND variable = ?').run(...key);
      return;
    }
    const exists = this.store
      .sql('SELECT 1 FROM response_values WHERE response_id = ? AND variable = ?')
      .get(...key);
    const row = image.row;
    if (!exists) {
      this.store
        .sql(
          `INSERT INTO response_values (response_id, variable, ${answerColumns.join(', ')}, updated_at)
           VALUES (?, ?, ${answerColumns.map(() => '?').join(', ')}, ?)`,
        )
        .run(...key, ...answerColumns.map((c) => row[c] ?? null), this.store.now());
      return;
    }
    const columns = image.columns.filter((c) => (answerColumns as readonly string[]).includes(c));
    if (columns.length === 0) return;
    this.store
      .sql(
        `UPDATE response_values SET ${columns.map((c) => `${c} = ?`).join(', ')}, updated_at = ?
         WHERE response_id = ? AND variable = ?`,
      )
      .run(...columns.map((c) => row[c] ?? null), this.store.now(), ...key);
  }
}

/** The assets and the responses a step's rows changed. */
function outcomeOf(rows: JournalRow[], sideKinds: readonly SideDocKind[]): Omit<StepOutcome, 'label'> {
  const ids = [...new Set(rows.map((row) => row.local_id))];
  const isSide = (id: string) => sideKinds.some((kind) => id.startsWith(kind.prefix));
  return {
    docs: ids.filter(isSide),
    touched: ids.filter((id) => !id.startsWith(answerPrefix) && !isSide(id)),
    responses: ids
      .filter((id) => id.startsWith(answerPrefix))
      .map((id) => Number(id.slice(answerPrefix.length))),
  };
}

/** The paths a cell edit touched; undefined for whole-document changes. */
function cellPaths(row: JournalRow): string[] | undefined {
  if (row.kind !== 'set') return undefined;
  const payload = JSON.parse(row.payload) as { edits?: Array<{ path?: unknown }> };
  if (!Array.isArray(payload.edits)) return undefined;
  return [
    ...new Set(payload.edits.map((edit) => edit.path).filter((p): p is string => typeof p === 'string')),
  ];
}

/**
 * A cell of an annual row (or entry) the wanted copy does not have at all: the whole row goes, so
 * undoing a paste that added a year leaves no empty record behind.
 */
function entryLevel(wanted: AssetDoc, path: string): string {
  const [head, key, field] = path.split('/');
  if (head === undefined || key === undefined || field === undefined) return path;
  const list = wanted[head];
  const has =
    Array.isArray(list) &&
    list.some(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        entryKey(head as Parameters<typeof entryKey>[0], entry as Record<string, unknown>) === key,
    );
  return has ? path : `${head}/${key}`;
}
