/**
 * An import as the workspace keeps it once it is applied (issue 31): the uploaded file is deleted
 * once read, so "Show the import" in a cell's history, and the Import dialog's "Recent imports",
 * open this record of what was applied from the file, when, and by which undo step
 * (bridge: `workspace.importRecord`, `workspace.recentImports`).
 */

/** The cells of an import's record read at a time: a page of the record's panel. */
export const importCellsWindow = 200;

/** What was read: an asset workbook (.xlsx), an asset CSV, or a readings file (CSV, XLSX, Portfolio Manager XML). */
export type ImportKind = 'workbook' | 'csv' | 'readings';

/** What an import did, as recorded when it was applied. */
export interface ImportFacts {
  kind: ImportKind;
  /** The workbook's tabs that were read (none for a CSV or a readings file). */
  sheets: string[];
  /** Assets (a readings file: meters) it created, and assets it changed. */
  created: number;
  updated: number;
  /** Cells it changed (a readings file: readings it added). */
  cells: number;
  /** What it left out, and what those are in words ("assets rejected"). */
  skipped: number;
  skippedWhat: string;
  /** The undo step it made, as the toolbar named it. */
  label: string;
}

export interface ImportSummary extends ImportFacts {
  importId: number;
  /** Epoch ms. */
  at: number;
  file: string;
  /** Its undo step: still undoable, undone, or let go (only the latest steps are kept). */
  step: 'done' | 'undone' | 'gone';
}

/** One cell the import changed, where it was in the file. */
export interface ImportCell {
  localId: string;
  asset: string;
  path: string;
  field: string;
  /** "Energy!F12", a CSV's "CSV!D7"; null where no single cell gave it. */
  place: string | null;
  value: unknown;
  previous: unknown;
}

export interface ImportDetail extends ImportSummary {
  /** Documents it brought, by kind ("asset", "meter", "reading"): counts. */
  added: Record<string, number>;
  /** How many cells it changed in all; `cells` below are a window of them from `offset`. */
  changes: number;
  offset: number;
  rows: ImportCell[];
  /** The index in `rows` of the cell asked about (the history entry's), or null. */
  highlighted: number | null;
}
