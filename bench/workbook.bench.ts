/**
 * Workbook exchange at volume: export and import of 10,000 assets x 6 years (issue 8).
 * Goals: export < 5 s, import (streaming read + preview against the workspace) < 5 s.
 * The same file is also read by a second parser in this run (exceljs's non-streaming reader; SheetJS
 * is not a dependency), printed as a ratio, with each phase's peak resident memory.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { AssetInput } from '../shared/domain';
import { planImport } from '../electron/workbook/import-plan';
import { allYears } from '../shared/workbook/layout';
import { readWorkbook } from '../electron/workbook/read-workbook';
import { writeAssetWorkbook } from '../shared/workbook/write-workbook';
import type { AssetRecord } from '../electron/workspace/asset-record';
import { generateWorkspace } from './validation.bench';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 10_000);
const YEARS = 6;
const GOAL_S = 5;
const MB = 1024 * 1024;

/** Wall time and the highest RSS sampled while `fn` runs (sampling every 25 ms, plus before/after). */
async function measure<T>(fn: () => Promise<T> | T): Promise<{ result: T; seconds: number; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const t0 = performance.now();
  try {
    const result = await fn();
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds, peakMb: peak / MB };
  } finally {
    clearInterval(timer);
  }
}

const fmt = (s: number): string => `${s.toFixed(2)} s`;
const verdict = (s: number): string => (s < GOAL_S ? 'ok' : `OVER the ${GOAL_S} s goal`);

function records(docs: readonly AssetInput[]): AssetRecord[] {
  return docs.map((doc, i) => ({
    localId: `local-${i}`,
    serviceAssetId: 10_000 + i,
    partnersId: typeof doc.partners_id === 'number' ? doc.partners_id : null,
    base: doc,
    current: doc,
    serverValidations: null,
    outliers: [],
    remoteDeleted: false,
    notFound: false,
    inFlight: null,
    updatedAt: 0,
  }));
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-workbook-'));
  const file = join(dir, 'assets.xlsx');
  try {
    const docs = generateWorkspace(ASSETS, YEARS).map((d, i) => ({ ...d, service_asset_id: 10_000 + i }));
    const years = allYears(docs, 2025);
    const recs = records(docs);
    console.log(`${ASSETS} assets x ${years.length} years`);

    const write = await measure(() => writeAssetWorkbook(file, docs, { years }));
    console.log(
      `export (streaming writer):       ${fmt(write.seconds)}  peak RSS ${write.peakMb.toFixed(0)} MB  file ${(statSync(file).size / MB).toFixed(1)} MB  ${verdict(write.seconds)}`,
    );

    const read = await measure(() => readWorkbook(file));
    const cells = read.result.sheets.reduce((n, s) => n + s.rows.length * s.columns.length, 0);
    console.log(
      `import: streaming read + typing: ${fmt(read.seconds)}  peak RSS ${read.peakMb.toFixed(0)} MB  (${read.result.sheets.reduce((n, s) => n + s.rows.length, 0)} rows, ${(cells / 1e6).toFixed(1)} M cells)`,
    );
    const plan = await measure(() => planImport(read.result, recs));
    console.log(
      `import: preview vs workspace:    ${fmt(plan.seconds)}  peak RSS ${plan.peakMb.toFixed(0)} MB  ${JSON.stringify(plan.result.counts)}`,
    );
    const importSeconds = read.seconds + plan.seconds;
    console.log(`import total:                    ${fmt(importSeconds)}  ${verdict(importSeconds)}`);

    const second = await measure(async () => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(file);
      return wb.worksheets.reduce((n, ws) => n + ws.rowCount, 0);
    });
    console.log(
      `second parser (exceljs, whole workbook in memory): ${fmt(second.seconds)}  peak RSS ${second.peakMb.toFixed(0)} MB  (${second.result} rows)`,
    );
    console.log(
      `ratio streaming read / second parser: time ${(read.seconds / second.seconds).toFixed(2)}  peak RSS ${(read.peakMb / second.peakMb).toFixed(2)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
