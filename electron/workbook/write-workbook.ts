import ExcelJS from 'exceljs';
import type { Asset } from '../../shared/domain';
import { workbookLayout, type ColumnSource, type LayoutOptions, type WorkbookSheet } from './layout';

export interface WriteWorkbookOptions {
  /** Defaults to the two most recent years in the assets (see `reportingYears`). */
  years: readonly number[];
  /** Title stored in the workbook properties. */
  title?: string;
}

type CellValue = string | number | boolean | null;

function cellValue(
  asset: Asset,
  source: ColumnSource,
  annualByYear: Map<number, Record<string, unknown>>,
): CellValue {
  let v: unknown;
  switch (source.kind) {
    case 'asset':
      v = (asset as unknown as Record<string, unknown>)[source.field];
      break;
    case 'annual':
      v = annualByYear.get(source.year)?.[source.field];
      break;
    case 'certifications':
    case 'energy_ratings': {
      const list = (asset[source.kind] ?? []) as unknown as Record<string, unknown>[];
      v = list[source.index]?.[source.field];
      break;
    }
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return null;
}

function slots(assets: readonly Asset[]): Pick<LayoutOptions, 'certificationSlots' | 'energyRatingSlots'> {
  let c = 1;
  let e = 1;
  for (const a of assets) {
    c = Math.max(c, a.certifications.length);
    e = Math.max(e, a.energy_ratings?.length ?? 0);
  }
  return { certificationSlots: c, energyRatingSlots: e };
}

function addSheet(
  wb: ExcelJS.stream.xlsx.WorkbookWriter,
  sheet: WorkbookSheet,
  assets: readonly Asset[],
  annualIndex: Map<Asset, Map<number, Record<string, unknown>>>,
): void {
  const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', xSplit: 1, ySplit: 2 }] });
  ws.columns = sheet.columns.map((c) => ({ key: c.key, width: c.width }));
  // Row 1: API variable names, hidden; importers key on these. Row 2: what analysts read.
  const names = ws.addRow(sheet.columns.map((c) => c.key));
  names.hidden = true;
  names.commit();
  const labels = ws.addRow(sheet.columns.map((c) => c.label));
  labels.font = { bold: true };
  labels.commit();
  for (const asset of assets) {
    const byYear = annualIndex.get(asset) ?? new Map<number, Record<string, unknown>>();
    ws.addRow(sheet.columns.map((c) => cellValue(asset, c.source, byYear))).commit();
  }
  ws.commit();
}

/**
 * Writes the asset workbook to `filename`, streaming rows to disk so a pool of thousands of assets
 * with eight tabs of ~100 columns does not have to fit in memory as cell objects.
 */
export async function writeAssetWorkbook(
  filename: string,
  assets: readonly Asset[],
  opts: WriteWorkbookOptions,
): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename, useStyles: true, useSharedStrings: false });
  wb.creator = 'Asset Desk';
  wb.title = opts.title ?? 'Assets';
  const annualIndex = new Map<Asset, Map<number, Record<string, unknown>>>();
  for (const a of assets) {
    annualIndex.set(a, new Map(a.annual_data.map((r) => [r.year, r as unknown as Record<string, unknown>])));
  }
  for (const sheet of workbookLayout({ years: opts.years, ...slots(assets) }))
    addSheet(wb, sheet, assets, annualIndex);
  await wb.commit();
}
