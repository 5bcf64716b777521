/** Spreadsheet exchange shapes the renderer shows: the import preview and the export results. */
import type { Scalar } from '../sync/asset-doc';

export type Severity = 'error' | 'warning';

export interface CellIssue {
  sheet: string;
  /** 1-based row number as the spreadsheet shows it; 0 for the whole sheet. */
  row: number;
  /** A1 reference (or the column letter for a column-wide issue); empty for the whole sheet. */
  cell: string;
  key?: string;
  /** The cell's content as text, for the preview. */
  value?: string;
  reason: string;
  severity: Severity;
}

export type RowStatus = 'new' | 'changed' | 'unchanged' | 'rejected';

export interface PreviewRow {
  status: RowStatus;
  localId: string | null;
  serviceAssetId: number | null;
  name: string | null;
  changes: Array<{ path: string; before: Scalar; after: Scalar; cell?: string | undefined }>;
  errors: CellIssue[];
}

/** What an import would do; nothing is changed until it is applied. */
export interface ImportPreview {
  planId: string;
  fileName: string;
  format: 'xlsx' | 'csv';
  counts: Record<RowStatus, number>;
  /** Rows with a blank ID named like one synced asset: offered to be matched to it by name. */
  nameMatches: number;
  /** Whether this preview matched them by name (`workbook.previewImport` with `matchByName`). */
  matchByName: boolean;
  canApply: boolean;
  issues: CellIssue[];
  rows: PreviewRow[];
}

export interface ImportResult {
  importId: string;
  created: number;
  updated: number;
  skipped: number;
}

export type ServiceExportView =
  | { kind: 'downloaded'; fileName: string; bytes: number; preview: ImportPreview }
  | { kind: 'awaiting-link'; callbackUrl: string; message: string };

export interface ServiceExportProgressView {
  phase: 'listening' | 'requested' | 'waiting' | 'downloading' | 'done';
  elapsedMs: number;
  received?: number | undefined;
  total?: number | null | undefined;
}
