/**
 * The analyst's copy of an asset and the pure functions the sync needs over it: flattening to
 * field paths, the update that turns a base into the local copy, and the three-way merge of a pull.
 * Pure and Node-free, so the renderer can mark changed cells with the same paths the sync sends.
 */
import { UserFacingError } from '../errors';
import type { AssetInput } from '../domain';

/** Fields the service owns: never edited locally, never part of a diff. */
const serviceOwned = new Set([
  'service_asset_id',
  'partners_id',
  'created_at',
  'updated_at',
  '_validations',
  '_outliers',
  'asset_size',
]);
const collections = ['annual_data', 'certifications', 'energy_ratings'] as const;
type Collection = (typeof collections)[number];
const collectionSet: ReadonlySet<string> = new Set(collections);
const entryOwned = new Set(['_validations', 'name', '_key', 'id', 'year', '_destroy']);

/** An edit addressed to a path the document does not have (an entry removed meanwhile). */
export class AssetPathError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'AssetPathError';
  }
}

/** A local asset document: the service's shape, plus `_key` on entries not yet given an id. */
export type AssetDoc = AssetInput;

export type Scalar = string | number | boolean | null;

/** Paths: `name`, `annual_data/2024/en_abs_wf`, `certifications/id:7/level`, `certifications/new:k1`. */
export function entryKey(collection: Collection, entry: Record<string, unknown>): string {
  if (collection === 'annual_data') return String(entry['year']);
  const id = entry['id'];
  if (typeof id === 'number') return `id:${id}`;
  return `new:${String(entry['_key'] ?? '')}`;
}

function asScalar(value: unknown): Scalar {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** Every user-data path of a document with its value; an entry's own path marks that it exists. */
export function flattenDoc(doc: AssetDoc | null | undefined): Map<string, Scalar> {
  const out = new Map<string, Scalar>();
  if (!doc) return out;
  for (const [field, value] of Object.entries(doc)) {
    if (serviceOwned.has(field) || collectionSet.has(field)) continue;
    if (value !== undefined && value !== null) out.set(field, asScalar(value));
  }
  for (const collection of collections) {
    const entries = doc[collection];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as Record<string, unknown>[]) {
      const key = `${collection}/${entryKey(collection, entry)}`;
      out.set(key, true);
      for (const [field, value] of Object.entries(entry)) {
        if (entryOwned.has(field)) continue;
        if (value !== undefined && value !== null) out.set(`${key}/${field}`, asScalar(value));
      }
    }
  }
  return out;
}

/**
 * Paths whose values differ between two documents: the paths where `flattenDoc` of each would
 * differ, found by walking both documents side by side rather than flattening them (the push diffs
 * every pending asset, the views every changed one); a path string is made only for a difference.
 */
export function changedPaths(
  base: AssetDoc | null | undefined,
  current: AssetDoc | null | undefined,
): string[] {
  const paths: string[] = [];
  diffFields(base, current, '', isDocField, paths);
  for (const collection of collections) {
    const before = entriesByKey(base, collection);
    const after = entriesByKey(current, collection);
    for (const [key, entry] of before ?? []) {
      const other = after?.get(key);
      const path = `${collection}/${key}`;
      if (!other) paths.push(path);
      diffFields(entry, other, `${path}/`, isEntryField, paths);
    }
    for (const [key, entry] of after ?? []) {
      if (before?.has(key)) continue;
      const path = `${collection}/${key}`;
      paths.push(path);
      diffFields(undefined, entry, `${path}/`, isEntryField, paths);
    }
  }
  return paths.sort();
}

/**
 * Whether a field holds one of the document's cells (`flattenDoc`'s, when it has a value): not the
 * service's own, at the document's level (`doc`) or in an entry of a collection (`entry`).
 */
export function isCellField(level: 'doc' | 'entry', field: string): boolean {
  return level === 'doc' ? isDocField(field) : isEntryField(field);
}

const isDocField = (field: string) => !serviceOwned.has(field) && !collectionSet.has(field);
const isEntryField = (field: string) => !entryOwned.has(field);
const isAbsent = (value: unknown) => value === undefined || value === null;

/**
 * What `setPathValue` at `path` changes of `flattenDoc`'s cells: `cell`, that one path alone (a
 * document's field, or a field of an entry the document has); `none`, no cell (a field the service
 * owns); `more`, other cells too (it adds, re-keys or replaces an entry or a collection).
 */
