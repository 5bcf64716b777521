import { createHash, randomUUID } from 'node:crypto';
import { flattenDoc, type AssetDoc, type Scalar } from '../../shared/sync/asset-doc';
import type { AssetRecord } from '../workspace/workspace-store';
import type { CellIssue, ParsedRow, ParsedSheet, ParsedWorkbook, ReadColumn } from './sheet-parser';

/**
 * The preview of an import: the parsed rows compared with the workspace, one entry per asset.
 *
 * Matching (the spreadsheet's contract, domain notes): rows are matched by Asset ID
 * (`service_asset_id`). A blank ID means an asset the service has not seen: on Asset Characteristics
 * it is matched to this workspace's unsent asset with the same Partner ID (our own exports carry it)
 * or else it is a new asset; on the other tabs a blank-ID row joins its asset by name, since names are
 * unique within an entity. An ID this workspace does not hold belongs to another entity (or was
 * deleted on the service) and is rejected, as are IDs repeated on a tab. One bad cell rejects its
 * whole asset, so an asset is never half imported.
 */
import type { RowStatus } from '../../shared/workbook/import-export-types';

export type { RowStatus };

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

export interface ImportPlan {
  id: string;
  createdAt: number;
  source: { file: string; format: 'xlsx' | 'csv'; sheets: string[] };
  /** File-level problems (unknown or duplicated columns, ignored tabs). */
  issues: CellIssue[];
  rows: PlanRow[];
  counts: Record<RowStatus, number>;
  /** Nothing rejected, no file-level error, and something to do. */
  canApply: boolean;
}

export function docHash(doc: AssetDoc | null): string {
  return createHash('sha256')
    .update(doc === null ? 'null' : JSON.stringify(doc))
    .digest('base64url');
}

interface Group {
  key: string;
  record: AssetRecord | undefined;
  serviceAssetId: number | null;
  name: string | null;
  rows: Array<{ sheet: ParsedSheet; row: ParsedRow }>;
  errors: CellIssue[];
}

type Nested = 'certifications' | 'energy_ratings';
const nestedLabel: Record<Nested, string> = {
  certifications: 'certification',
  energy_ratings: 'energy rating',
};

