import type { SchemeLists } from '../../shared/workbook/cells';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { AssetRecord } from '../workspace/asset-record';
import { readAssetCsv } from './csv';
import { planImport, type ImportPlan } from './import-plan';
import { checkSize, readWorkbook } from './read-workbook';
import type { ParsedWorkbook } from './sheet-parser';
import { DEFAULT_MAX_IMPORT_BYTES, WorkbookError } from './workbook-limits';

export type ExchangeFormat = 'xlsx' | 'csv';

export interface PreviewOptions {
  /** Refusal size (default 40 MB; a setting of the app). */
  maxBytes?: number;
  maxRows?: number;
  /** The workspace's schemes, which certification and rating cells name (default: the shipped lists). */
  schemes?: SchemeLists;
  /** Blank-ID rows named like one synced asset update it (the preview's offer, taken). */
  matchByName?: boolean;
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

/** Reads a workbook or CSV and compares it with the workspace's records (run in the worker). */
export async function previewFile(
  file: string,
  records: readonly AssetRecord[],
  opts: PreviewOptions = {},
): Promise<ImportPlan> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
  await checkSize(file, maxBytes);
  const format = await formatOf(file);
  const readOpts = {
    maxBytes,
    ...(opts.maxRows ? { maxRows: opts.maxRows } : {}),
    ...(opts.schemes ? { schemes: opts.schemes } : {}),
  };
  const parsed = format === 'csv' ? await readAssetCsv(file, readOpts) : await readWorkbook(file, readOpts);
  return planImport(parsed, records, { file, matchByName: opts.matchByName ?? false });
}

/** An earlier preview's workbook planned again, matching blank-ID rows by name or not. */
export function replan(
  parsed: ParsedWorkbook,
  source: ImportPlan['source'],
  records: readonly AssetRecord[],
  matchByName: boolean,
): ImportPlan {
  const plan = planImport(parsed, records, { file: source.file, matchByName });
  if (source.name !== undefined) plan.source.name = source.name;
  return plan;
}