export function pathReach(doc: AssetDoc, path: string): 'cell' | 'none' | 'more' {
  const [head, key, field, extra] = path.split('/');
  if (head === undefined || extra !== undefined) return 'more';
  if (key === undefined) return collectionSet.has(head) ? 'more' : serviceOwned.has(head) ? 'none' : 'cell';
  if (field === undefined || !collectionSet.has(head)) return 'more';
  const collection = head as Collection;
  const entries = doc[collection];
  if (!Array.isArray(entries)) return 'more';
  if (!(entries as Record<string, unknown>[]).some((entry) => entryKey(collection, entry) === key))
    return 'more';
  // An entry's own fields are no cells, and its key among them (`year`, `id`) moves the entry.
  return isEntryField(field) ? 'cell' : 'more';
}

/** Appends `prefix + field` for each field whose value (as `flattenDoc` holds it) differs. */
function diffFields(
  a: Record<string, unknown> | null | undefined,
  b: Record<string, unknown> | null | undefined,
  prefix: string,
  counts: (field: string) => boolean,
  out: string[],
): void {
  if (a) {
    for (const field of Object.keys(a)) {
      const value = a[field];
      if (isAbsent(value) || !counts(field)) continue;
      const other = b?.[field];
      if (isAbsent(other) || asScalar(value) !== asScalar(other)) out.push(prefix + field);
    }
  }
  if (b) {
    for (const field of Object.keys(b)) {
      if (isAbsent(b[field]) || !counts(field)) continue;
      if (isAbsent(a?.[field])) out.push(prefix + field);
    }
  }
}

/**
 * A collection's entries by key. Entries sharing a key merge as `flattenDoc` merges them: the last
 * value given for a field wins, a missing or null one does not erase an earlier one.
 */
function entriesByKey(
  doc: AssetDoc | null | undefined,
  collection: Collection,
): Map<string, Record<string, unknown>> | undefined {
  const entries = doc?.[collection];
  if (!Array.isArray(entries)) return undefined;
  const out = new Map<string, Record<string, unknown>>();
  for (const entry of entries as Record<string, unknown>[]) {
    const key = entryKey(collection, entry);
    const earlier = out.get(key);
    if (!earlier) {
      out.set(key, entry);
      continue;
    }
    const merged: Record<string, unknown> = { ...earlier };
    for (const [field, value] of Object.entries(entry)) if (!isAbsent(value)) merged[field] = value;
    out.set(key, merged);
  }
  return out;
}

/** What a create sends: the local document without service-owned and local-only keys. */
export function createPayload(doc: AssetDoc): AssetInput {
  const out: AssetInput = {};
  for (const [field, value] of Object.entries(doc)) {
    if (field === 'partners_id' || !serviceOwned.has(field)) out[field] = value;
  }
  for (const collection of collections) {
    const entries = doc[collection];
    if (Array.isArray(entries))
      out[collection] = entries.map((entry) => stripEntry(entry as Record<string, unknown>));
  }
  return out;
}

function stripEntry(entry: Record<string, unknown>): Record<string, unknown> {
  const { _key: _k, _validations: _v, name: _n, ...rest } = entry;
  return rest;
}

/**
 * The smallest PATCH-style update that turns `base` into `current`: changed asset fields (null to
 * clear), annual records carrying only their changed fields, new entries without id, changed
 * entries with their id, removed entries as `{ id, _destroy: "1" }`. Null when nothing changed.
 */
export function updatePayload(serviceAssetId: number, base: AssetDoc, current: AssetDoc): AssetInput | null {
  const paths = changedPaths(base, current);
  if (paths.length === 0) return null;
  const patch: AssetInput = { service_asset_id: serviceAssetId };
  const touched = new Map<string, Set<string>>();
  for (const path of paths) {
    const [head, key, field] = path.split('/');
    if (head === undefined) continue;
    if (key === undefined) {
      patch[head] = current[head] ?? null;
      continue;
    }
    const entryPath = `${head}/${key}`;
    const fields = touched.get(entryPath) ?? new Set<string>();
    if (field !== undefined) fields.add(field);
    touched.set(entryPath, fields);
  }
  for (const [entryPath, fields] of touched) {
    const [collection, key] = entryPath.split('/') as [Collection, string];
    const now = findEntry(current, collection, key);
    const before = findEntry(base, collection, key);
    const list = (patch[collection] as Record<string, unknown>[] | undefined) ?? [];
    if (!now && before) {
      if (collection !== 'annual_data') list.push({ id: before['id'], _destroy: '1' });
    } else if (now && !before) {
      list.push(stripEntry(now));
    } else if (now) {
      const entry: Record<string, unknown> =
        collection === 'annual_data' ? { year: now['year'] } : { id: now['id'] };
      for (const field of fields) entry[field] = now[field] ?? null;
      list.push(entry);
    }
    if (list.length > 0) patch[collection] = list;
  }
  return patch;
}

