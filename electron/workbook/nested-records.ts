/**
 * An import row's certifications and energy ratings, slot by slot, against the asset's records:
 * whether they leave them as they are, and the records they make (`plan-row.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { AssetDoc, Scalar } from '../../shared/sync/asset-doc';
import type { CellIssue } from './sheet-parser';

export type Nested = 'certifications' | 'energy_ratings';
const nestedLabel: Record<Nested, string> = {
  certifications: 'certification',
  energy_ratings: 'energy rating',
};

export function issue(sheet: string, row: number, cell: string, reason: string, key?: string): CellIssue {
  return { sheet, row, cell, reason, severity: 'error', ...(key ? { key } : {}) };
}

/**
 * Whether `rebuildNested` would give the records `doc` holds, with no error: the same answer,
 * found with no record copied (issue 33: the copies, sets and sorted keys made for 20,000 rows of
 * certifications and ratings were a quarter of an unchanged book's preview). A slot that would
 * make a new record (no ID and no unsent record left) differs: the new one has a key of its own.
 */
export function nestedUnchanged(
  doc: AssetDoc,
  kind: Nested,
  slots: Map<number, Map<string, Scalar>>,
): boolean {
  const held = doc[kind];
  const existing = (Array.isArray(held) ? held : []) as Array<Record<string, unknown>>;
  const used: number[] = [];
  let out = 0;
  let unsent = 0;
  for (const index of [...slots.keys()].sort((a, b) => a - b)) {
    const fields = slots.get(index)!;
    let any = false;
    for (const value of fields.values()) if (value !== null) any = true;
    if (!any) continue;
    const id = fields.get('id');
    let base: Record<string, unknown> | undefined;
    if (typeof id === 'number') {
      // The last record of the ID, as a map of them would keep.
      for (const e of existing) if (e['id'] === id) base = e;
      if (!base || used.includes(id)) return false;
      used.push(id);
    } else {
      for (let n = 0, k = 0; k < existing.length; k++) {
        if (typeof existing[k]!['id'] === 'number') continue;
        if (n++ === unsent) {
          base = existing[k];
          break;
        }
      }
      unsent++;
      if (!base) return false;
    }
    const other = existing[out++];
    if (!other || !sameEntry(base, fields, other)) return false;
  }
  if (out === 0 && !Array.isArray(held)) return true;
  return existing.length === out;
}

/** Whether `base` with the slot's `fields` laid over it (null deletes; `id` kept) equals `other`. */
function sameEntry(
  base: Record<string, unknown>,
  fields: Map<string, Scalar>,
  other: Record<string, unknown>,
): boolean {
  const keys = Object.keys(base);
  let count = keys.length;
  for (const key of keys) {
    const value = key !== 'id' && fields.has(key) ? fields.get(key) : base[key];
    if (value === null && key !== 'id' && fields.has(key)) {
      count--;
      continue;
    }
    if (other[key] !== value) return false;
  }
  for (const [field, value] of fields) {
    if (field === 'id' || value === null || Object.hasOwn(base, field)) continue;
    count++;
    if (other[field] !== value) return false;
  }
  return count === Object.keys(other).length;
}

/**
 * The certifications (or energy ratings) of a row, slot by slot: a slot with a record ID updates that
 * record, one without takes the next unsent record (so our own export comes back unchanged) or is
 * new; records the row no longer lists are removed.
 */
export function rebuildNested(
  doc: AssetDoc,
  kind: Nested,
  slots: Map<number, Map<string, Scalar>>,
  where: { sheet: string; row: number },
  errors: CellIssue[],
): Array<Record<string, unknown>> | undefined {
  const existing = (Array.isArray(doc[kind]) ? doc[kind] : []) as Array<Record<string, unknown>>;
  const byId = new Map<number, Record<string, unknown>>();
  const unsent: Array<Record<string, unknown>> = [];
  for (const e of existing) {
    if (typeof e['id'] === 'number') byId.set(e['id'], e);
    else unsent.push(e);
  }
  const used = new Set<number>();
  const out: Array<Record<string, unknown>> = [];
  let next = 0;
  for (const index of [...slots.keys()].sort((a, b) => a - b)) {
    const fields = slots.get(index) ?? new Map<string, Scalar>();
    if ([...fields.values()].every((v) => v === null)) continue;
    const id = fields.get('id');
    let entry: Record<string, unknown>;
    if (typeof id === 'number') {
      const found = byId.get(id);
      if (!found || used.has(id)) {
        errors.push(
          issue(
            where.sheet,
            where.row,
            '',
            found
              ? `${nestedLabel[kind]} record ${id} is listed twice`
              : `${nestedLabel[kind]} record ${id} is not on this asset; clear the record ID to add it as a new one`,
            `${kind}[${index}].id`,
          ),
        );
        continue;
      }
      used.add(id);
      entry = { ...found };
    } else {
      const reuse = unsent[next++];
      entry = reuse ? { ...reuse } : { _key: randomUUID().slice(0, 8) };
    }
    for (const [field, value] of fields) {
      if (field === 'id') continue;
      if (value === null) delete entry[field];
      else entry[field] = value;
    }
    out.push(entry);
  }
  if (out.length === 0 && !Array.isArray(doc[kind])) return undefined;
  return out;
}
