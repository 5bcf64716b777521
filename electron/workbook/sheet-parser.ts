import type { CellIssue } from '../../shared/workbook/import-export-types';
import type { Scalar } from '../../shared/sync/asset-doc';
import { defaultCertificationSchemes, defaultEnergyRatingSchemes } from '../../shared/domain';
import {
  coerceCell,
  coerceScheme,
  columnSpec,
  schemeListOf,
  type ColumnSpec,
  type RawCell,
  type SchemeLists,
} from '../../shared/workbook/cells';
import {
  canonicalColumnKey,
  columnKeyFromLabel,
  idColumnKey,
  parseColumnKey,
  type ColumnSource,
} from '../../shared/workbook/layout';
import { columnName } from '../../shared/workbook/xlsx-parts';

/**
 * Turns the rows of one tab (from the XLSX reader or the CSV reader) into rows keyed by API variable
 * name with typed values. Columns are found by the hidden names row; a column without a name falls
 * back to its visible label. Positions never matter.
 */

export type { CellIssue, Severity } from '../../shared/workbook/import-export-types';

export interface ReadColumn {
  /** 1-based column index. */
  index: number;
  letter: string;
  key: string;
  source: ColumnSource;
  spec: ColumnSpec;
  matchedBy: 'name' | 'label';
  /** False for context columns (the asset name on topic tabs), read but never imported. */
  importable: boolean;
}

export interface ParsedRow {
  sheet: string;
  row: number;
  /**
   * Coerced values aligned with the sheet's `columns` (dense: a pool of 10,000 assets x 800 columns
   * stays an array of numbers, not a map per row); `null` for an empty cell, `undefined` for a cell
   * in `errors`.
   */
  values: Array<Scalar | undefined>;
  errors: CellIssue[];
}

export interface ParsedSheet {
  name: string;
  columns: ReadColumn[];
  rows: ParsedRow[];
}

export interface ParsedWorkbook {
  format: 'xlsx' | 'csv';
  sheets: ParsedSheet[];
  /** File-level problems: unknown or duplicated columns, a tab without an Asset ID column... */
  issues: CellIssue[];
}

/** A raw cell, or why it cannot be read at all (an error value, a formula without cached result). */
export type RawOrIssue = RawCell | { unreadable: string };

/**
 * A row's cells as the byte reader hands them over: only those that hold something, in the order
 * met (a row of 280 columns is mostly empty: its nulls were most of the cells passed on).
 */
export interface RowCells {
  /** How many of the entries are this row's (the arrays are the reader's own, filled again). */
  count: number;
  /** Each cell's column (1 is A). */
  columns: Int32Array;
  values: RawOrIssue[];
}

/** The cells as one array, `[0]` column A, nulls between: what the string reader hands over. */
export function denseCells(cells: RowCells): RawOrIssue[] {
  const out: RawOrIssue[] = [];
  for (let k = 0; k < cells.count; k++) {
    const column = cells.columns[k]!;
    while (out.length < column - 1) out.push(null);
    out[column - 1] = cells.values[k]!;
  }
  return out;
}

/** Columns one after another, each further right: as dense cells would list them. */
function inOrder(cells: RowCells): boolean {
  for (let k = 1; k < cells.count; k++) if (cells.columns[k]! <= cells.columns[k - 1]!) return false;
  return true;
}

export const nestedFieldNames: Record<'certifications' | 'energy_ratings', ReadonlySet<string>> = {
  certifications: new Set(['id', 'certification_id', 'level', 'size', 'year']),
  energy_ratings: new Set(['id', 'energy_rating_id', 'level', 'size']),
};

