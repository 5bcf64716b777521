import type { ChangeSource } from '../../shared/history/change-source';

/** How the cell history stores and places a change's source (see cell-history.ts). */

/** The time a version 7 UUID carries (its first 48 bits, epoch ms); undefined for any other id. */
export function uuidTime(id: string): number | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return undefined;
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * A source as its row stores it: the service's `updated_at` cut to its UTC day, the grain its words
 * show ("from the service, updated 3 Mar 2026"). A pull's changes then share one source row per
 * distinct day rather than one per asset (each asset has its own `updated_at` to the second), so
 * the table stays small and a changed cell's row still names its source by a small integer.
 */
export function storedSource(source: ChangeSource): ChangeSource {
  if (source.kind !== 'service' || source.updatedAt === null) return source;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(source.updatedAt) ? null : new Date(source.updatedAt);
  if (!day || Number.isNaN(day.getTime())) return source;
  return { kind: 'service', updatedAt: day.toISOString().slice(0, 10) };
}

/** Where a document's cells sit in the source of a write, by path (undefined: nowhere known). */
export type PlacesOf = (docId: string) => ReadonlyMap<string, string> | undefined;

/** A source with the place of one cell in it: a workbook's sheet and cell, a CSV's row. */
export function placed(source: ChangeSource, place: string | null): ChangeSource {
  if (place === null) return source;
  const bang = place.lastIndexOf('!');
  if (source.kind === 'workbook' && bang > 0)
    return { ...source, sheet: place.slice(0, bang).slice(0, 64), cell: place.slice(bang + 1).slice(0, 16) };
  const row = /(\d+)$/.exec(place);
  if (source.kind === 'csv' && row) return { ...source, row: Number(row[1]) };
  return source;
}