const lower = (v: Scalar | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null;

function columnIndex(sheet: ParsedSheet, key: string): number {
  return sheet.columns.findIndex((c) => c.key === key);
}

function hasAssetFields(sheet: ParsedSheet): boolean {
  return sheet.columns.some(
    (c) => c.source.kind === 'asset' && c.importable && c.key !== 'service_asset_id' && c.key !== 'name',
  );
}

function issue(sheet: string, row: number, cell: string, reason: string, key?: string): CellIssue {
  return { sheet, row, cell, reason, severity: 'error', ...(key ? { key } : {}) };
}

export interface PlanOptions {
  file?: string;
  now?: () => number;
}

/** Compares a parsed workbook with the workspace's assets; pure apart from reading `records`. */
export function planImport(
  parsed: ParsedWorkbook,
  records: readonly AssetRecord[],
  opts: PlanOptions = {},
): ImportPlan {
  const byServiceId = new Map<number, AssetRecord>();
  const unsentByPartnersId = new Map<number, AssetRecord>();
  const unsentByName = new Map<string, AssetRecord>();
  for (const r of records) {
    if (r.serviceAssetId !== null) byServiceId.set(r.serviceAssetId, r);
    else if (r.current) {
      if (r.partnersId !== null) unsentByPartnersId.set(r.partnersId, r);
      const name = lower(typeof r.current.name === 'string' ? r.current.name : null);
      if (name) unsentByName.set(name, r);
    }
  }

  const groups = new Map<string, Group>();
  const newByName = new Map<string, string>();
  const group = (key: string, init: Omit<Group, 'key' | 'rows' | 'errors'>): Group => {
    let g = groups.get(key);
    if (!g) {
      g = { key, ...init, rows: [], errors: [] };
      groups.set(key, g);
    }
    return g;
  };

  // Tabs with asset fields first: new assets are born there, and the other tabs join them by name.
  const sheets = [...parsed.sheets].sort((a, b) => Number(hasAssetFields(b)) - Number(hasAssetFields(a)));
  for (const sheet of sheets) {
    const idAt = columnIndex(sheet, 'service_asset_id');
    const nameAt = columnIndex(sheet, 'name');
    const partnersAt = columnIndex(sheet, 'partners_id');
    const idColumn = sheet.columns[idAt];
    const creates = hasAssetFields(sheet);
    const seenHere = new Map<string, number>();
    if (idAt < 0) continue; // reported by the parser as a file-level issue
    for (const row of sheet.rows) {
      const id = row.values[idAt];
      const name = nameAt >= 0 ? (row.values[nameAt] ?? null) : null;
      const nameText = typeof name === 'string' ? name : null;
      const idRef = `${idColumn?.letter ?? ''}${row.row}`;
      let g: Group;
      if (id === undefined) {
        // The ID cell itself is unreadable: the row cannot be placed; its error says why.
        g = group(`row:${sheet.name}:${row.row}`, {
          record: undefined,
          serviceAssetId: null,
          name: nameText,
        });
      } else if (typeof id === 'number') {
        const record = byServiceId.get(id);
        g = group(`id:${id}`, { record, serviceAssetId: id, name: nameText });
        if (!record && g.rows.length === 0) {
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              idRef,
              `Asset ID ${id} is not in this workspace: it belongs to another entity, or it was deleted on the service. Clear the ID to add the row as a new asset.`,
              'service_asset_id',
            ),
          );
        } else if (record && record.current === null && g.rows.length === 0) {
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              idRef,
              `Asset ID ${id} is deleted in this workspace; restore it before importing into it`,
              'service_asset_id',
            ),
          );
        }
      } else {
        if (!rowHasData(sheet, row, idAt, nameAt)) continue;
        const partnersId = partnersAt >= 0 ? row.values[partnersAt] : null;
        const nameKey = lower(nameText ?? undefined);
        const unsent =
          (typeof partnersId === 'number' ? unsentByPartnersId.get(partnersId) : undefined) ??
          (nameKey ? unsentByName.get(nameKey) : undefined);
        const joined = nameKey ? newByName.get(nameKey) : undefined;
        if (joined) g = groups.get(joined) as Group;
        else if (unsent)
          g = group(`local:${unsent.localId}`, { record: unsent, serviceAssetId: null, name: nameText });
        else if (creates) {
          g = group(nameKey ? `new:${nameKey}` : `new-row:${sheet.name}:${row.row}`, {
            record: undefined,
            serviceAssetId: null,
            name: nameText,
          });
          if (!nameKey) {
            g.errors.push(
              issue(sheet.name, row.row, idRef, 'A new asset (blank Asset ID) needs a name', 'name'),
            );
          }
        } else {
          g = group(`orphan:${sheet.name}:${row.row}`, {
            record: undefined,
            serviceAssetId: null,
            name: nameText,
          });
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              idRef,
              nameKey
                ? `This row has no Asset ID and no asset named "${nameText}" is new on Asset Characteristics or in the workspace`
                : 'This row has neither an Asset ID nor an asset name, so it matches no asset',
              'service_asset_id',
            ),
          );
        }
        if (nameKey && !newByName.has(nameKey)) newByName.set(nameKey, g.key);
      }
      const earlier = seenHere.get(g.key);
      if (earlier !== undefined) {
        const what =
          g.serviceAssetId !== null ? `Asset ID ${g.serviceAssetId}` : `The new asset "${g.name ?? ''}"`;
        g.errors.push(
          issue(
            sheet.name,
            row.row,
            idRef,
            `${what} appears twice on ${sheet.name} (rows ${earlier} and ${row.row})`,
          ),
        );
      } else seenHere.set(g.key, row.row);
      g.rows.push({ sheet, row });
    }
  }

  const rows: PlanRow[] = [];
  for (const g of groups.values()) rows.push(planGroup(g));
  const counts: Record<RowStatus, number> = { new: 0, changed: 0, unchanged: 0, rejected: 0 };
  for (const r of rows) counts[r.status]++;
  const fileErrors = parsed.issues.some((i) => i.severity === 'error');
  return {
    id: randomUUID(),
    createdAt: (opts.now ?? Date.now)(),
    source: { file: opts.file ?? '', format: parsed.format, sheets: parsed.sheets.map((s) => s.name) },
    issues: parsed.issues,
    rows,
    counts,
    canApply: !fileErrors && counts.rejected === 0 && counts.new + counts.changed > 0,
  };
}

function rowHasData(sheet: ParsedSheet, row: ParsedRow, idAt: number, nameAt: number): boolean {
  if (row.errors.length > 0) return true;
  for (let i = 0; i < row.values.length; i++) {
    if (i === idAt) continue;
    const column = sheet.columns[i];
    if (i === nameAt && column && !column.importable) continue;
    if (row.values[i] !== null) return true;
  }
  return false;
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

function planGroup(g: Group): PlanRow {
  const locations = g.rows.map((r) => ({ sheet: r.sheet.name, row: r.row.row }));
  const errors = [...g.errors, ...g.rows.flatMap((r) => r.row.errors)];
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

/**
 * The certifications (or energy ratings) of a row, slot by slot: a slot with a record ID updates that
 * record, one without takes the next unsent record (so our own export comes back unchanged) or is
 * new; records the row no longer lists are removed.
 */
function rebuildNested(
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
