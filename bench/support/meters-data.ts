/**
 * The meters benches' data (issue 32): `assets` assets x 8 meters x 36 monthly readings (2022-01 ..
 * 2024-12), a third of the meters billed from the 15th so readings straddle the year end. The same
 * seed gives the same readings whether they are made as objects (the pure roll-up) or written as a
 * readings CSV (the import), so every phase of the bench works on the same readings.
 */
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Meter, MeterSpace, MeterUtility, Reading } from '../../shared/meters/types';

export const MONTHS = 36;

export const kinds: [MeterUtility, MeterSpace, string][] = [
  ['electricity', 'whole_building', 'kWh'],
  ['electricity', 'tenant_tenant', 'MWh'],
  ['fuel', 'whole_building', 'kWh'],
  ['district', 'shared_services', 'GJ'],
  ['water', 'whole_building', 'm3'],
  ['water', 'outdoor_landlord', 'US gallons'],
  ['waste_hazardous', 'whole_building', 'kg'],
  ['waste_non_hazardous', 'whole_building', 't'],
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;
// Month boundaries, plain and shifted by 14 days, as shared strings (as parsed readings hold them).
const periods: { start: string; end: string }[][] = [0, 14].map((shift) =>
  Array.from({ length: MONTHS }, (_, k) => {
    const y = 2022 + Math.floor(k / 12);
    const m = k % 12;
    return {
      start: iso(Date.UTC(y, m, 1) + shift * DAY),
      end: iso(Date.UTC(y, m + 1, 0) + shift * DAY),
    };
  }),
);

/** The asset's name in the workspace and in the CSV (the import finds the asset by it). */
export const assetName = (a: number): string => `Bench ${a}`;

/** Every meter and reading, in order; `assetId` is `a<n>` (the service bench maps it to local ids). */
export function* generate(assets: number): Generator<{ meter: Meter; readings: Reading[] }> {
  const r = rng(32);
  const typed = { kind: 'typed' } as const;
  for (let a = 0; a < assets; a++) {
    const assetId = `a${a}`;
    for (let k = 0; k < kinds.length; k++) {
      const [utility, space, unit] = kinds[k] as [MeterUtility, MeterSpace, string];
      const id = `${assetId}-m${k}`;
      const meter: Meter = {
        id,
        name: id,
        assetId,
        utility,
        space,
        areaServed: 100 + Math.round(r() * 5000),
        unit,
        energyContent: null,
      };
      const readings: Reading[] = [];
      const months = periods[k % 3 === 0 ? 1 : 0] as { start: string; end: string }[];
      for (const { start, end } of months)
        readings.push({
          meterId: id,
          start,
          end,
          quantity: Math.round(r() * 10_000) / 10,
          unit,
          estimated: r() < 0.08,
          source: typed,
        });
      yield { meter, readings };
    }
  }
}

export function makeData(assets: number): { meters: Meter[]; readings: Reading[] } {
  const meters: Meter[] = [];
  const readings: Reading[] = [];
  for (const one of generate(assets)) {
    meters.push(one.meter);
    for (const reading of one.readings) readings.push(reading);
  }
  return { meters, readings };
}

/** The same readings as a flat readings CSV (one row a reading, the meter's attributes repeated). */
export async function writeReadingsCsv(path: string, assets: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  await write(
    'meter_id,meter_name,asset_name,utility,space,area_served,start_date,end_date,quantity,unit,estimated\n',
  );
  for (const { meter, readings } of generate(assets)) {
    const a = Number(meter.assetId.slice(1));
    const head = `${meter.id},${meter.name},${assetName(a)},${meter.utility},${meter.space},${meter.areaServed},`;
    let chunk = '';
    for (const r of readings)
      chunk += `${head}${r.start},${r.end},${r.quantity},${r.unit},${r.estimated ? 'yes' : 'no'}\n`;
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  // On disk before anything reads it, as an analyst's file is: otherwise the kernel writes the
  // 130 MB back while the preview reads it (seen as a preview of 1.1-1.6 s on the same code).
  const handle = await open(path, 'r');
  await handle.sync();
  await handle.close();
  return bytes;
}
