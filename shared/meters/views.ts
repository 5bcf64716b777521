/**
 * What the meters' bridge methods answer (shared/bridge/contract.ts, `meters.*`): meters and readings
 * as the grids show them, the import's preview, and the derived annual figures with their state.
 */
import type { ImportColumn, ImportIssue, DateOrder } from './import-rows';
import type { ReadingIssue } from './rules';
import type { Meter, Reading } from './types';
import type { AssetView, HistoryState } from '../sync/types';

export type ReadingView = Reading & { id: string; assetId: string };

export interface MeterView extends Meter {
  readings: number;
}

/** A meter's rule problems and its readings', for the cells and the problems panel. */
export interface MetersListing {
  meters: MeterView[];
  readings: ReadingView[];
  /** Reading rules (shared/meters/rules.ts) by reading id; a meter's gaps under `meter:<id>`. */
  issues: Array<Omit<ReadingIssue, 'reading'> & { readingId: string | null }>;
}

/**
 * A derived annual cell against the asset's copy:
 * - `same`: the copy already holds it; `fill`: the cell is empty; `update`: the cell holds what
 *   meters last wrote (so a recompute moves it);
 * - `override`: the analyst typed over a value meters wrote: kept, never replaced by a recompute;
 * - `typed`: a value typed by hand before any meter figure: replaced only when the analyst applies
 *   the figures after seeing old -> new.
 */
export type FigureState = 'same' | 'fill' | 'update' | 'override' | 'typed';

export interface FigureCell {
  localId: string;
  year: number;
  field: string;
  current: string | number | boolean | null;
  derived: number | string;
  state: FigureState;
  /** "12 readings from 3 meters, 8 % estimated" */
  text: string;
  meters: string[];
  readings: number;
  /** The estimated share of the consumption behind it, 0..1 (null for areas and dates). */
  estimatedShare: number | null;
  /** Why the figure is not written: an error rule holds on a reading behind it (null: free). */
  heldBack: string | null;
}

/** What meters last wrote into a cell, for its mark and hover (the override when it differs). */
export interface DerivedMark {
  localId: string;
  year: number;
  field: string;
  value: number | string;
  text: string;
  meters: string[];
  readings: number;
  estimatedShare?: number | null;
  /** Set while a reading rule holds the figure back; `unwritten`: meters never wrote the cell. */
  heldBack?: { reason: string; unwritten: boolean } | null;
}

export interface FiguresPreview {
  cells: FigureCell[];
  /** Per asset and year, the topics' warnings (estimates above GRESB's cap). */
  warnings: Array<{ localId: string; year: number; message: string }>;
}

export interface ReadingsImportPreview {
  planId: string;
  file: string;
  /** A flat CSV, or ENERGY STAR Portfolio Manager's XML. */
  format: 'csv' | 'portfolio_manager';
  /** Portfolio Manager's meters don't name their asset: choose it, then preview again. */
  needsAsset: boolean;
  asset: string | null;
  /** The file's headers and which one each field was read from (the mapping the analyst corrects). */
  headers: string[];
  mapping: Record<ImportColumn, string | null>;
  /** Set when the day/month order can't be told from the file: ask, then preview again. */
  needsDateOrder: boolean;
  dateOrder: DateOrder | null;
  meters: Array<{
    key: string;
    name: string;
    asset: string;
    /** The workspace's asset it goes to; null: not found (offered to create or skip). */
    localId: string | null;
    isNew: boolean;
    readings: number;
  }>;
  /** Readings that will be added. */
  valid: number;
  /** Already in the workspace or twice in the file: flagged, not added. */
  duplicates: number;
  problems: ImportIssue[];
  /** Assets named by the file that the workspace doesn't have. */
  unknownAssets: string[];
  /** A few of the valid rows, for the preview table. */
  sample: Array<{
    row: number;
    meter: string;
    start: string;
    end: string;
    quantity: number;
    unit: string;
    estimated: boolean;
  }>;
}

export interface ReadingsImportResult {
  meters: number;
  readings: number;
  /** The derived cells the import wrote (fill/update), and those left for the analyst (typed, override). */
  figures: { written: number; held: FigureCell[] };
}

/** What a meters write answers: the assets whose cells it changed, and the derived cells held back. */
export interface MeterWriteResult {
  views: AssetView[];
  held: FiguresPreview['cells'];
  history: HistoryState;
}
