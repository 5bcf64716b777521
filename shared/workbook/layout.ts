import { annualFieldsByTopic, assetFieldCatalog } from '../domain';
import type { AnnualFieldDef, Topic } from '../domain';
import { serviceIdName, specIdName } from '../sync/asset-id-name';

/**
 * The Asset ID column's variable name in the hidden row: the real service's `gresb_asset_id`, as
 * the service's own asset spreadsheet has it. A workbook or CSV written before, with our spec's
 * stand-in `service_asset_id`, is read the same (`parseColumnKey`, `canonicalColumnKey`); the id is
 * the asset's `service_asset_id` inside the app either way.
 */
export const idColumnKey = serviceIdName;

/** A column's variable as the importer keys it: either name of the asset id is `idColumnKey`. */
export function canonicalColumnKey(key: string): string {
  return key === specIdName ? idColumnKey : key;
}

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
  /**
   * The entity's area unit for the labels of floor-area columns (e.g. "m²"); omitted, those labels
   * carry no unit. Only labels change: the variable names stay the contract.
   */
  areaUnitLabel?: string;
}

const annualTopicsBySheet: Partial<Record<SheetName, readonly Topic[]>> = {
  'Reporting Characteristics': ['reporting', 'efficiency'],
  Energy: ['energy'],
  GHG: ['ghg'],
  Water: ['water'],
  Waste: ['waste'],
};

export const certificationFields: readonly [string, string][] = [
  ['id', 'Record ID'],
  ['certification_id', 'Certification'],
  ['level', 'Level'],
  ['size', 'Floor area'],
  ['year', 'Year'],
];
export const energyRatingFields: readonly [string, string][] = [
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
  if (trimmed === idColumnKey || trimmed === specIdName) return { kind: 'asset', field: specIdName };
  return assetKeyPattern.test(trimmed) ? { kind: 'asset', field: trimmed } : undefined;
}

const width = (label: string): number => Math.min(40, Math.max(12, label.length + 2));

function idColumns(withName: boolean): WorkbookColumn[] {
  const cols: WorkbookColumn[] = [
    {
      key: idColumnKey,
      label: 'Asset ID',
      source: { kind: 'asset', field: specIdName },
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

/** The unit shown after a label, unless the label already ends with it. */
function unitSuffix(label: string, unit: string | undefined, areaUnitLabel: string | undefined): string {
  const shown = unit === 'area' ? areaUnitLabel : unit === 'year' ? undefined : unit;
  if (!shown || label.endsWith(`(${shown})`)) return '';
  return ` (${shown})`;
}

function annualColumns(
  defs: readonly AnnualFieldDef[],
  years: readonly number[],
  areaUnitLabel: string | undefined,
): WorkbookColumn[] {
  const cols: WorkbookColumn[] = [];
  for (const def of defs) {
    for (const year of years) {
      const label = `${def.label}${unitSuffix(def.label, def.unit, areaUnitLabel)} ${year}`;
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
        const label = `${def.label}${unitSuffix(def.label, def.unit, opts.areaUnitLabel)}`;
        cols.push({
          key: assetColumnKey(def.name),
          label,
          source: { kind: 'asset', field: def.name },
          importable: true,
          width: width(label),
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
    return { name, columns: [...idColumns(true), ...annualColumns(defs, years, opts.areaUnitLabel)] };
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

/** Every year the assets hold data for, oldest first (or the two reporting years when there is none). */
export function allYears(
  assets: Iterable<{ annual_data?: readonly { year?: unknown }[] | null }>,
  fallbackYear: number,
): number[] {
  const years = new Set<number>();
  for (const a of assets)
    for (const r of a.annual_data ?? [])
      if (typeof r.year === 'number' && Number.isInteger(r.year)) years.add(r.year);
  return years.size > 0 ? [...years].sort((a, b) => a - b) : [fallbackYear - 1, fallbackYear];
}

const normalizeLabel = (label: string): string =>
  label
    .toLowerCase()
    .replace(/\s*\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Reads a visible label back to its variable name: the fallback for a column whose hidden name cell
 * was lost (a column inserted by hand, the names row deleted). Units in parentheses are ignored, so a
 * workbook labelled in another area unit still matches; years and slot numbers come from the label.
 */
export function columnKeyFromLabel(label: string, sheet?: string): string | undefined {
  const text = normalizeLabel(label);
  if (text === '') return undefined;
  const index = labelIndex();
  const direct = index.asset.get(text);
  if (direct) return direct;
  const yearMatch = /^(.*) (\d{4})$/.exec(text);
  if (yearMatch) {
    const field = index.annual.get(yearMatch[1] ?? '');
    if (field) return annualColumnKey(field, Number(yearMatch[2]));
  }
  const slotMatch = /^(.*) (\d{1,3})$/.exec(text);
  if (slotMatch) {
    const candidates = index.nested.get(slotMatch[1] ?? '') ?? [];
    // Certifications and energy ratings share labels ("Level 1"): the tab decides between them.
    const preferred = sheet === 'Energy Ratings' ? 'energy_ratings' : 'certifications';
    const hit =
      candidates.find((c) => c.kind === preferred) ?? (candidates.length === 1 ? candidates[0] : undefined);
    const slot = Number(slotMatch[2]);
    if (hit && slot >= 1) return nestedColumnKey(hit.kind, slot - 1, hit.field);
  }
  return undefined;
}

type NestedLabel = { kind: 'certifications' | 'energy_ratings'; field: string };
let labels:
  { asset: Map<string, string>; annual: Map<string, string>; nested: Map<string, NestedLabel[]> } | undefined;

function labelIndex(): NonNullable<typeof labels> {
  if (labels) return labels;
  const asset = new Map<string, string>();
  for (const def of assetFieldCatalog) asset.set(normalizeLabel(def.label), canonicalColumnKey(def.name));
  asset.set(normalizeLabel('Asset name'), 'name');
  const annual = new Map<string, string>();
  for (const topic of ['reporting', 'efficiency', 'energy', 'ghg', 'water', 'waste'] as const)
    for (const def of annualFieldsByTopic(topic)) annual.set(normalizeLabel(def.label), def.name);
  const nested = new Map<string, NestedLabel[]>();
  const add = (kind: NestedLabel['kind'], fields: readonly [string, string][]): void => {
    for (const [field, label] of fields) {
      const key = normalizeLabel(label);
      nested.set(key, [...(nested.get(key) ?? []), { kind, field }]);
    }
  };
  add('certifications', certificationFields);
  add('energy_ratings', energyRatingFields);
  labels = { asset, annual, nested };
  return labels;
}
