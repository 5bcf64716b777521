import type { ChangeSource } from '../../shared/history/change-source';
import type { Meter, Reading } from '../../shared/meters/types';
import type { History } from '../workspace/history';
import type { StoreAccess } from '../workspace/store-access';

/** A reading as the workspace keeps it: with its own id, so a cell of the Readings grid names it. */
export type StoredReading = Reading & { id: string };

/**
 * What "Apply meter figures" wrote into an asset's annual cell: the value, and how it was made (for
 * the cell's hover and an assurer). A cell whose value differs from `value` was typed over: the
 * analyst's override.
 */
export interface DerivedRecord {
  localId: string;
  year: number;
  field: string;
  value: number | string;
  meters: string[];
  readings: number;
  text: string;
}

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

/** The journal's key prefix for meters' changes: `meters:<asset local id>`. */
export const metersJournalPrefix = 'meters:';

type Image = Array<{ kind: MeterDocChange['kind']; id: string; doc: unknown }>;

export const derivedId = (localId: string, year: number, field: string): string =>
  `${localId}|${year}|${field}`;

/**
 * The meters' tables in the workspace file (schema: migrations.ts), on the workspace store's own
 * connection so a change to meters and the asset cells it derives are one transaction and one undo
 * step. Every write goes through `write` (the seam the one write path of issue 35 replaces: it then
 * becomes that path's adapter for the `meter` and `reading` document kinds).
 */
export class MeterStore {
  constructor(
    private readonly access: StoreAccess,
    private readonly history: History,
  ) {
    history.registerSideKind({
      prefix: metersJournalPrefix,
      restore: (image) => this.restore(image as Image),
    });
  }

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

  /** The readings of some meters, by meter then start date. */
  readingsOf(meterIds: readonly string[]): StoredReading[] {
    const rows = this.access
      .sql(
        'SELECT json FROM readings WHERE meter_id IN (SELECT value FROM json_each(?)) ORDER BY meter_id, start, rowid',
      )
      .all(JSON.stringify(meterIds)) as Array<{ json: string }>;
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

  // --- writing: the one place the meters' tables change

  /**
   * Applies changes to meters, readings and derived records, journalled per asset inside the
   * caller's step (`WorkspaceStore.step`), so Undo puts them back. `source` says where they came
   * from; the cell history (issue 31) records it once the one write path carries it.
   */
  write(changes: readonly MeterDocChange[], source: ChangeSource): void {
    if (changes.length === 0) return;
    const byAsset = new Map<string, MeterDocChange[]>();
    for (const change of changes) {
      this.put(change.kind, change.id, change.assetId, change.after);
      const list = byAsset.get(change.assetId);
      if (list) list.push(change);
      else byAsset.set(change.assetId, [change]);
    }
    for (const [assetId, list] of byAsset) {
      const image = (side: 'before' | 'after'): Image =>
        list.map((c) => ({ kind: c.kind, id: c.id, doc: c[side] }));
      this.history.journalSide(
        `${metersJournalPrefix}${assetId}`,
        'meters',
        { source, changes: list.length },
        // Undo puts the befores back in reverse order (a meter after its readings are gone).
        image('before').reverse(),
        image('after'),
      );
    }
  }

  private restore(image: Image): void {
    for (const entry of image) {
      const assetId =
        entry.kind === 'meter'
          ? (entry.doc as Meter | null)?.assetId
          : entry.kind === 'derived'
            ? (entry.doc as DerivedRecord | null)?.localId
            : undefined;
      this.put(entry.kind, entry.id, assetId ?? '', entry.doc);
    }
  }

  private put(kind: MeterDocChange['kind'], id: string, assetId: string, doc: unknown): void {
    const now = this.access.now();
    if (kind === 'meter') {
      if (doc === null) this.access.sql('DELETE FROM meters WHERE id = ?').run(id);
      else
        this.access
          .sql(
            'INSERT INTO meters (id, asset_id, json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET asset_id = excluded.asset_id, json = excluded.json, updated_at = excluded.updated_at',
          )
          .run(id, (doc as Meter).assetId || assetId, JSON.stringify(doc), now);
    } else if (kind === 'reading') {
      if (doc === null) this.access.sql('DELETE FROM readings WHERE id = ?').run(id);
      else {
        const r = doc as StoredReading;
        this.access
          .sql(
            'INSERT INTO readings (id, meter_id, start, "end", json, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET meter_id = excluded.meter_id, start = excluded.start, "end" = excluded."end", json = excluded.json, updated_at = excluded.updated_at',
          )
          .run(id, r.meterId, r.start, r.end, JSON.stringify(doc), now);
      }
    } else {
      const [localId = '', year = '0', field = ''] = id.split('|');
      if (doc === null)
        this.access
          .sql('DELETE FROM meter_derived WHERE local_id = ? AND year = ? AND field = ?')
          .run(localId, Number(year), field);
      else
        this.access
          .sql(
            'INSERT INTO meter_derived (local_id, year, field, json) VALUES (?, ?, ?, ?) ON CONFLICT(local_id, year, field) DO UPDATE SET json = excluded.json',
          )
          .run(localId, Number(year), field, JSON.stringify(doc));
    }
  }
}
