/**
 * Meters (issue 32) at 5,000 assets x 8 meters x 36 monthly readings (1.44 M readings), each figure
 * against its floor measured in the same run (bench/support/goal.ts, floor.ts):
 *
 * 1. As the app runs it (bench/support/meters-import.ts), first, so the process's peak is ours: the
 *    readings CSV to its preview (goal <= 3 x reading the file's bytes and splitting its rows), the
 *    apply (one undoable step with history and the derived cells; goal <= 3 x inserting the same
 *    rows, journal and history rows by prepared statements plus the sums by one GROUP BY: the issue
 *    names no ratio for it), and the full roll-up from the workspace file; main's answer to a bridge
 *    call while the import and the roll-up run (p99 <= 50 ms); peak RSS (<= 600 MB).
 * 2. The roll-up itself: every asset's reporting year rolled up from readings in memory, grouping
 *    included, against the same sums (pro-rated consumption per asset, utility and space, the
 *    estimated part, the count and the first and last day covered) by one SQL GROUP BY in SQLite
 *    (in memory) over the same readings joined to the same meters and unit factors: <= 1.5 x.
 * 3. Recompute after one edited reading (its asset and year): the pure roll-up and rules, and as
 *    the app runs it through the meters service over a workspace file: <= 20 ms p99.
 *
 * METERS_BENCH_ASSETS=500 runs a tenth of it (to try a change; the goals are for 5,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { reportingPeriod } from '../shared/meters/dates';
import { rollup } from '../shared/meters/rollup';
import { checkReadings } from '../shared/meters/rules';
import type { Meter, Reading } from '../shared/meters/types';
import { parseUnit } from '../shared/meters/units';
import { floorGoal } from './support/floor';
import { goal, percentile } from './support/goal';
import { best, importPhases } from './support/meters-import';
import { kinds, makeData } from './support/meters-data';
import { serviceRecompute } from './support/meters-service-recompute';

const ASSETS = Number(process.env['METERS_BENCH_ASSETS'] ?? 5_000);
const YEAR = 2023;

async function importAndApply(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'asset-desk-bench-meters-import-'));
  try {
    const f = await importPhases(dir, ASSETS, YEAR);
    console.log(
      `meters import: ${f.csvMb.toFixed(0)} MB CSV, ${f.rows.toLocaleString('en')} valid rows; preview ${f.previewMs.toFixed(0)} ms, ` +
        `apply ${f.applyMs.toFixed(0)} ms (${f.applied.meters} meters, ${f.applied.readings} readings, figures of ${f.applied.figures} assets), ` +
        `roll-up from the file ${f.rollupMs.toFixed(0)} ms`,
    );
    console.log(
      `meters import RSS after each phase: ${Object.entries(f.rss)
        .map(([phase, mb]) => `${phase} ${mb.toFixed(0)} MB`)
        .join(
          ', ',
        )}; highest read during the import ${f.phasePeakMb.import.toFixed(0)} MB, during the roll-up ${f.phasePeakMb.rollup.toFixed(0)} MB`,
    );
    floorGoal('meters CSV import to preview', f.previewMs, f.floorSplitMs, 'ms', 3);
    floorGoal('meters import apply', f.applyMs, f.floorApplyMs, 'ms', 3);
    goal('meters main answer during import (p99)', percentile(f.importDelays, 99), 'ms', '<=', 50);
    goal('meters main answer during roll-up (p99)', percentile(f.rollupDelays, 99), 'ms', '<=', 50);
    goal('meters peak RSS (import, apply, roll-up)', f.peakMb, 'MB', '<=', 600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<void> {
  await importAndApply();
  // The recompute runs with only what the app holds for an edit (not 1.44 M readings in memory,
  // whose major collections would land in its samples); the roll-up's comparison after it.
  await recompute();
  rollupAgainstGroupBy();
}

async function recompute(): Promise<void> {
  const period = reportingPeriod(YEAR);
  // Recompute after one edited reading: that asset's roll-up and rules for its year.
  const some = makeData(Math.min(ASSETS, 200));
  const assetMeters = some.meters.filter((m) => m.assetId === 'a77');
  const assetReadings = some.readings.filter((r) => r.meterId.startsWith('a77-'));
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
  console.log(`meters recompute: median ${percentile(times, 50).toFixed(2)} ms`);
  goal('meters recompute after one edited reading (p99)', percentile(times, 99), 'ms', '<=', 20);

  // The same as the app runs it: one reading edited through the meters service over a workspace
  // file (200 assets x 8 meters x 36 readings), its asset's year recomputed from SQLite and the
  // derived cells written in the same undo step.
  const service = await serviceRecompute(some, 200, YEAR, 200);
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
}

function rollupAgainstGroupBy(): void {
  const { meters, readings } = makeData(ASSETS);
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

  console.log(
    `meters: ${readings.length.toLocaleString('en')} readings, ${ASSETS} assets; roll-up ${ours.toFixed(0)} ms (${fieldsWritten} fields), SQLite GROUP BY ${floor.toFixed(0)} ms (${groups} groups)`,
  );
  floorGoal('meters roll-up vs SQLite GROUP BY', ours, floor, 'ms', 1.5);
}