function showRaw(raw: RawOrIssue | undefined): string {
  if (raw === null || raw === undefined) return '';
  if (raw instanceof Date)
    return Number.isNaN(raw.getTime()) ? 'invalid date' : raw.toISOString().slice(0, 10);
  if (typeof raw === 'object') return raw.unreadable;
  const text = String(raw);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const isEmpty = (raw: RawOrIssue | undefined): boolean =>
  raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');

function knownSource(key: string): { source: ColumnSource; spec: ColumnSpec } | undefined {
  const source = parseColumnKey(key);
  if (!source) return undefined;
  if (
    (source.kind === 'certifications' || source.kind === 'energy_ratings') &&
    !nestedFieldNames[source.kind].has(source.field)
  )
    return undefined;
  const spec = columnSpec(source);
  return spec ? { source, spec } : undefined;
}

const headerText = (raw: RawOrIssue | undefined): string =>
  typeof raw === 'string' ? raw.trim() : typeof raw === 'number' ? String(raw) : '';

export interface SheetParserOptions {
  maxRows: number;
  date1904?: boolean;
  /** The schemes a certification's or rating's scheme cell may name (default: the shipped lists). */
  schemes?: SchemeLists;
}

/** The app's shipped lists: the schemes when the workspace's own are not given. */
export const shippedSchemes: SchemeLists = {
  certifications: defaultCertificationSchemes,
  energy_ratings: defaultEnergyRatingSchemes,
};

export class SheetParser {
  private readonly pending: Array<{ row: number; cells: RawOrIssue[] }> = [];
  private columns: ReadColumn[] | undefined;
  private byIndex: Array<ReadColumn | undefined> = [];
  private positionByIndex: number[] = [];
  /** Columns without a usable header: an issue only if a data row has something in them. */
  private unnamed = new Map<number, string>();
  private unnamedReported = new Set<number>();
  readonly rows: ParsedRow[] = [];
  readonly issues: CellIssue[] = [];
  private dataRows = 0;
  private headerWidth: number | undefined;
  private readonly coerceOpts: { date1904: boolean };
  private readonly schemes: SchemeLists;

  constructor(
    readonly name: string,
    private readonly opts: SheetParserOptions,
  ) {
    this.coerceOpts = { date1904: opts.date1904 ?? false };
    this.schemes = opts.schemes ?? shippedSchemes;
  }

  /** Feeds one spreadsheet row; `cells[0]` is column A. */
  push(row: number, cells: RawOrIssue[]): void {
    if (!this.columns) {
      this.pending.push({ row, cells: cells.slice() });
      if (this.pending.length === 2) this.resolveHeader();
      return;
    }
    this.dataRow(row, cells);
  }

  /** Feeds one row as the byte reader gives it (cells out of order go the dense way). */
  pushCells(row: number, cells: RowCells): void {
    if (!this.columns || !inOrder(cells)) return this.push(row, denseCells(cells));
    const columns = this.columns;
    if (columns.length === 0) return;
    let first = 0;
    while (first < cells.count && isEmpty(cells.values[first])) first++;
    if (first === cells.count) return;
    const parsed = this.newRow(row, columns.length);
    for (let k = first; k < cells.count; k++) {
      const raw = cells.values[k];
      if (!isEmpty(raw)) this.cell(parsed, cells.columns[k]! - 1, raw);
    }
    this.rows.push(parsed);
  }

  /** Finishes the sheet (a sheet of one row has a header and no data). */
  finish(): ParsedSheet {
    if (!this.columns) this.resolveHeader();
    return { name: this.name, columns: this.columns ?? [], rows: this.rows };
  }

  /** Columns the header spans, once read: cells further right are never looked at. */
  width(): number | undefined {
    return this.headerWidth;
  }

  /** True when the tab has at least one column the app knows (other tabs are ignored). */
  get recognised(): boolean {
    return (this.columns?.length ?? 0) > 0;
  }

  private resolveHeader(): void {
    const [first, second] = this.pending;
    const namesRow = first?.cells ?? [];
    const hasNames = namesRow.some((raw) => knownSource(headerText(raw)) !== undefined);
    // With the names row, labels follow; without it (deleted by hand, a CSV from elsewhere) the first
    // row is taken for labels.
    const labelRow = hasNames ? (second?.cells ?? []) : namesRow;
    const dataFrom = hasNames ? 2 : 1;
    const width = Math.max(namesRow.length, labelRow.length);
    this.headerWidth = width;
    const columns: ReadColumn[] = [];
    const seen = new Map<string, string>();
    for (let i = 0; i < width; i++) {
      const index = i + 1;
      const letter = columnName(index);
      const nameText = hasNames ? headerText(namesRow[i]) : '';
      const labelText = headerText(labelRow[i]);
      let key: string | undefined;
      let matchedBy: 'name' | 'label' = 'name';
      if (nameText !== '') {
        if (knownSource(nameText)) key = nameText;
        else {
          this.issue(
            0,
            letter,
            `Unknown column "${nameText}"${labelText ? ` ("${labelText}")` : ''}: not a variable of the asset spreadsheet`,
            nameText,
          );
          continue;
        }
      } else if (labelText !== '') {
        key = columnKeyFromLabel(labelText, this.name);
        matchedBy = 'label';
        if (!key || !knownSource(key)) {
          this.issue(
            0,
            letter,
            `Unknown column "${labelText}": it has no variable name and its label matches none`,
            labelText,
          );
          continue;
        }
      } else {
        this.unnamed.set(index, letter);
        continue;
      }
      // Our spec's name of the id (an older export) is the same column as the service's.
      key = canonicalColumnKey(key);
      const known = knownSource(key);
      if (!known) continue;
      const earlier = seen.get(key);
      if (earlier) {
        this.issue(0, letter, `Column ${key} appears twice (columns ${earlier} and ${letter})`, key);
        continue;
      }
      seen.set(key, letter);
      columns.push({ index, letter, key, ...known, matchedBy, importable: true });
    }
    // The asset name is read-only context on topic tabs; it is data only beside other asset fields.
    const hasAssetFields = columns.some(
      (c) => c.source.kind === 'asset' && c.key !== idColumnKey && c.key !== 'name',
    );
    for (const c of columns) if (c.key === 'name' && !hasAssetFields) c.importable = false;
    if (columns.length > 0 && !seen.has(idColumnKey)) {
      this.issue(
        0,
        '',
        `This tab has no Asset ID column (variable ${idColumnKey}), so its rows cannot be matched to assets`,
      );
    }
    this.columns = columns;
    columns.forEach((c, position) => {
      this.byIndex[c.index] = c;
      this.positionByIndex[c.index] = position;
    });
    const rest = this.pending.slice(dataFrom);
    this.pending.length = 0;
    for (const r of rest) this.dataRow(r.row, r.cells);
  }

  private dataRow(row: number, cells: RawOrIssue[]): void {
    const columns = this.columns ?? [];
    if (columns.length === 0) return;
    let first = 0;
    while (first < cells.length && isEmpty(cells[first])) first++;
    if (first === cells.length) return;
    const parsed = this.newRow(row, columns.length);
    for (let i = first; i < cells.length; i++) {
      const raw = cells[i];
      if (!isEmpty(raw)) this.cell(parsed, i, raw);
    }
    this.rows.push(parsed);
  }

  /** A data row counted against the limit, every known column's value null until a cell says. */
  private newRow(row: number, width: number): ParsedRow {
    if (++this.dataRows > this.opts.maxRows) {
      throw new RangeError(`The tab "${this.name}" has more than ${this.opts.maxRows} rows`);
    }
    // Known columns whose cells are empty still count: an emptied cell clears the value.
    const values = new Array<Scalar | undefined>(width).fill(null);
    return { sheet: this.name, row, values, errors: [] };
  }

  /** One cell that holds something (`i`: its column, 0 for A) into its row. */
  private cell(parsed: ParsedRow, i: number, raw: RawOrIssue | undefined): void {
    const { row, values } = parsed;
    const column = this.byIndex[i + 1];
    if (!column) {
      const letter = this.unnamed.get(i + 1);
      if (letter && !this.unnamedReported.has(i + 1)) {
        this.unnamedReported.add(i + 1);
        this.issue(
          row,
          `${letter}${row}`,
          `Column ${letter} holds values but has neither a variable name nor a label`,
          showRaw(raw),
        );
      }
      return;
    }
    const position = this.positionByIndex[i + 1] ?? 0;
    // The cell's reference is made only for an issue (a string per cell was 3 M of them a book).
    if (raw !== null && raw !== undefined && typeof raw === 'object' && !(raw instanceof Date)) {
      values[position] = undefined;
      parsed.errors.push(
        this.cellIssue(row, `${column.letter}${row}`, column.key, raw.unreadable, raw.unreadable),
      );
      return;
    }
    // Most cells are plain numbers in number columns: what coerceCell would answer, without its
    // answer object (millions of them in a large book).
    if (typeof raw === 'number' && column.spec.type === 'number' && Number.isFinite(raw)) {
      values[position] = raw;
      return;
    }
    const schemeList = schemeListOf(column.source);
    const result = schemeList
      ? coerceScheme(raw ?? null, schemeList, this.schemes)
      : coerceCell(raw ?? null, column.spec, this.coerceOpts);
    if (result.ok) values[position] = result.value;
    else {
      values[position] = undefined;
      parsed.errors.push(
        this.cellIssue(row, `${column.letter}${row}`, column.key, showRaw(raw), result.reason),
      );
    }
  }

  private cellIssue(row: number, cell: string, key: string, value: string, reason: string): CellIssue {
    return { sheet: this.name, row, cell, key, value, reason, severity: 'error' };
  }

  private issue(row: number, cell: string, reason: string, value?: string): void {
    this.issues.push({ sheet: this.name, row, cell, reason, severity: 'error', ...(value ? { value } : {}) });
  }
}
