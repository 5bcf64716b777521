/**
 * The meters roll-up (issue 32) for 5,000 assets x 8 meters x 36 monthly readings (1.44 M readings):
 * every asset's reporting year rolled up from its readings, against its floor measured in the same
 * run — the same sums (pro-rated consumption per asset, utility and space, the estimated part, the
 * count and the first and last day covered) done by one SQL GROUP BY in SQLite (better-sqlite3,
 * in memory) over the same readings, joined to the same meters and unit factors. Ours includes
 * grouping the readings by asset. Also: recompute after one edited reading (its asset and year:
 * roll-up and rules), and the process's peak memory.
 * Goals: roll-up <= 1.5 x the GROUP BY; recompute p99 <= 20 ms; peak RSS <= 600 MB.
 */
import Database from 'better-sqlite3';
import { reportingPeriod } from '../shared/meters/dates';
import { rollup } from '../shared/meters/rollup';
import { checkReadings } from '../shared/meters/rules';
import type { Meter, MeterSpace, MeterUtility, Reading } from '../shared/meters/types';
import { parseUnit } from '../shared/meters/units';
import { goal, percentile } from './support/goal';
import { serviceRecompute } from './support/meters-service-recompute';

const ASSETS = 5_000;
const MONTHS = 36; // 2022-01 .. 2024-12
const YEAR = 2023;

const kinds: [MeterUtility, MeterSpace, string][] = [
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

// Month boundaries as shared strings, as a workspace holding parsed readings would have them.
const starts: string[] = [];
const ends: string[] = [];
for (let k = 0; k < MONTHS; k++) {
  const y = 2022 + Math.floor(k / 12);
  const m = k % 12;
  starts.push(new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10));
  ends.push(new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10));
}

function makeData(): { meters: Meter[]; readings: Reading[] } {
  const r = rng(32);
  const meters: Meter[] = [];
  const readings: Reading[] = [];
  const typed = { kind: 'typed' } as const;
  for (let a = 0; a < ASSETS; a++) {
    const assetId = `a${a}`;
    for (let k = 0; k < kinds.length; k++) {
      const [utility, space, unit] = kinds[k] as [MeterUtility, MeterSpace, string];
      const id = `${assetId}-m${k}`;
      meters.push({
        id,
        name: id,
        assetId,
        utility,
        space,
        areaServed: 100 + Math.round(r() * 5000),
        unit,
        energyContent: null,
      });
      for (let mo = 0; mo < MONTHS; mo++) {
        // Bills shifted by a few days for a third of the meters, so readings straddle the year end.
        const shift = k % 3 === 0 ? 14 : 0;
        const start = shift === 0 ? (starts[mo] as string) : addDays(starts[mo] as string, shift);
        const end = shift === 0 ? (ends[mo] as string) : addDays(ends[mo] as string, shift);
        readings.push({
          meterId: id,
          start,
          end,
          quantity: Math.round(r() * 10_000) / 10,
          unit,
          estimated: r() < 0.08,
          source: typed,
        });
      }
    }
  }
  return { meters, readings };
}

const shifted = new Map<string, string>();
function addDays(iso: string, days: number): string {
  const key = `${iso}+${days}`;
  let hit = shifted.get(key);
  if (!hit) {
    hit = new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    shifted.set(key, hit);
  }
  return hit;
}

let peakRss = 0;
function sample(): void {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
    sample();
  }
  return min;
}

