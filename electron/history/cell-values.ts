import { flattenDoc, type AssetDoc, type Scalar } from '../../shared/sync/asset-doc';
import type { DocumentRef } from '../workspace/change-recorder';

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

/** The cells whose values differ between two images, with both values. */
export function changedCells(
  kind: DocumentRef['kind'],
  before: unknown,
  after: unknown,
): Array<{ path: string; previous: Scalar; value: Scalar }> {
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
