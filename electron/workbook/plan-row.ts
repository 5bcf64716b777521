/**
 * One asset of an import's preview: the spreadsheet rows matched to it laid over the workspace's copy,
 * what changed cell by cell, and why it is rejected when it is.
 */
import { createHash } from 'node:crypto';
import { flattenDoc, type AssetDoc, type Scalar } from '../../shared/sync/asset-doc';
import type { RowStatus } from '../../shared/workbook/import-export-types';
import { AnnualSlots } from '../../shared/workbook/annual-slots';
import type { AssetRecord } from '../workspace/asset-record';
export { issue } from './nested-records';
import { nestedUnchanged, rebuildNested, type Nested } from './nested-records';
import type { CellIssue, ParsedRow, ParsedSheet, ReadColumn } from './sheet-parser';

export interface FieldChange {
  /** Asset-doc path (`name`, `annual_data/2024/en_abs_wf`, `certifications/id:7/level`). */
  path: string;
  before: Scalar;
  after: Scalar;
  /** Where the new value came from (`Energy!D7`), when a single cell did. */
  cell?: string;
}

export interface PlanRow {
  status: RowStatus;
  localId: string | null;
  serviceAssetId: number | null;
  name: string | null;
  /** The spreadsheet rows this asset was read from. */
  locations: Array<{ sheet: string; row: number }>;
  changes: FieldChange[];
  /** Why the asset is rejected, cell by cell. */
  errors: CellIssue[];
  /** The asset document after the import (new and changed assets only). */
  doc?: AssetDoc;
  /** Fingerprint of the workspace copy compared against; applying refuses if it has moved since. */
  beforeHash?: string;
}

export function docHash(doc: AssetDoc | null): string {
  return createHash('sha256')
    .update(doc === null ? 'null' : JSON.stringify(doc))
    .digest('base64url');
}

/** The spreadsheet rows matched to one asset (by ID, partners ID or name), and what is wrong with them. */
export interface Group {
  key: string;
  record: AssetRecord | undefined;
  serviceAssetId: number | null;
  name: string | null;
  rows: Array<{ sheet: ParsedSheet; row: ParsedRow }>;
  errors: CellIssue[];
}

function setAnnual(doc: AssetDoc, year: number, field: string, value: Scalar): void {
  const list = Array.isArray(doc.annual_data) ? doc.annual_data : [];
  let entry = list.find((e) => e.year === year);
  if (!entry) {
    if (value === null) return;
    entry = { year };
    list.push(entry);
    list.sort((a, b) => Number(a.year) - Number(b.year));
  }
  doc.annual_data = list;
  if (value === null) delete entry[field];
  else entry[field] = value;
}

const absent = (v: unknown): boolean => v === null || v === undefined;

/**
 * True when laying the rows over `before` would change nothing. Most assets of a re-imported book
 * are unchanged: this look, without a copy of the document or the path-by-path diff, settles them.
 */
function leavesUnchanged(g: Group, before: AssetDoc): boolean {
  const plans = g.rows.map(({ sheet }) => planOf(sheet));
  annual.fillRecords(before.annual_data);
  try {
    return sameCells(g, before, plans);
  } finally {
    annual.clear();
  }
}

/**
 * The annual slots the import's columns read (issue 33): reading each column's field from each
 * asset's records was 9.4 million keyed reads for 10,000 assets x 6 years, a third of the preview.
 * Shared by every plan (the check runs to its end before the next), renewed should it grow large.
 */
let annual = new AnnualSlots();

/** How the unchanged check reads a tab's column: not at all, the asset's field, a slot, a record's. */
const SKIP = 0;
const ASSET = 1;
const SLOT = 2;
const NESTED = 3;

/**
 * Per column of a tab, made once per tab (issue 33: the check read each column's source, its kind
 * and field, for every cell of every row; 9.4 million columns for 10,000 assets x 6 years).
 */
interface SheetPlan {
  how: Uint8Array;
  /** The annual slot, for SLOT columns. */
  slot: Int32Array;
  field: string[];
}
const sheetPlans = new WeakMap<ParsedSheet, SheetPlan>();

function planOf(sheet: ParsedSheet): SheetPlan {
  let plan = sheetPlans.get(sheet);
  if (!plan) {
    if (annual.size > 100_000) annual = new AnnualSlots();
    const { columns } = sheet;
    plan = {
      how: Uint8Array.from(columns, ({ importable, source }) =>
        !importable
          ? SKIP
          : source.kind === 'asset'
            ? source.field === 'service_asset_id' || source.field === 'partners_id'
              ? SKIP
              : ASSET
            : source.kind === 'annual'
              ? SLOT
              : NESTED,
      ),
      slot: Int32Array.from(columns, ({ source }) =>
        source.kind === 'annual' ? annual.slot(source.year, source.field) : -1,
      ),
      field: columns.map(({ source }) => source.field),
    };
    sheetPlans.set(sheet, plan);
  }
  return plan;
}

