/**
 * Which cells of the rows the grids draw came from the analyst's hand, as main answered them
 * (`workspace.handCells`), asked per row as rows are drawn, never for the whole workspace (whose
 * every hand cell was 1.3 M rows, read again after each change). Pure: cell-marks.ts wires it to
 * the bridge, the grids and the workspace store.
 *
 * - A row not known yet is unmarked and queued; `take` hands the queue out in bounded batches.
 * - A changed asset is forgotten at once, so a value typed a moment ago is never drawn marked from
 *   what main said before it (it is unmarked until main answers again).
 * - A reset (a reload: a pull, an import, a sync) keeps the answers as they were for drawing but
 *   makes them stale, so each is asked again when drawn: a reload never unmarks every cell.
 * - An answer that crossed a change of its asset is not kept (it may say what was before it).
 */
export class HandCache {
  /** By local id: its hand paths, and the reset generation they were answered in. */
  private readonly rows = new Map<string, { paths: ReadonlySet<string>; generation: number }>();
  private readonly queued = new Set<string>();
  /** Asked and not answered yet, with the number of changes each had when asked. */
  private readonly asked = new Map<string, number>();
  private readonly changes = new Map<string, number>();
  /**
   * The paths with a value drawn unmarked while their row was not known: only a row whose answer
   * marks one of them needs drawing again (a row of the analyst's own changes nothing on screen,
   * and a fling draws hundreds of rows).
   */
  private readonly drawnUnknown = new Map<string, Set<string>>();
  private generation = 0;

  constructor(
    private readonly batch: number,
    /** Past this many rows known, all are dropped: rows drawn are few, scrolling adds up. */
    private readonly limit = 20_000,
  ) {}

  /** Whether a drawn cell is marked; a row not known, or known only before a reset, is queued. */
  isMarked(localId: string, path: string, value: unknown): boolean {
    if (value === null || value === undefined || value === '') return false;
    const row = this.rows.get(localId);
    if (!row || row.generation !== this.generation) this.queue(localId);
    if (!row) {
      let drawn = this.drawnUnknown.get(localId);
      if (!drawn) this.drawnUnknown.set(localId, (drawn = new Set()));
      drawn.add(path);
      return false;
    }
    return !row.paths.has(path);
  }

  /** Whether anything waits to be asked. */
  get pending(): boolean {
    return this.queued.size > 0;
  }

  /** The next batch to ask main, now counted as asked (answer it with `answer`, or `failed`). */
  take(): string[] {
    const ids: string[] = [];
    for (const id of this.queued) {
      if (ids.length >= this.batch) break;
      ids.push(id);
    }
    for (const id of ids) {
      this.queued.delete(id);
      this.asked.set(id, this.changes.get(id) ?? 0);
    }
    return ids;
  }

  /**
   * Main's answer to `ids` (ids without a hand cell are absent); answers the ids kept whose marks
   * drawn change by it (the rows to draw again).
   */
  answer(ids: readonly string[], hand: Readonly<Record<string, readonly string[]>>): string[] {
    if (this.rows.size + ids.length > this.limit) this.rows.clear();
    const kept: string[] = [];
    for (const id of ids) {
      const changesWhenAsked = this.asked.get(id);
      this.asked.delete(id);
      if (changesWhenAsked === undefined) continue;
      if (changesWhenAsked !== (this.changes.get(id) ?? 0)) {
        // Changed while main answered: ask again rather than keep what may be older.
        this.queued.add(id);
        continue;
      }
      this.changes.delete(id);
      const paths = new Set(hand[id] ?? []);
      const before = this.rows.get(id)?.paths;
      const drawn = this.drawnUnknown.get(id);
      this.drawnUnknown.delete(id);
      this.rows.set(id, { paths, generation: this.generation });
      const redraw = before
        ? before.size !== paths.size || [...paths].some((p) => !before.has(p))
        : [...(drawn ?? [])].some((p) => !paths.has(p));
      if (redraw) kept.push(id);
    }
    return kept;
  }

  /** A call that failed: its ids are asked again when next drawn. */
  failed(ids: readonly string[]): void {
    for (const id of ids) {
      this.asked.delete(id);
      this.changes.delete(id);
      this.drawnUnknown.delete(id);
    }
  }

  /** These assets changed: forgotten now, asked again when drawn. */
  changed(localIds: readonly string[]): void {
    for (const id of localIds) {
      this.rows.delete(id);
      if (this.asked.has(id)) this.changes.set(id, (this.changes.get(id) ?? 0) + 1);
    }
  }

  /**
   * The analyst's hand set these cells of an asset (a typed value, a paste...), and nothing else of
   * it: they are the hand's now, the rest came from where it came from before. A known row keeps its
   * answer with them added, so it is neither asked again nor drawn again; a row not known stays so.
   * An answer asked before and still to come is not kept (it may say what was before the edit).
   */
  handEdited(localId: string, paths: readonly string[]): void {
    if (this.asked.has(localId)) this.changes.set(localId, (this.changes.get(localId) ?? 0) + 1);
    const row = this.rows.get(localId);
    if (!row || paths.every((p) => row.paths.has(p))) return;
    this.rows.set(localId, { paths: new Set([...row.paths, ...paths]), generation: row.generation });
  }

  /** The workspace was read again: every answer is stale (still drawn, asked again when drawn). */
  reset(): void {
    this.generation++;
    for (const id of this.asked.keys()) this.changes.set(id, (this.changes.get(id) ?? 0) + 1);
  }

  /** Another workspace (or none): nothing known is kept. */
  clear(): void {
    this.generation++;
    this.rows.clear();
    this.queued.clear();
    // An answer still to come is of the other workspace: `answer` keeps none of it.
    this.asked.clear();
    this.changes.clear();
    this.drawnUnknown.clear();
  }

  private queue(localId: string): void {
    if (!this.asked.has(localId)) this.queued.add(localId);
  }
}
