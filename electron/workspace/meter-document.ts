import type { Meter, Reading } from '../../shared/meters/types';
import type { DocumentKind } from './document-kind';
import type { SqlAccess } from './store-access';

/**
 * Meters, their readings, and the derived-figure records (what meters last wrote into an asset's
 * annual cell: its value and how it was made) as documents of the write path (issue 32). Every
 * statement that writes the `meters`, `readings` and `meter_derived` tables is here; the meters
 * service (electron/meters/) says what to write, through the write path, so each change is
 * journalled for undo and told to the cell history with its source.
 *
 * Journal keys: `meter:<id>`, `reading:<id>`, `derived:<localId>|<year>|<field>`.
 */

export type StoredReading = Reading & { id: string };

export interface DerivedRecord {
  localId: string;
  year: number;
  field: string;
  value: number | string;
  meters: string[];
  readings: number;
  text: string;
  /** The estimated share of the consumption behind it, 0..1 (null for areas and dates; absent in older records). */
  estimatedShare?: number | null;
  /**
   * Set while a reading rule holds the figure back (electron/meters/held-back.ts): why, and whether
   * meters never wrote the cell (`unwritten`: `value` is the held figure, not the cell's) or it keeps
   * what they last wrote (`value`).
   */
  heldBack?: HeldBack | null;
}

export interface HeldBack {
  reason: string;
  unwritten: boolean;
}

/** A derived record's document id. */
export const derivedId = (localId: string, year: number, field: string): string =>
  `${localId}|${year}|${field}`;

/** The journal keys of the meters' kinds: a step that has one changed meters (see history.ts). */
export const meterJournalPrefixes = ['meter:', 'reading:', 'derived:'] as const;

export interface MeterDocWriter<T> {
  /** Writes the document (null: it goes). */
  put(id: string, doc: T | null): void;
}

function prefixed<T>(
  kind: 'meter' | 'reading' | 'derived',
  access: SqlAccess,
  read: (id: string) => T | null,
  put: (id: string, doc: T | null) => void,
): DocumentKind<T, MeterDocWriter<T>> {
  const prefix = `${kind}:`;
  return {
    kind,
    journalKey: (id) => `${prefix}${id}`,
    idOfJournalKey: (key) => (key.startsWith(prefix) ? key.slice(prefix.length) : undefined),
    read,
    document: (image) => image,
    writer: { put },
    restore: (id, image) => put(id, image),
  };
}

export function meterDocuments(access: SqlAccess): DocumentKind<Meter, MeterDocWriter<Meter>> {
  const { sql, now } = access;
  return prefixed<Meter>(
    'meter',
    access,
    (id) => {
      const row = sql('SELECT json FROM meters WHERE id = ?').get(id) as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as Meter) : null;
    },
    (id, doc) => {
      if (doc === null) sql('DELETE FROM meters WHERE id = ?').run(id);
      else
        sql(
          'INSERT INTO meters (id, asset_id, json, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET asset_id = excluded.asset_id, json = excluded.json, updated_at = excluded.updated_at',
        ).run(id, doc.assetId, JSON.stringify(doc), now());
    },
  );
}

export function readingDocuments(
  access: SqlAccess,
): DocumentKind<StoredReading, MeterDocWriter<StoredReading>> {
  const { sql, now } = access;
  return prefixed<StoredReading>(
    'reading',
    access,
    (id) => {
      const row = sql('SELECT json FROM readings WHERE id = ?').get(id) as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as StoredReading) : null;
    },
    (id, doc) => {
      if (doc === null) sql('DELETE FROM readings WHERE id = ?').run(id);
      else
        sql(
          'INSERT INTO readings (id, meter_id, start, "end", json, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET meter_id = excluded.meter_id, start = excluded.start, "end" = excluded."end", json = excluded.json, updated_at = excluded.updated_at',
        ).run(id, doc.meterId, doc.start, doc.end, JSON.stringify(doc), now());
    },
  );
}

export function derivedDocuments(
  access: SqlAccess,
): DocumentKind<DerivedRecord, MeterDocWriter<DerivedRecord>> {
  const { sql } = access;
  const key = (id: string): [string, number, string] => {
    const [localId = '', year = '0', field = ''] = id.split('|');
    return [localId, Number(year), field];
  };
  return prefixed<DerivedRecord>(
    'derived',
    access,
    (id) => {
      const row = sql('SELECT json FROM meter_derived WHERE local_id = ? AND year = ? AND field = ?').get(
        ...key(id),
      ) as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as DerivedRecord) : null;
    },
    (id, doc) => {
      if (doc === null)
        sql('DELETE FROM meter_derived WHERE local_id = ? AND year = ? AND field = ?').run(...key(id));
      else
        sql(
          'INSERT INTO meter_derived (local_id, year, field, json) VALUES (?, ?, ?, ?) ON CONFLICT(local_id, year, field) DO UPDATE SET json = excluded.json',
        ).run(...key(id), JSON.stringify(doc));
    },
  );
}
