import { annualFieldsByTopic, assetFieldCatalog } from '../../shared/domain';
import type { AnnualFieldDef, Topic } from '../../shared/domain';

/**
 * The asset workbook analysts know: a tab per topic, one row per asset, two reporting years side
 * by side, and a hidden first row of API variable names. Importers read columns by those names
 * (never by label or position), so the names are the contract; labels may change freely.
 *
 * Column keys are API paths:
 * - asset field:            `name`, `size`
 * - annual field of a year: `annual_data[2024].en_abs_wf`
 * - nested record field:    `certifications[0].level`, `energy_ratings[1].size`
 */
export const sheetNames = [
  'Asset Characteristics',
  'Reporting Characteristics',
  'Energy',
  'GHG',
  'Water',
  'Waste',
  'Building Certifications',
  'Energy Ratings',
] as const;
export type SheetName = (typeof sheetNames)[number];

export type ColumnSource =
  | { kind: 'asset'; field: string }
  | { kind: 'annual'; field: string; year: number }
  | { kind: 'certifications' | 'energy_ratings'; field: string; index: number };

export interface WorkbookColumn {
  key: string;
  label: string;
  source: ColumnSource;
  /** Read-only context columns (the asset's name on topic tabs) are not imported back. */
  importable: boolean;
  width: number;
}

export interface WorkbookSheet {
  name: SheetName;
  columns: WorkbookColumn[];
}

export interface LayoutOptions {
  /** Reporting years shown side by side, oldest first (normally the two most recent). */
  years: readonly number[];
  /** Slots for nested records; at least 1 so an empty workbook still shows the columns. */
  certificationSlots?: number;
  energyRatingSlots?: number;
}

const annualTopicsBySheet: Partial<Record<SheetName, readonly Topic[]>> = {
  'Reporting Characteristics': ['reporting', 'efficiency'],
  Energy: ['energy'],
  GHG: ['ghg'],
  Water: ['water'],
  Waste: ['waste'],
};

const certificationFields: readonly [string, string][] = [
  ['id', 'Record ID'],
  ['certification_id', 'Certification'],
  ['level', 'Level'],
  ['size', 'Floor area'],
  ['year', 'Year'],
];
const energyRatingFields: readonly [string, string][] = [
  ['id', 'Record ID'],
  ['energy_rating_id', 'Energy rating'],
  ['level', 'Level'],
  ['size', 'Floor area'],
];

export function assetColumnKey(field: string): string {
  return field;
}
export function annualColumnKey(field: string, year: number): string {
  return `annual_data[${year}].${field}`;
}
export function nestedColumnKey(
  kind: 'certifications' | 'energy_ratings',
  index: number,
  field: string,
): string {
  return `${kind}[${index}].${field}`;
}

const annualKeyPattern = /^annual_data\[(\d{4})\]\.([a-z0-9_]+)$/;
const nestedKeyPattern = /^(certifications|energy_ratings)\[(\d+)\]\.([a-z0-9_]+)$/;
const assetKeyPattern = /^[a-z][a-z0-9_]*$/;

/** The inverse of the key functions, for importers; undefined for a header that is not ours. */
export function parseColumnKey(key: string): ColumnSource | undefined {
  const trimmed = key.trim();
  const annual = annualKeyPattern.exec(trimmed);
  if (annual) return { kind: 'annual', field: annual[2] ?? '', year: Number(annual[1]) };
  const nested = nestedKeyPattern.exec(trimmed);
  if (nested) {
    return {
      kind: nested[1] as 'certifications' | 'energy_ratings',
      field: nested[3] ?? '',
      index: Number(nested[2]),
    };
  }
  return assetKeyPattern.test(trimmed) ? { kind: 'asset', field: trimmed } : undefined;
}

const width = (label: string): number => Math.min(40, Math.max(12, label.length + 2));

function idColumns(withName: boolean): WorkbookColumn[] {
  const cols: WorkbookColumn[] = [
    {
      key: 'service_asset_id',
      label: 'Asset ID',
      source: { kind: 'asset', field: 'service_asset_id' },
      importable: true,
      width: 12,
    },
  ];
  if (withName)
    cols.push({
      key: 'name',
      label: 'Asset name',
      source: { kind: 'asset', field: 'name' },
      importable: false,
      width: 30,
    });
  return cols;
}

function annualColumns(defs: readonly AnnualFieldDef[], years: readonly number[]): WorkbookColumn[] {
  const cols: WorkbookColumn[] = [];
  for (const def of defs) {
    for (const year of years) {
      const label = `${def.label}${def.unit && def.unit !== 'area' ? ` (${def.unit})` : ''} ${year}`;
      cols.push({
        key: annualColumnKey(def.name, year),
        label,
        source: { kind: 'annual', field: def.name, year },
        importable: true,
        width: width(label),
      });
    }
  }
  return cols;
}

function nestedColumns(
  kind: 'certifications' | 'energy_ratings',
  fields: readonly [string, string][],
  slots: number,
): WorkbookColumn[] {
  const cols: WorkbookColumn[] = [];
  for (let i = 0; i < slots; i++) {
    for (const [field, label] of fields) {
      const full = `${label} ${i + 1}`;
      cols.push({
        key: nestedColumnKey(kind, i, field),
        label: full,
        source: { kind, field, index: i },
        importable: true,
        width: width(full),
      });
    }
  }
  return cols;
}

/** The workbook's tabs and columns for the given years and nested-record slots. */
export function workbookLayout(opts: LayoutOptions): WorkbookSheet[] {
  const years = [...opts.years].sort((a, b) => a - b);
  return sheetNames.map((name): WorkbookSheet => {
    if (name === 'Asset Characteristics') {
      const cols = idColumns(false);
      for (const def of assetFieldCatalog) {
        if (def.name === 'service_asset_id') continue;
        cols.push({
          key: assetColumnKey(def.name),
          label: def.label,
          source: { kind: 'asset', field: def.name },
          importable: true,
          width: width(def.label),
        });
      }
      return { name, columns: cols };
    }
    if (name === 'Building Certifications') {
      return {
        name,
        columns: [
          ...idColumns(true),
          ...nestedColumns('certifications', certificationFields, Math.max(1, opts.certificationSlots ?? 1)),
        ],
      };
    }
    if (name === 'Energy Ratings') {
      return {
        name,
        columns: [
          ...idColumns(true),
          ...nestedColumns('energy_ratings', energyRatingFields, Math.max(1, opts.energyRatingSlots ?? 1)),
        ],
      };
    }
    const topics = annualTopicsBySheet[name] ?? [];
    const defs = topics.flatMap((t) => annualFieldsByTopic(t));
    return { name, columns: [...idColumns(true), ...annualColumns(defs, years)] };
  });
}

/** The two most recent years with data (or `fallbackYear - 1` and `fallbackYear` when there is none). */
export function reportingYears(
  assets: Iterable<{ annual_data?: readonly { year: number }[] | null }>,
  fallbackYear: number,
): number[] {
  let latest = -Infinity;
  for (const a of assets) for (const r of a.annual_data ?? []) if (r.year > latest) latest = r.year;
  const y = Number.isFinite(latest) ? latest : fallbackYear;
  return [y - 1, y];
}
