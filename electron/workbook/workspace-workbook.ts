import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { areaUnitFromName } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { readAssetCsv, writeAssetCsv } from './csv';
import { planImport, type ImportPlan } from './import-plan';
import { allYears } from '../../shared/workbook/layout';
import { checkSize, DEFAULT_MAX_IMPORT_BYTES, readWorkbook, WorkbookError } from './read-workbook';
import { writeAssetWorkbook } from '../../shared/workbook/write-workbook';
import { readReference, referenceKey } from '../workspace/reference-lists';

/** The entry points the app's handlers call: export the workspace, preview a file against it. */

export type ExchangeFormat = 'xlsx' | 'csv';

export interface ExportWorkspaceOptions {
  format?: ExchangeFormat;
  /** Years side by side; default every year the workspace holds data for. */
  years?: readonly number[];
  /** Used when the workspace has no annual data at all (normally the assessment year). */
  fallbackYear?: number;
}

/** The workspace's assets as documents, with the ids the sheets match on. Deleted assets are left out. */
export function workspaceDocs(store: WorkspaceStore): AssetDoc[] {
  const docs: AssetDoc[] = [];
  for (const record of store.listAssets()) {
    if (!record.current) continue;
    docs.push({
      ...record.current,
      service_asset_id: record.serviceAssetId,
      partners_id: record.partnersId ?? record.current.partners_id ?? null,
    });
  }
  return docs;
}

function areaUnitLabel(store: WorkspaceStore): string | undefined {
  const name = store.entity()?.reporting_preferences.area_units_name;
  if (!name) return undefined;
  return areaUnitFromName(name) === 'sqft' ? 'sq ft' : 'm²';
}

export async function exportWorkspace(
  store: WorkspaceStore,
  file: string,
  opts: ExportWorkspaceOptions = {},
): Promise<{ file: string; assets: number; years: number[] }> {
  const docs = workspaceDocs(store);
  const years = [...(opts.years ?? allYears(docs, opts.fallbackYear ?? new Date().getUTCFullYear() - 1))];
  const unit = areaUnitLabel(store);
  const format = opts.format ?? (extname(file).toLowerCase() === '.csv' ? 'csv' : 'xlsx');
  const reference = readReference(store.reference(referenceKey));
  if (format === 'csv') await writeAssetCsv(file, docs, { years, ...(unit ? { areaUnitLabel: unit } : {}) });
  else {
    const entity = store.entity();
    await writeAssetWorkbook(file, docs, {
      years,
      title: entity ? `Assets of ${entity.name}` : 'Assets',
      ...(unit ? { areaUnitLabel: unit } : {}),
      lists: { property_type_code: reference.propertyTypes, country: reference.countries },
    });
  }
  return { file, assets: docs.length, years };
}

export interface PreviewOptions {
  /** Refusal size (default 40 MB; a setting of the app). */
  maxBytes?: number;
  maxRows?: number;
}

/** XLSX by its ZIP signature; CSV by its extension; anything else is refused. */
async function formatOf(file: string): Promise<ExchangeFormat> {
  const handle = await open(file, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.readUInt32LE(0) === 0x04034b50) return 'xlsx';
  const ext = extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.txt') return 'csv';
  throw new WorkbookError(
    'not_xlsx',
    'This file is neither an Excel workbook (.xlsx) nor a CSV file. Old .xls workbooks must be saved as .xlsx first.',
  );
}

/** Reads a workbook or CSV and compares it with the workspace: nothing is changed yet. */
export async function previewImportFile(
  store: WorkspaceStore,
  file: string,
  opts: PreviewOptions = {},
): Promise<ImportPlan> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
  await checkSize(file, maxBytes);
  const format = await formatOf(file);
  const readOpts = { maxBytes, ...(opts.maxRows ? { maxRows: opts.maxRows } : {}) };
  const parsed = format === 'csv' ? await readAssetCsv(file, readOpts) : await readWorkbook(file, readOpts);
  return planImport(parsed, store.listAssets(), { file });
}