export default async function run(): Promise<void> {
  const { meters, readings } = makeData();
  sample();
  const period = reportingPeriod(YEAR);
  const meterAsset = new Map(meters.map((m) => [m.id, m.assetId]));

  // Ours: group the readings by asset, then one roll-up per asset.
  let fieldsWritten = 0;
  const ours = best(3, () => {
    const byAsset = new Map<string, { meters: Meter[]; readings: Reading[] }>();
    for (const m of meters) {
      let entry = byAsset.get(m.assetId);
      if (!entry) byAsset.set(m.assetId, (entry = { meters: [], readings: [] }));
      entry.meters.push(m);
    }
    for (const reading of readings)
      byAsset.get(meterAsset.get(reading.meterId) as string)?.readings.push(reading);
    fieldsWritten = 0;
    for (const entry of byAsset.values())
      fieldsWritten += Object.keys(rollup(entry.meters, entry.readings, period).fields).length;
  });

  // The floor: the same sums in one GROUP BY over the same rows in SQLite.
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE meters (id TEXT PRIMARY KEY, asset TEXT, utility TEXT, space TEXT);
    CREATE TABLE units (unit TEXT PRIMARY KEY, factor REAL);
    CREATE TABLE readings (meter_id TEXT, start TEXT, "end" TEXT, quantity REAL, unit TEXT, estimated INTEGER);`);
  const insertMeter = db.prepare('INSERT INTO meters VALUES (?, ?, ?, ?)');
  const insertUnit = db.prepare('INSERT INTO units VALUES (?, ?)');
  const insertReading = db.prepare('INSERT INTO readings VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const m of meters) insertMeter.run(m.id, m.assetId, m.utility, m.space);
    for (const unit of new Set(kinds.map((k) => k[2]))) insertUnit.run(unit, parseUnit(unit)?.factor ?? NaN);
    for (const r of readings)
      insertReading.run(r.meterId, r.start, r.end, r.quantity, r.unit, r.estimated ? 1 : 0);
  })();
  sample();
  const query = db.prepare(`
    SELECT m.asset, m.utility, m.space,
      SUM(r.quantity * u.factor * (MIN(julianday(r."end"), julianday(@to)) - MAX(julianday(r.start), julianday(@from)) + 1)
          / (julianday(r."end") - julianday(r.start) + 1)) AS abs,
      SUM(CASE WHEN r.estimated THEN r.quantity * u.factor * (MIN(julianday(r."end"), julianday(@to)) - MAX(julianday(r.start), julianday(@from)) + 1)
          / (julianday(r."end") - julianday(r.start) + 1) ELSE 0 END) AS est,
      COUNT(*) AS n, MIN(MAX(r.start, @from)) AS first, MAX(MIN(r."end", @to)) AS last
    FROM readings r JOIN meters m ON m.id = r.meter_id JOIN units u ON u.unit = r.unit
    WHERE r.start <= @to AND r."end" >= @from
    GROUP BY m.asset, m.utility, m.space`);
  let groups = 0;
  const floor = best(3, () => {
    groups = query.all({ from: period.from, to: period.to }).length;
  });
  db.close();

  // Recompute after one edited reading: that asset's roll-up and rules for its year.
  const assetMeters = meters.filter((m) => m.assetId === 'a77');
  const assetReadings = readings.filter((r) => meterAsset.get(r.meterId) === 'a77');
  const times: number[] = [];
  // Warm, as in the app where the same functions have already run for the grid and the import.
  for (let i = 0; i < 50; i++) {
    rollup(assetMeters, assetReadings, period);
    checkReadings(assetMeters, assetReadings, period);
  }
  for (let i = 0; i < 300; i++) {
    const index = i % assetReadings.length;
    const old = assetReadings[index] as Reading;
    assetReadings[index] = { ...old, quantity: old.quantity + 1 };
    const t0 = performance.now();
    rollup(assetMeters, assetReadings, period);
    checkReadings(assetMeters, assetReadings, period);
    times.push(performance.now() - t0);
  }
  sample();

  console.log(
    `meters: ${readings.length.toLocaleString('en')} readings, ${ASSETS} assets; roll-up ${ours.toFixed(0)} ms (${fieldsWritten} fields), SQLite GROUP BY ${floor.toFixed(0)} ms (${groups} groups)`,
  );
  goal('meters roll-up vs SQLite GROUP BY', ours / floor, 'x', '<=', 1.5);
  console.log(`meters recompute: median ${percentile(times, 50).toFixed(2)} ms`);
  goal('meters recompute after one edited reading (p99)', percentile(times, 99), 'ms', '<=', 20);

  // The same as the app runs it: one reading edited through the meters service over a workspace
  // file (200 assets x 8 meters x 36 readings), its asset's year recomputed from SQLite and the
  // derived cells written in the same undo step.
  const service = await serviceRecompute({ meters, readings }, 200, YEAR, 200);
  sample();
  console.log(
    `meters service: recompute (read from SQLite, roll-up, compare) median ${percentile(service.recompute, 50).toFixed(2)} ms; whole edit (step, write path, journal, commit) median ${percentile(service.edit, 50).toFixed(2)} ms, p99 ${percentile(service.edit, 99).toFixed(2)} ms`,
  );
  goal(
    'meters service recompute after one edited reading (p99)',
    percentile(service.recompute, 99),
    'ms',
    '<=',
    20,
  );
  goal('meters peak RSS', peakRss / 1024 / 1024, 'MB', '<=', 600);
}
