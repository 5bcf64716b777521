/**
 * Row models of the grids, derived from asset views. Pure. Every row knows its asset (`localId`) and
 * turns a column's field into the document path an edit writes, which is also the path validation
 * messages and staged changes are keyed by.
 */
import { entryKey } from '../../../shared/sync/asset-doc';
import type { AssetView } from '../../../shared/sync/types';

export type GridKind = 'assets' | 'annual' | 'certifications' | 'energy_ratings';
export type EntryCollection = 'certifications' | 'energy_ratings';

export interface BaseRow {
  id: string;
  localId: string;
  view: AssetView;
}

export interface AssetRow extends BaseRow {
  kind: 'assets';
}

export interface AnnualRow extends BaseRow {
  kind: 'annual';
  year: number;
  /** The annual record; undefined for the placeholder row of an asset with no annual data yet. */
  rec: Record<string, unknown> | undefined;
}

export interface EntryRow extends BaseRow {
  kind: EntryCollection;
  key: string;
  entry: Record<string, unknown>;
}

export type GridRow = AssetRow | AnnualRow | EntryRow;

export const annualRowId = (localId: string, year: number): string => `${localId}:${year}`;

export function assetRowsOf(view: AssetView): AssetRow[] {
  return [{ kind: 'assets', id: view.localId, localId: view.localId, view }];
}

/**
 * One row per asset and year. An asset with no annual data gets one row for `placeholderYear`, so
 * the analyst can type the first values straight into the grid (the edit creates the record).
 */
export function annualRowsOf(view: AssetView, placeholderYear: number): AnnualRow[] {
  const list = Array.isArray(view.doc.annual_data) ? (view.doc.annual_data as Record<string, unknown>[]) : [];
  const rows: AnnualRow[] = [];
  for (const rec of list) {
    const year = Number(rec['year']);
    if (!Number.isInteger(year)) continue;
    rows.push({
      kind: 'annual',
      id: annualRowId(view.localId, year),
      localId: view.localId,
      view,
      year,
      rec,
    });
  }
  if (rows.length === 0) {
    rows.push({
      kind: 'annual',
      id: annualRowId(view.localId, placeholderYear),
      localId: view.localId,
      view,
      year: placeholderYear,
      rec: undefined,
    });
  }
  return rows.sort((a, b) => a.year - b.year);
}

export function entryRowsOf(view: AssetView, collection: EntryCollection): EntryRow[] {
  const list = view.doc[collection];
  if (!Array.isArray(list)) return [];
  return (list as Record<string, unknown>[]).map((entry) => {
    const key = entryKey(collection, entry);
    return { kind: collection, id: `${view.localId}|${key}`, localId: view.localId, view, key, entry };
  });
}

export function rowsOf(kind: GridKind, view: AssetView, placeholderYear: number): GridRow[] {
  switch (kind) {
    case 'assets':
      return assetRowsOf(view);
    case 'annual':
      return annualRowsOf(view, placeholderYear);
    default:
      return entryRowsOf(view, kind);
  }
}

/** A deleted asset's rows stay visible until the sync but take no edits. */
export function isRowEditable(row: GridRow | undefined): boolean {
  return row !== undefined && row.view.status !== 'deleted';
}

/** The document path a column of a row edits. */
export function pathOf(row: GridRow, field: string): string {
  switch (row.kind) {
    case 'assets':
      return field;
    case 'annual':
      return `annual_data/${row.year}/${field}`;
    default:
      return `${row.kind}/${row.key}/${field}`;
  }
}

/** The stored value under a row's column. */
export function rawValueOf(row: GridRow, field: string): unknown {
  switch (row.kind) {
    case 'assets':
      return row.view.doc[field];
    case 'annual':
      return row.rec?.[field];
    default:
      return row.entry[field];
  }
}

/** Which grid shows a path. */
export function gridOfPath(path: string): GridKind {
  if (path.startsWith('annual_data/')) return 'annual';
  if (path.startsWith('certifications/')) return 'certifications';
  if (path.startsWith('energy_ratings/')) return 'energy_ratings';
  return 'assets';
}

/** The row id and column id a path lands on, for "jump to the cell". */
export function cellOfPath(
  localId: string,
  path: string,
): { grid: GridKind; rowId: string; colId: string | null } {
  const [head, key, field] = path.split('/');
  const grid = gridOfPath(path);
  if (grid === 'assets')
    return { grid, rowId: localId, colId: head === 'asset_size' ? 'size' : (head ?? null) };
  if (grid === 'annual') return { grid, rowId: annualRowId(localId, Number(key)), colId: field ?? null };
  return { grid, rowId: `${localId}|${key ?? ''}`, colId: field ?? null };
}

export function assetName(view: AssetView): string {
  const name = view.doc['name'];
  return typeof name === 'string' && name.trim() !== '' ? name : '(unnamed asset)';
}
