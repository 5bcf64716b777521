import type Database from 'better-sqlite3';
import type { FieldConflict, Scalar } from '../../shared/sync/asset-doc';
import { assetColumns, inStep, toRecord, type AssetRecord, type AssetRow } from './asset-record';
import { WorkspaceEditError } from './workspace-edit-error';

/** A row read for the grids' views: its rowid, and whether its copy is the service's (base unread). */
export type ViewRow = AssetRow & { row: number; in_step: number };

/**
 * What the workspace store reads of its assets, their conflicts and the journal, over its one
 * connection and statement cache (WorkspaceStore adds the writes).
 */
export class WorkspaceReads {
  private readonly statements = new Map<string, Database.Statement>();

  protected constructor(
    protected readonly db: Database.Database,
    /** Told of each statement run (by its text), for a test to count the reads. */
    private readonly onStatement?: (text: string) => void,
  ) {}

  listAssets(): AssetRecord[] {
    return (this.sql(`SELECT ${assetColumns} FROM assets ORDER BY rowid`).all() as AssetRow[]).map((row) =>
      toRecord(row),
    );
  }

  /**
   * The assets as the grids need them, in order, after the row `after` (at most `limit`): an asset
   * whose copy is the service's (most of a pulled workspace) is read and parsed once, not twice;
   * its `base` stays unread (null, with `inStep`). `last`: the row to go on after.
   */
  listForViews(after = 0, limit = -1): { records: AssetRecord[]; last: number | null } {
    const { rows, last } = this.rowsForViews(after, limit);
    return { records: rows.map((row) => ({ ...toRecord(row), inStep: row.in_step === 1 })), last };
  }

  /**
   * The rows `listForViews` reads, as SQLite hands them back (documents as their stored text): a
   * page of views can be written from the texts without parsing them (`asset-view-text.ts`).
   */
  rowsForViews(
    after = 0,
    limit = -1,
    through = Number.MAX_SAFE_INTEGER,
  ): { rows: ViewRow[]; last: number | null } {
    const rows = this.sql(
      `SELECT rowid AS row, local_id, service_asset_id, partners_id, server_validations, outliers, remote_deleted, not_found, in_flight, updated_at, current, CASE WHEN ${inStep} THEN NULL ELSE base END AS base, ${inStep} AS in_step FROM assets WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`,
    ).all(after, through, limit) as ViewRow[];
    return { rows, last: rows.at(-1)?.row ?? null };
  }

  /**
   * Where each page of the assets after the row `after` starts, pages of `size` rows: the row each
   * goes on after (the first is `after`), read as the rows' ids alone.
   */
  pageStarts(after: number, size: number): number[] {
    const ids = this.sql('SELECT rowid FROM assets WHERE rowid > ? ORDER BY rowid')
      .pluck()
      .all(after) as number[];
    const starts = [after];
    for (let i = size; i < ids.length; i += size) starts.push(ids[i - 1]!);
    return starts;
  }

  /** How many assets the workspace holds, without reading them. */
  assetCount(): number {
    return (this.sql('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n;
  }

  /** Every open conflict, by asset (one query for a whole snapshot). */
  conflictsByAsset(): Map<string, FieldConflict[]> {
    const out = new Map<string, FieldConflict[]>();
    for (const { localId, ...conflict } of this.conflicts()) {
      const list = out.get(localId);
      if (list) list.push(conflict);
      else out.set(localId, [conflict]);
    }
    return out;
  }

  asset(localId: string): AssetRecord | undefined {
    const row = this.sql(`SELECT ${assetColumns} FROM assets WHERE local_id = ?`).get(localId) as
      AssetRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  assetByServiceId(serviceAssetId: number): AssetRecord | undefined {
    const row = this.sql(`SELECT ${assetColumns} FROM assets WHERE service_asset_id = ?`).get(
      serviceAssetId,
    ) as AssetRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  journalLength(): number {
    return (this.sql('SELECT COUNT(*) AS n FROM journal').get() as { n: number }).n;
  }

  lastJournalSeq(): number {
    return (this.sql('SELECT COALESCE(MAX(seq), 0) AS n FROM journal').get() as { n: number }).n;
  }

  conflicts(localId?: string): Array<FieldConflict & { localId: string }> {
    const rows = (
      localId === undefined
        ? this.sql('SELECT * FROM conflicts ORDER BY local_id, path').all()
        : this.sql('SELECT * FROM conflicts WHERE local_id = ? ORDER BY path').all(localId)
    ) as Array<{ local_id: string; path: string; base: string; mine: string; theirs: string }>;
    return rows.map((row) => ({
      localId: row.local_id,
      path: row.path,
      base: JSON.parse(row.base) as Scalar,
      mine: JSON.parse(row.mine) as Scalar,
      theirs: JSON.parse(row.theirs) as Scalar,
    }));
  }

  /** @internal */
  mustGet(localId: string): AssetRecord {
    const record = this.asset(localId);
    if (!record) throw new WorkspaceEditError(`No asset ${localId} in the workspace`);
    return record;
  }

  /** Prepared once per text: preparing costs more than running for these one-row statements. */
  protected sql(text: string): Database.Statement {
    this.onStatement?.(text);
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }
}