export function findEntry(
  doc: AssetDoc | null | undefined,
  collection: Collection,
  key: string,
): Record<string, unknown> | undefined {
  const entries = doc?.[collection];
  if (!Array.isArray(entries)) return undefined;
  return (entries as Record<string, unknown>[]).find((entry) => entryKey(collection, entry) === key);
}

export interface FieldConflict {
  path: string;
  base: Scalar;
  mine: Scalar;
  theirs: Scalar;
}

/**
 * Three-way merge of one asset: remote-only changes apply, local-only changes stay, and a path both
 * sides changed differently is a conflict (the local value stays until the user decides).
 */
export function mergeThreeWay(
  base: AssetDoc,
  mine: AssetDoc,
  theirs: AssetDoc,
): { merged: AssetDoc; conflicts: FieldConflict[] } {
  const b = flattenDoc(base);
  const m = flattenDoc(mine);
  const t = flattenDoc(theirs);
  const conflicts: FieldConflict[] = [];
  const takeTheirs: string[] = [];
  for (const path of new Set([...b.keys(), ...m.keys(), ...t.keys()])) {
    const bv = b.get(path) ?? null;
    const mv = m.get(path) ?? null;
    const tv = t.get(path) ?? null;
    if (mv === tv || tv === bv) continue;
    if (mv === bv) takeTheirs.push(path);
    else conflicts.push({ path, base: bv, mine: mv, theirs: tv });
  }
  const merged = structuredClone(mine);
  for (const path of takeTheirs.sort()) copyPathInto(merged, theirs, path);
  return { merged, conflicts };
}

/** Copies one path's value (or entry) from `source` into a copy of `target`. */
export function setPathFrom(target: AssetDoc, source: AssetDoc, path: string): AssetDoc {
  const out = structuredClone(target);
  copyPathInto(out, source, path);
  return out;
}

/** Copies one path's value (or entry) from `source` into `out`, in place. */
function copyPathInto(out: AssetDoc, source: AssetDoc, path: string): void {
  const [head, key, field] = path.split('/');
  if (head === undefined) return;
  if (key === undefined) {
    const value = source[head];
    if (value === undefined) delete out[head];
    else out[head] = structuredClone(value);
    return;
  }
  const collection = head as Collection;
  const list = Array.isArray(out[collection]) ? (out[collection] as Record<string, unknown>[]) : [];
  out[collection] = list;
  const from = findEntry(source, collection, key);
  const index = list.findIndex((entry) => entryKey(collection, entry) === key);
  if (field === undefined) {
    if (!from && index >= 0) list.splice(index, 1);
    else if (from && index < 0) list.push(structuredClone(from));
    return;
  }
  if (!from) return;
  if (index < 0)
    list.push({ ...(collection === 'annual_data' ? { year: from['year'] } : { id: from['id'] }) });
  const entry = list[index < 0 ? list.length - 1 : index];
  if (entry) {
    if (from[field] === undefined) delete entry[field];
    else entry[field] = structuredClone(from[field]);
  }
  return;
}

/** Sets one value at a path of a copy of the document (the edit operation of the grids). */
export function setPathValue(doc: AssetDoc, path: string, value: Scalar): AssetDoc {
  const [head, key, field] = path.split('/');
  const out = structuredClone(doc);
  if (head === undefined) return out;
  if (key === undefined) {
    out[head] = value;
    return out;
  }
  const collection = head as Collection;
  const list = Array.isArray(out[collection]) ? (out[collection] as Record<string, unknown>[]) : [];
  out[collection] = list;
  let entry = list.find((candidate) => entryKey(collection, candidate) === key);
  if (!entry) {
    if (collection !== 'annual_data') throw new AssetPathError(`No ${collection} entry ${key}`);
    entry = { year: Number(key) };
    list.push(entry);
    list.sort((x, y) => Number(x['year']) - Number(y['year']));
  }
  if (field !== undefined) entry[field] = value;
  return out;
}