function sameCells(g: Group, before: AssetDoc, plans: readonly SheetPlan[]): boolean {
  const values = annual.values;
  const slots: Record<Nested, Map<number, Map<string, Scalar>> | undefined> = {
    certifications: undefined,
    energy_ratings: undefined,
  };
  for (let r = 0; r < g.rows.length; r++) {
    const { sheet, row } = g.rows[r]!;
    const { how, slot: slotOf, field } = plans[r]!;
    const cells = row.values;
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      if (value === undefined) continue;
      switch (how[i]) {
        case SLOT: {
          const held = values[slotOf[i]!];
          if (value === null ? !absent(held) : held !== value) return false;
          break;
        }
        case ASSET: {
          const held = before[field[i]!];
          if (value === null ? !absent(held) : held !== value) return false;
          break;
        }
        case NESTED: {
          const source = sheet.columns[i]!.source as Extract<ReadColumn['source'], { index: number }>;
          const kind = (slots[source.kind] ??= new Map());
          const slot = kind.get(source.index) ?? new Map<string, Scalar>();
          slot.set(source.field, value);
          kind.set(source.index, slot);
          break;
        }
        default:
      }
    }
  }
  for (const kind of ['certifications', 'energy_ratings'] as const) {
    const kindSlots = slots[kind];
    if (kindSlots && !nestedUnchanged(before, kind, kindSlots)) return false;
  }
  return true;
}

/** Lays one asset's rows over its workspace copy: new, changed, unchanged, or rejected with the reasons. */
export function planGroup(g: Group): PlanRow {
  const locations = g.rows.map((r) => ({ sheet: r.sheet.name, row: r.row.row }));
  const errors = g.errors.slice();
  for (const r of g.rows) if (r.row.errors.length > 0) errors.push(...r.row.errors);
  const base: PlanRow = {
    status: 'rejected',
    localId: g.record?.localId ?? null,
    serviceAssetId: g.serviceAssetId,
    name: g.name,
    locations,
    changes: [],
    errors,
  };
  if (errors.length > 0) return base;

  const before = g.record?.current ?? null;
  if (before && leavesUnchanged(g, before)) {
    base.status = 'unchanged';
    if (typeof before.name === 'string') base.name = before.name;
    return base;
  }
  const doc: AssetDoc = before ? structuredClone(before) : {};
  type Where = { sheet: string; row: number };
  const nested: Record<Nested, { present: boolean; slots: Map<number, Map<string, Scalar>>; where: Where }> =
    {
      certifications: { present: false, slots: new Map(), where: { sheet: '', row: 0 } },
      energy_ratings: { present: false, slots: new Map(), where: { sheet: '', row: 0 } },
    };
  for (const { sheet, row } of g.rows) {
    sheet.columns.forEach((column: ReadColumn, i) => {
      const value = row.values[i];
      if (value === undefined || !column.importable) return;
      const source = column.source;
      switch (source.kind) {
        case 'asset':
          if (source.field === 'service_asset_id') return;
          // partners_id maps the asset in the app's own records; only a new asset takes it.
          if (source.field === 'partners_id') {
            if (!before && typeof value === 'number') doc.partners_id = value;
            return;
          }
          if (value === null) delete doc[source.field];
          else doc[source.field] = value;
          return;
        case 'annual':
          setAnnual(doc, source.year, source.field, value);
          return;
        case 'certifications':
        case 'energy_ratings': {
          const n = nested[source.kind];
          n.present = true;
          n.where = { sheet: sheet.name, row: row.row };
          const slot = n.slots.get(source.index) ?? new Map<string, Scalar>();
          slot.set(source.field, value);
          n.slots.set(source.index, slot);
          return;
        }
      }
    });
  }
  for (const kind of ['certifications', 'energy_ratings'] as const) {
    const n = nested[kind];
    if (!n.present) continue;
    const result = rebuildNested(doc, kind, n.slots, n.where, errors);
    if (result) doc[kind] = result;
  }
  if (errors.length > 0) return { ...base, errors };

  const flatBefore = flattenDoc(before);
  const flatAfter = flattenDoc(doc);
  const changes: FieldChange[] = [];
  for (const path of new Set([...flatBefore.keys(), ...flatAfter.keys()])) {
    const b = flatBefore.get(path) ?? null;
    const a = flatAfter.get(path) ?? null;
    if (a === b) continue;
    const cell = cellOfPath(g, path);
    changes.push({ path, before: b, after: a, ...(cell ? { cell } : {}) });
  }
  changes.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  const name = typeof doc.name === 'string' ? doc.name : g.name;
  if (!before) return { ...base, status: 'new', name, changes, doc };
  if (changes.length === 0) return { ...base, status: 'unchanged', name };
  return { ...base, status: 'changed', name, changes, doc, beforeHash: docHash(before) };
}

/** The cell a changed asset or annual value came from (`Energy!D7`); nested records have none. */
function cellOfPath(g: Group, path: string): string | undefined {
  const parts = path.split('/');
  let key: string | undefined;
  if (parts.length === 1) key = parts[0];
  else if (parts[0] === 'annual_data' && parts.length === 3) key = `annual_data[${parts[1]}].${parts[2]}`;
  if (!key) return undefined;
  for (const { sheet, row } of g.rows) {
    const column = sheet.columns.find((c) => c.key === key);
    if (column?.importable) return `${sheet.name}!${column.letter}${row.row}`;
  }
  return undefined;
}
