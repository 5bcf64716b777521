/**
 * The workbook's Meters and Readings tabs (issue 32): meters travel with the assets so a team can
 * share them. The Readings tab is a flat readings file (one row a reading, its meter's attributes
 * repeated, the import's own column names): the readings import reads it back as it reads a
 * utility portal's CSV. The Meters tab lists every meter, with the energy content of fuels, which
 * a flat file has no column for: the readings import reads it back beside the Readings tab
 * (`withMetersTab`), so a fuel measured by volume or mass arrives with its energy content.
 */
import type { PlainSheet } from '../workbook/plain-sheet';
import { importColumns, parseQuantity, type ImportIssue, type ReadingsImport } from './import-rows';
import type { EnergyContent, Meter, Reading } from './types';
import { parseUnit } from './units';

export const METERS_SHEET = 'Meters';
export const READINGS_SHEET = 'Readings';
export const METERS_MARKER = 'asset_desk:meters';
export const READINGS_MARKER = 'asset_desk:readings';

export interface AssetNames {
  partnersId: string | null;
  name: string;
}

const width = (name: string): number => Math.max(12, name.length + 2);

function meterCells(meter: Meter, asset: AssetNames | undefined) {
  return [
    meter.id,
    meter.name,
    asset?.partnersId ?? null,
    asset?.name ?? null,
    meter.utility,
    meter.space,
    meter.areaServed,
  ];
}

/** The two tabs, or none when the workspace has no meter. */
const meterColumns = [
  'meter_id',
  'meter_name',
  'asset_partners_id',
  'asset_name',
  'utility',
  'space',
  'area_served',
  'unit',
  'energy_content_kwh',
  'energy_content_per',
] as const;

export function meterTabs(
  meters: readonly Meter[],
  readings: readonly Reading[],
  assetOf: (localId: string) => AssetNames | undefined,
): PlainSheet[] {
  if (meters.length === 0) return [];
  const byId = new Map(meters.map((m) => [m.id, m]));
  const readingRows = readings.flatMap((r) => {
    const meter = byId.get(r.meterId);
    if (!meter) return [];
    // importColumns' order: meter_id, meter_name, asset_partners_id, asset_name, utility, space,
    // area_served, start_date, end_date, quantity, unit, estimated.
    return [
      [
        ...meterCells(meter, assetOf(meter.assetId)),
        r.start,
        r.end,
        r.quantity,
        r.unit,
        r.estimated ? 'yes' : 'no',
      ],
    ];
  });
  return [
    {
      name: METERS_SHEET,
      marker: METERS_MARKER,
      columns: meterColumns.map((name) => ({ name, width: width(name) })),
      rows: meters.map((m) => [
        ...meterCells(m, assetOf(m.assetId)),
        m.unit,
        m.energyContent?.kwh ?? null,
        m.energyContent?.per ?? null,
      ]),
    },
    {
      name: READINGS_SHEET,
      marker: READINGS_MARKER,
      columns: importColumns.map((name) => ({ name, width: width(name) })),
      rows: readingRows,
    },
  ];
}

/**
 * The Meters tab's rows (its header first, the marker row already dropped) laid over the meters read
 * from the Readings tab, matched by meter id: their unit and energy content. A value that is no
 * energy content is a problem naming the tab's row and column, and the meter is read without it
 * (its fuel readings then break the unit rule, which holds their figures back).
 */
export function withMetersTab(
  parsed: ReadingsImport,
  rows: readonly (readonly string[])[],
  file: string,
): ReadingsImport {
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const at = (name: (typeof meterColumns)[number]): number => header.indexOf(name);
  const [idAt, unitAt, kwhAt, perAt] = [
    at('meter_id'),
    at('unit'),
    at('energy_content_kwh'),
    at('energy_content_per'),
  ];
  if (idAt < 0) return parsed;
  const problems: ImportIssue[] = [];
  const found = new Map<string, { unit: string; energyContent: EnergyContent | null }>();
  rows.slice(1).forEach((cells, index) => {
    const row = index + 2;
    const cell = (i: number): string => (i < 0 ? '' : (cells[i] ?? '').trim());
    const id = cell(idAt);
    if (id === '') return;
    const kwhText = cell(kwhAt);
    const per = cell(perAt);
    let energyContent: EnergyContent | null = null;
    if (kwhText !== '' || per !== '') {
      const kwh = parseQuantity(kwhText);
      const issue = (column: string, message: string): void => {
        problems.push({ file, row, column, message: `${METERS_SHEET} tab, meter ${id}: ${message}` });
      };
      if (typeof kwh !== 'number' || !(kwh > 0))
        issue('energy_content_kwh', `"${kwhText}" is not an energy content in kWh.`);
      else if (!['volume', 'mass'].includes(parseUnit(per)?.dimension ?? ''))
        issue('energy_content_per', `"${per}" is not a unit of volume or mass.`);
      else energyContent = { kwh, per };
    }
    found.set(id, { unit: cell(unitAt), energyContent });
  });
  return {
    ...parsed,
    errors: [...parsed.errors, ...problems],
    meters: parsed.meters.map((meter) => {
      const tab = meter.meterId === null ? undefined : found.get(meter.meterId);
      if (!tab) return meter;
      return { ...meter, unit: tab.unit || meter.unit, energyContent: tab.energyContent };
    }),
  };
}
