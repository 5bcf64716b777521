/**
 * The preview of an import: the parsed rows compared with the workspace, one entry per asset.
 *
 * Matching (the spreadsheet's contract, domain notes): rows are matched by Asset ID
 * (`gresb_asset_id`, or our spec's `service_asset_id` in an older file), then by Partner ID: our own
 * exports carry it, and it stays with the asset when a sync gives it its Asset ID, so a file exported
 * before a sync comes back onto the same assets. A blank-ID row takes this workspace's one unsent
 * asset of its name (a file imported twice); on Asset Characteristics, one whose name a synced asset
 * has is a problem of the preview, never a silent second asset (the service refuses two of one name)
 * nor a silent match: the analyst puts the ID in, renames the row, or asks for the preview again with
 * `matchByName` (offered as one click: `nameMatches` counts the rows it would place), which matches
 * such a row to the one asset of its name. Other blank-ID rows are new
 * assets; on the other tabs a blank-ID row joins its asset by name, since names are unique within an
 * entity. An ID this workspace does not hold belongs to another entity (or was
 * deleted on the service) and is rejected, as are IDs repeated on a tab. One bad cell rejects its
 * whole asset, so an asset is never half imported.
 */
import { randomUUID } from 'node:crypto';
import type { Scalar } from '../../shared/sync/asset-doc';
import type { RowStatus } from '../../shared/workbook/import-export-types';
import { idColumnKey } from '../../shared/workbook/layout';
import type { AssetRecord } from '../workspace/asset-record';
import { issue, planGroup, type Group, type PlanRow } from './plan-row';
import type { CellIssue, ParsedRow, ParsedSheet, ParsedWorkbook } from './sheet-parser';

export type { RowStatus };

export interface ImportPlan {
  id: string;
  createdAt: number;
  /** `name`: the file's name as the user chose it, where the path holds another (a browser upload). */
  source: { file: string; name?: string; format: 'xlsx' | 'csv'; sheets: string[] };
  /** File-level problems (unknown or duplicated columns, ignored tabs). */
  issues: CellIssue[];
  rows: PlanRow[];
  counts: Record<RowStatus, number>;
  /** Blank-ID rows named like one synced asset: problems now, updates of that asset by name. */
  nameMatches: number;
  /** Whether this plan matched such rows by name (`PlanOptions.matchByName`). */
  matchByName: boolean;
  /**
   * What was read, kept only while name matching is on offer (`nameMatches` > 0), so taking the offer
   * plans again without the file (an upload is deleted once read). Never sent to the renderer.
   */
  parsed?: ParsedWorkbook;
  /** Nothing rejected, no file-level error, and something to do. */
  canApply: boolean;
}

