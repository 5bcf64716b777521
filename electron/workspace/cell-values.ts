import {
  changedPaths,
  entryKey,
  flattenDoc,
  pathReach,
  type AssetDoc,
  type Scalar,
} from '../../shared/sync/asset-doc';
import type { DocumentRef } from './change-recorder';

const collectionHeads = new Set(['annual_data', 'certifications', 'energy_ratings']);

/**
 * A document image's cells by the path `workspace.edit` takes. An asset's entry markers
 * (`annual_data/2024` itself) are no cells: a row or entry shows by its fields. An answer is one
 * cell, `value`; a meter or a reading, its own scalar fields.
 */
export function cellsOf(kind: DocumentRef['kind'], image: unknown): Map<string, Scalar> {
  if (image === null || image === undefined) return new Map();
  if (kind === 'asset') {
    const cells = flattenDoc(image as AssetDoc);
    for (const path of cells.keys()) {
      const slash = path.indexOf('/');
      if (slash > 0 && collectionHeads.has(path.slice(0, slash)) && path.indexOf('/', slash + 1) < 0)
        cells.delete(path);
    }
    return cells;
  }
  if (kind === 'answer') return new Map([['value', asScalar(answerValue(image))]]);
  const out = new Map<string, Scalar>();
  if (typeof image === 'object' && !Array.isArray(image)) {
    for (const [field, value] of Object.entries(image as Record<string, unknown>))
      if (value !== null && value !== undefined) out.set(field, asScalar(value));
  }
  return out;
}

/** An answer's image: its value as the `response_values` row keeps it, JSON text. */
function answerValue(image: unknown): unknown {
  if (typeof image !== 'string') return image;
  try {
    return JSON.parse(image) as unknown;
  } catch {
    return image;
  }
}

function asScalar(value: unknown): Scalar {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** A value as stored: a number as itself, anything else as JSON text, no value as NULL. */
export function encodeValue(value: Scalar): string | number | null {
  if (value === null) return null;
  return typeof value === 'number' ? value : JSON.stringify(value);
}

export function decodeValue(stored: unknown): Scalar {
  if (stored === null || stored === undefined) return null;
  if (typeof stored === 'number') return stored;
  if (typeof stored === 'bigint') return Number(stored);
  try {
    return JSON.parse(String(stored)) as Scalar;
  } catch {
    return String(stored);
  }
}

/**
 * The cells whose values differ between two images, with both values. `among`: the paths the write
 * set, when it set nothing else (DocumentChange's `cells`): only those are compared.
 */
export function changedCells(
  kind: DocumentRef['kind'],
  before: unknown,
  after: unknown,
  among?: readonly string[],
): Array<{ path: string; previous: Scalar; value: Scalar }> {
  if (kind === 'asset') {
    const docs = [before as AssetDoc | null, after as AssetDoc | null] as const;
    return (among && changedAmong(...docs, among)) ?? changedAssetCells(...docs);
  }
  const a = cellsOf(kind, before);
  const b = cellsOf(kind, after);
  const out: Array<{ path: string; previous: Scalar; value: Scalar }> = [];
  for (const [path, previous] of a) {
    const value = b.get(path) ?? null;
    if (value !== previous) out.push({ path, previous, value });
  }
  for (const [path, value] of b)
    if (!a.has(path) && value !== null) out.push({ path, previous: null, value });
  return out;
}

/**
 * An asset's changed cells: the sync's own walk of both documents side by side (`changedPaths`),
 * then the two values of just those paths, so a keypress does not flatten the asset twice.
 */
function changedAssetCells(
  before: AssetDoc | null,
  after: AssetDoc | null,
): Array<{ path: string; previous: Scalar; value: Scalar }> {
  const out: Array<{ path: string; previous: Scalar; value: Scalar }> = [];
  // The same document (documents are never changed in place): a write that left its cells as they
  // were, such as a batch answer the service took as sent, says so without a walk of both.
  if (before === after) return out;
  for (const path of changedPaths(before, after)) {
    const parts = path.split('/');
    if (parts.length === 2) continue;
    out.push({ path, previous: assetValueAt(before, parts), value: assetValueAt(after, parts) });
  }
  return out;
}

/**
 * An asset's changed cells among the paths a cell edit set, each read in both images (a keypress's
 * one cell, where `changedAssetCells` walks every field of both). Undefined when a path reaches
 * further than its cell (it adds an entry): then only the walk of both knows what changed.
 */
function changedAmong(
  before: AssetDoc | null,
  after: AssetDoc | null,
  paths: readonly string[],
): Array<{ path: string; previous: Scalar; value: Scalar }> | undefined {
  if (!before || !after) return undefined;
  const out: Array<{ path: string; previous: Scalar; value: Scalar }> = [];
  for (const path of new Set(paths)) {
    const reach = pathReach(before, path);
    if (reach === 'more') return undefined;
    if (reach === 'none') continue;
    const parts = path.split('/');
    const previous = assetValueAt(before, parts);
    const value = assetValueAt(after, parts);
    if (previous !== value) out.push({ path, previous, value });
  }
  // In the walk's order (`changedPaths` sorts), so the history's rows do not depend on which ran.
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The value at a split path, as `flattenDoc` holds it (an entry's values merged as it merges them). */
function assetValueAt(doc: AssetDoc | null, parts: string[]): Scalar {
  if (!doc) return null;
  const [head, key, field] = parts;
  if (head === undefined) return null;
  if (key === undefined || field === undefined) return asScalar(doc[head]);
  const entries = doc[head];
  if (!Array.isArray(entries)) return null;
  let value: Scalar = null;
  for (const entry of entries as Record<string, unknown>[]) {
    if (entryKey(head as Parameters<typeof entryKey>[0], entry) !== key) continue;
    const found = asScalar(entry[field]);
    if (found !== null) value = found;
  }
  return value;
}
