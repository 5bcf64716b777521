import type { ChangeSource } from '../../shared/history/change-source';
import type { Meter } from '../../shared/meters/types';
import { derivedId, type DerivedRecord, type StoredReading } from './meter-document';
import type { SqlAccess } from './store-access';
import type { WritePath } from './write-path';

export { derivedId, type DerivedRecord, type StoredReading };

/** One document of the meters' tables as a write found or leaves it (null: none). */
export type MeterDocChange =
  | { kind: 'meter'; id: string; assetId: string; before: Meter | null; after: Meter | null }
  | {
      kind: 'reading';
      id: string;
      assetId: string;
      before: StoredReading | null;
      after: StoredReading | null;
    }
  | {
      kind: 'derived';
      id: string;
      assetId: string;
      before: DerivedRecord | null;
      after: DerivedRecord | null;
    };

/**
 * The meters' tables in the workspace file (schema: migrations.ts), read on the workspace store's
 * connection and written through its one write path (kinds `meter`, `reading`, `derived`:
 * electron/workspace/meter-document.ts), so a change to meters and the asset cells it derives are one
 * transaction and one undo step, and each change reaches the cell history with its source.
 */
export class MeterStore {
  constructor(
    private readonly access: SqlAccess,
    private readonly path: WritePath,
  ) {}

  // --- reading

  meters(assetId?: string): Meter[] {
    const rows = (
      assetId === undefined
        ? this.access.sql('SELECT json FROM meters ORDER BY asset_id, rowid').all()
        : this.access.sql('SELECT json FROM meters WHERE asset_id = ? ORDER BY rowid').all(assetId)
    ) as Array<{ json: string }>;
    return rows.map((row) => JSON.parse(row.json) as Meter);
  }

  meter(id: string): Meter | undefined {
    const row = this.access.sql('SELECT json FROM meters WHERE id = ?').get(id) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as Meter) : undefined;
  }

  /** Those of the meters named that the workspace has, by id (one query, not one a meter). */
  metersById(ids: readonly string[]): Map<string, Meter> {
    const rows = this.access
      .sql('SELECT json FROM meters WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(ids)) as Array<{ json: string }>;
    const out = new Map<string, Meter>();
    for (const row of rows) {
      const meter = JSON.parse(row.json) as Meter;
      out.set(meter.id, meter);
    }
    return out;
  }

  /** The readings of some meters, by meter then start date. */
  readingsOf(meterIds: readonly string[], limit = -1): StoredReading[] {
    const rows = this.access
      .sql(
        'SELECT json FROM readings WHERE meter_id IN (SELECT value FROM json_each(?)) ORDER BY meter_id, start, rowid LIMIT ?',
      )
      .all(JSON.stringify(meterIds), limit) as Array<{ json: string }>;
    return rows.map((row) => JSON.parse(row.json) as StoredReading);
  }

  /** Every reading, in pages (the Readings grid of a whole entity can hold a million). */
  readingsPage(after: number, limit: number): { readings: StoredReading[]; last: number | null } {
    const rows = this.access
      .sql('SELECT rowid AS row, json FROM readings WHERE rowid > ? ORDER BY rowid LIMIT ?')
      .all(after, limit) as Array<{ row: number; json: string }>;
    return {
      readings: rows.map((row) => JSON.parse(row.json) as StoredReading),
      last: rows.at(-1)?.row ?? null,
    };
  }

  reading(id: string): StoredReading | undefined {
    const row = this.access.sql('SELECT json FROM readings WHERE id = ?').get(id) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as StoredReading) : undefined;
  }

  /** How many readings each meter has, counted by SQLite. */
  readingCounts(meterIds: readonly string[]): Map<string, number> {
    const rows = this.access
      .sql(
        'SELECT meter_id, COUNT(*) AS n FROM readings WHERE meter_id IN (SELECT value FROM json_each(?)) GROUP BY meter_id',
      )
      .all(JSON.stringify(meterIds)) as Array<{
      meter_id: string;
      n: number;
    }>;
    return new Map(rows.map((row) => [row.meter_id, row.n]));
  }

  readingCount(): number {
    return (this.access.sql('SELECT COUNT(*) AS n FROM readings').get() as { n: number }).n;
  }

  /** Every derived record of the workspace (the annual grid's marks). */
  allDerived(): DerivedRecord[] {
    const rows = this.access.sql('SELECT json FROM meter_derived').all() as Array<{ json: string }>;
    return rows.map((row) => JSON.parse(row.json) as DerivedRecord);
  }

  /** What "Apply meter figures" last wrote into an asset's cells, by `derivedId`. */
  derived(localId: string): Map<string, DerivedRecord> {
    const rows = this.access.sql('SELECT json FROM meter_derived WHERE local_id = ?').all(localId) as Array<{
      json: string;
    }>;
    const out = new Map<string, DerivedRecord>();
    for (const row of rows) {
      const record = JSON.parse(row.json) as DerivedRecord;
      out.set(derivedId(record.localId, record.year, record.field), record);
    }
    return out;
  }

  // --- writing: through the one write path

  /** Applies changes to meters, readings and derived records inside the caller's step. */
  write(changes: readonly MeterDocChange[], source: ChangeSource): void {
    for (const change of changes) {
      const journal = { kind: 'meters', source };
      if (change.kind === 'meter')
        this.path.analyst('meter', change.id, { ...journal, before: change.before }, (w) => {
          w.put(change.id, change.after);
          return change.after;
        });
      else if (change.kind === 'reading')
        this.path.analyst('reading', change.id, { ...journal, before: change.before }, (w) => {
          w.put(change.id, change.after);
          return change.after;
        });
      else
        this.path.analyst('derived', change.id, { ...journal, before: change.before }, (w) => {
          w.put(change.id, change.after);
          return change.after;
        });
    }
  }
}