const lower = (v: Scalar | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null;

function columnIndex(sheet: ParsedSheet, key: string): number {
  return sheet.columns.findIndex((c) => c.key === key);
}

function hasAssetFields(sheet: ParsedSheet): boolean {
  return sheet.columns.some(
    (c) => c.source.kind === 'asset' && c.importable && c.key !== idColumnKey && c.key !== 'name',
  );
}

export interface PlanOptions {
  file?: string;
  now?: () => number;
  /** A blank-ID row named like one synced asset updates it (asked for by the analyst, never by default). */
  matchByName?: boolean;
}

/** Compares a parsed workbook with the workspace's assets; pure apart from reading `records`. */
export function planImport(
  parsed: ParsedWorkbook,
  records: readonly AssetRecord[],
  opts: PlanOptions = {},
): ImportPlan {
  const byServiceId = new Map<number, AssetRecord>();
  const byPartnersId = new Map<number, AssetRecord>();
  const byName = new Map<string, AssetRecord[]>();
  for (const r of records) {
    if (r.serviceAssetId !== null) byServiceId.set(r.serviceAssetId, r);
    if (!r.current) continue;
    // Synced or not: our own export carries the Partner ID, which stays with the asset after a sync.
    if (r.partnersId !== null) byPartnersId.set(r.partnersId, r);
    const name = lower(typeof r.current.name === 'string' ? r.current.name : null);
    if (name) byName.set(name, [...(byName.get(name) ?? []), r]);
  }
  /** The group of an existing asset: by its service ID when it has one, so rows with the ID join it. */
  const keyOf = (r: AssetRecord): string =>
    r.serviceAssetId !== null ? `id:${r.serviceAssetId}` : `local:${r.localId}`;

  const matchByName = opts.matchByName ?? false;
  let nameMatches = 0;
  const groups = new Map<string, Group>();
  const newByName = new Map<string, string>();
  const idGroups = new Map<number, Group>();
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
    const idAt = columnIndex(sheet, idColumnKey);
    const nameAt = columnIndex(sheet, 'name');
    const partnersAt = columnIndex(sheet, 'partners_id');
    const idColumn = sheet.columns[idAt];
    const creates = hasAssetFields(sheet);
    const seenHere = new Map<string, number>();
    // The ID cell's reference, made only for an issue (a string per row was 80,000 of them a book).
    const idLetter = idColumn?.letter ?? '';
    if (idAt < 0) continue; // reported by the parser as a file-level issue
    for (const row of sheet.rows) {
      const id = row.values[idAt];
      const name = nameAt >= 0 ? (row.values[nameAt] ?? null) : null;
      const nameText = typeof name === 'string' ? name : null;
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
        // Found by the number, with no key made for the asset's rows after its first.
        let found = idGroups.get(id);
        if (!found)
          idGroups.set(id, (found = group(`id:${id}`, { record, serviceAssetId: id, name: nameText })));
        g = found;
        if (!record && g.rows.length === 0) {
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              `${idLetter}${row.row}`,
              `Asset ID ${id} is not in this workspace: it belongs to another entity, or it was deleted on the service. Clear the ID to add the row as a new asset.`,
              idColumnKey,
            ),
          );
        } else if (record && record.current === null && g.rows.length === 0) {
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              `${idLetter}${row.row}`,
              `Asset ID ${id} is deleted in this workspace; restore it before importing into it`,
              idColumnKey,
            ),
          );
        }
      } else {
        if (!rowHasData(sheet, row, idAt, nameAt)) continue;
        const partnersId = partnersAt >= 0 ? row.values[partnersAt] : null;
        const nameKey = lower(nameText ?? undefined);
        const byPartners = typeof partnersId === 'number' ? byPartnersId.get(partnersId) : undefined;
        const named = nameKey ? (byName.get(nameKey) ?? []) : [];
        const joined = nameKey ? newByName.get(nameKey) : undefined;
        const existing = (r: AssetRecord): Group =>
          group(keyOf(r), { record: r, serviceAssetId: r.serviceAssetId, name: nameText });
        if (joined) g = groups.get(joined) as Group;
        else if (byPartners) g = existing(byPartners);
        else if (named.length === 1 && named[0]!.serviceAssetId === null) g = existing(named[0]!);
        else if (creates && named.length === 1 && matchByName) {
          nameMatches++;
          g = existing(named[0]!);
        } else if (creates && named.length > 0) {
          if (named.length === 1) nameMatches++;
          // A blank ID and a name the workspace already has: never a silent duplicate (the service
          // refuses a second asset of one name) nor a silent match; the analyst says which.
          g = group(`clash:${sheet.name}:${row.row}`, {
            record: undefined,
            serviceAssetId: null,
            name: nameText,
          });
          const ids = named.map((r) =>
            r.serviceAssetId !== null ? `Asset ID ${r.serviceAssetId}` : 'not synced yet',
          );
          g.errors.push(
            issue(
              sheet.name,
              row.row,
              `${idLetter}${row.row}`,
              `An asset named "${nameText ?? ''}" is already in the workspace (${ids.join(', ')}): importing this row would add a second one. ${named.length === 1 ? 'Match the rows to existing assets by name (above), put' : 'Put'} its Asset ID in the row to update it, or give the row another name to add a new asset.`,
              'name',
            ),
          );
        } else if (named.length === 1) g = existing(named[0]!);
        else if (creates) {
          g = group(nameKey ? `new:${nameKey}` : `new-row:${sheet.name}:${row.row}`, {
            record: undefined,
            serviceAssetId: null,
            name: nameText,
          });
          if (!nameKey) {
            g.errors.push(
              issue(
                sheet.name,
                row.row,
                `${idLetter}${row.row}`,
                'A new asset (blank Asset ID) needs a name',
                'name',
              ),
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
              `${idLetter}${row.row}`,
              named.length > 1
                ? `This row has no Asset ID and ${named.length} assets are named "${nameText}": put the Asset ID in the row`
                : nameKey
                  ? `This row has no Asset ID and no asset named "${nameText}" is new on Asset Characteristics or in the workspace`
                  : 'This row has neither an Asset ID nor an asset name, so it matches no asset',
              idColumnKey,
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
            `${idLetter}${row.row}`,
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
    nameMatches,
    matchByName,
    ...(nameMatches > 0 && !matchByName ? { parsed } : {}),
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
