/**
 * The readings file's headers and words (issue 32): which column holds each field (the analyst's
 * mapping, then exact names, then common synonyms, all case-insensitive), and the utility and space
 * words a file may use for the codes. Split from `import-rows.ts`, which reads the rows.
 */
import type { MeterSpace, MeterUtility } from './types';
import { meterSpaces, meterUtilities, spaceLabels, utilityLabels } from './types';

/** The columns that say which meter a reading is of: a row repeats them for its meter. */
const meterColumns = [
  'meter_id',
  'meter_name',
  'asset_partners_id',
  'asset_name',
  'utility',
  'space',
  'area_served',
] as const;

export const importColumns = [
  ...meterColumns,
  'start_date',
  'end_date',
  'quantity',
  'unit',
  'estimated',
] as const;

/** A meter's attributes as a row repeats them: its columns and the unit of its readings. */
export const meterAttributeColumns = [...meterColumns, 'unit'] as const;
export type ImportColumn = (typeof importColumns)[number];

const synonyms: Record<ImportColumn, string[]> = {
  meter_id: [
    'meter id',
    'meter number',
    'meter no',
    'meter code',
    'meter ref',
    'meter reference',
    'meter',
    'portfolio manager meter id',
  ],
  meter_name: ['meter name', 'meter description', 'name', 'description'],
  asset_partners_id: ['asset partners id', 'partners id', 'asset id', 'property id', 'building id'],
  asset_name: ['asset name', 'property name', 'building name', 'asset', 'property', 'building', 'site'],
  utility: ['utility', 'utility type', 'meter type', 'energy type', 'commodity', 'resource', 'type'],
  space: ['space', 'space type', 'area type', 'control', 'location'],
  area_served: ['area served', 'floor area served', 'served area', 'floor area', 'area'],
  start_date: [
    'start date',
    'start',
    'from',
    'period start',
    'billing start',
    'begin date',
    'startdate',
    'date from',
  ],
  end_date: ['end date', 'end', 'to', 'period end', 'billing end', 'enddate', 'date to'],
  quantity: ['quantity', 'usage', 'consumption', 'amount', 'value', 'qty'],
  unit: ['unit', 'units', 'uom', 'unit of measure', 'unitofmeasure'],
  estimated: [
    'estimated',
    'estimate',
    'is estimated',
    'estimatedvalue',
    'estimated value',
    'actual/estimated',
    'reading type',
  ],
};

export function normaliseHeader(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[_\-\s]+/g, ' ');
}

export const utilityWords = new Map<string, MeterUtility>();
for (const u of meterUtilities) {
  utilityWords.set(normaliseHeader(u), u);
  utilityWords.set(normaliseHeader(utilityLabels[u]), u);
}
for (const [word, u] of [
  ['electric', 'electricity'],
  ['power', 'electricity'],
  ['gas', 'fuel'],
  ['natural gas', 'fuel'],
  ['fuel oil', 'fuel'],
  ['fuels', 'fuel'],
  ['district heating', 'district'],
  ['district cooling', 'district'],
  ['district heat', 'district'],
  ['hazardous', 'waste_hazardous'],
  ['non hazardous', 'waste_non_hazardous'],
  ['nonhazardous', 'waste_non_hazardous'],
] as const) {
  utilityWords.set(word, u);
}
export const spaceWords = new Map<string, MeterSpace>();
const spaceShort: Record<MeterSpace, string> = {
  whole_building: 'w',
  shared_services: 'lc bs',
  common_areas: 'lc bc',
  tenant_landlord: 'lc t',
  tenant_tenant: 'tc t',
  outdoor_landlord: 'lc o',
  outdoor_tenant: 'tc o',
};
for (const s of meterSpaces) {
  spaceWords.set(normaliseHeader(s), s);
  spaceWords.set(normaliseHeader(spaceLabels[s]), s);
  spaceWords.set(spaceShort[s], s);
}

/** Which column holds each field: the analyst's mapping first, then exact names, then synonyms. */
export function recogniseHeaders(
  header: readonly string[],
  mapping: Partial<Record<ImportColumn, string>> = {},
): Record<ImportColumn, number | null> {
  const names = header.map(normaliseHeader);
  const taken = new Set<number>();
  const result = {} as Record<ImportColumn, number | null>;
  for (const column of importColumns) result[column] = null;
  const claim = (column: ImportColumn, index: number): void => {
    if (index >= 0 && !taken.has(index) && result[column] === null) {
      result[column] = index;
      taken.add(index);
    }
  };
  for (const column of importColumns) {
    const mapped = mapping[column];
    if (mapped !== undefined) claim(column, names.indexOf(normaliseHeader(mapped)));
  }
  for (const column of importColumns) claim(column, names.indexOf(normaliseHeader(column)));
  for (const column of importColumns) {
    for (const word of synonyms[column]) claim(column, names.indexOf(word));
  }
  return result;
}
