/**
 * The workbook's Meters and Readings tabs (issue 32): meters travel with the assets so a team can
 * share them. The Readings tab is a flat readings file (one row a reading, its meter's attributes
 * repeated, the import's own column names): the readings import reads it back as it reads a
 * utility portal's CSV. The Meters tab lists every meter, with the energy content of fuels, which
 * a flat file has no column for.
 */
import type { PlainSheet } from '../workbook/plain-sheet';
import { importColumns } from './import-rows';
import type { Meter, Reading } from './types';

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
export function meterTabs(
  meters: readonly Meter[],
  readings: readonly Reading[],
  assetOf: (localId: string) => AssetNames | undefined,
): PlainSheet[] {
  if (meters.length === 0) return [];
  const byId = new Map(meters.map((m) => [m.id, m]));
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
  ];
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
