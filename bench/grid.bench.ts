/**
 * The annual grid with 100,000 rows (16,667 assets x 6 years) in Debian's Chromium through the browser
 * host: a restart to an interactive assets grid (from the app core's start, its sandbox not running;
 * Chromium is launched before the clock starts, as a window would be), first render of the annual
 * grid, one edit from keypress to saved (through the bridge into SQLite and back into the grid), and
 * frame times over 5 s of scrolling, and over 3 s of a fast fling (600 px a frame, as a flicked wheel
 * or a dragged scrollbar moves it).
 * Goals (issue 9): first render < 1.5 s, edit < 50 ms, 95th-percentile frame < 20 ms; (issue 30) a
 * fling's frames per second at least the bare grid's / 1.2, so it scrolls as smoothly as AG Grid alone.
 * The peer, measured in the same browser in the same run: a bare AG Grid (the vanilla bundle, no
 * app code) with the same rows and the same columns, so the ratio shows what our cells cost.
 * Issue 33: start and keypress to saved are judged as ratios to their floors, measured first in the
 * same browser on the same workspace file (`support/grid-floors.ts` says why each is the floor):
 * start <= x1.3 of a bare AG Grid given the rows as one message over the same transport; keypress
 * to saved <= x1.3 of a bare AG Grid's edit plus one round trip and one SQLite transaction of the
 * same size. The absolute goals stay as lines, marked as this machine's.
 */
import { goal } from './support/goal';
import { floorGoal } from './support/floor';
import { measureGridFloors } from './support/grid-floors';
import { measureHover, measurePeer, percentile, scrollFrames } from './support/grid-measures';
import type { PageGlobals } from './support/page-globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AssetDoc } from '../shared/sync/asset-doc';
import { localSandboxId } from '../electron/auth/connections';
import { connectionFolder } from '../electron/storage/paths';
import { WorkspaceStore } from '../electron/workspace/workspace-store';
import { launchChromium } from '../support/chromium';
import { startTestApp, testAssessmentYear } from '../support/test-app';

const ASSETS = 16_667;
const YEARS = 6;
const FIRST_RENDER_GOAL_MS = 1_500;
const EDIT_GOAL_MS = 50;
const FRAME_GOAL_MS = 20;
/** Issue 18: start to an interactive grid 1.5 s; keypress to saved median 25 ms (p95 50 ms). */
const START_GOAL_MS = 1_500;
const EDIT_MEDIAN_GOAL_MS = 25;
/** A column's full label or a cell's message on hover: AG Grid's default waits 2 s. */
const HOVER_GOAL_MS = 600;
/** Issue 33: start and keypress to saved within x1.3 of their floors; the floor's start is a median of 3. */
const FLOOR_RATIO = 1.3;
const FLOOR_START_RUNS = 3;
/** A fling may cost at most this much more frame time than the bare grid's (issue 30). */
const FLING_RATIO_GOAL = 1.2;
const FLING_STEP_PX = 600;
const FLING_MS = 3_000;

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const document: PageGlobals['document'];
declare const performance: PageGlobals['performance'];
declare const requestAnimationFrame: PageGlobals['requestAnimationFrame'];
declare const window: PageGlobals['window'];

function seedDoc(i: number): AssetDoc {
  const size = 2_000 + (i % 9_000);
  return {
    name: `Bench asset ${i}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    ownership: 100,
    property_type_code: 'OCHI',
    size,
    annual_data: Array.from({ length: YEARS }, (_, k) => ({
      year: testAssessmentYear - YEARS + 1 + k,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      en_abs_wf: 40_000 + ((i * 7 + k * 13) % 20_000),
      en_cov_wf: size,
      en_tot_wf: size,
      en_abs_we: 90_000 + ((i * 11 + k * 17) % 30_000),
      en_cov_we: size,
      en_tot_we: size,
      wat_abs_w: 500 + (i % 400),
      wat_cov_w: size,
      wat_tot_w: size,
    })),
  };
}

const ms = (n: number): string => `${n.toFixed(1)} ms`;

export default async function run(): Promise<void> {
  // A first run fills the workspace; the measured run is a restart on the same data, as an analyst
  // opens the app in the morning: the sandbox is not running yet.
  const seeding = await startTestApp();
  const seedStart = performance.now();
  let workspaceFile = '';
  try {
    // Seed the open workspace through a second connection to its SQLite file (WAL allows it).
    const entityId = (await seeding.core.handlers['session.get']({})).activeEntityId!;
    const file = join(connectionFolder(seeding.dataDir, localSandboxId), `entity-${entityId}.sqlite`);
    workspaceFile = file;
    const store = WorkspaceStore.open(file);
    store.transaction(() => {
      for (let i = 0; i < ASSETS; i++) store.createAsset(seedDoc(i));
    });
    store.close();
  } finally {
    await seeding.close();
  }
  console.log(`seeded ${ASSETS} assets x ${YEARS} years in ${ms(performance.now() - seedStart)}`);

  const browser = await launchChromium();
  const floors = await measureGridFloors(browser.context, workspaceFile, {
    runs: FLOOR_START_RUNS,
    edits: 24,
  });
  console.log(
    `floors: start to a bare AG Grid's first row, the rows as one message: ${floors.startRuns.map((n) => `${n} ms`).join(', ')}; ` +
      `bare edit + round trip + transaction: median ${ms(percentile(floors.edits, 50))}, p95 ${ms(percentile(floors.edits, 95))}`,
  );
  const page = await browser.context.newPage();
  if (process.env['BENCH_DEBUG']) page.on('console', (m) => console.log('page:', m.text()));
  page.setDefaultTimeout(120_000);
  // tsx keeps function names by wrapping them in `__name(...)`, which the page does not define.
  await page.addInitScript('globalThis.__name = (f) => f;');
  const start = Date.now();
  const app = await startTestApp({ dataDir: seeding.dataDir, waitForSession: false });
  try {
    await page.goto(app.host.launchUrl);
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    const loadMs = Date.now() - start;
    // The floor has every row at its first; ours draws a first page and reads the rest after it, so
    // it is also timed to its last row in the grid (the status bar's "Reading assets" gone).
    // Watched while the bench goes on, so the session's time below is timed as before.
    const allRowsMs = page
      .locator('[data-testid="status-loading"]')
      .waitFor({ state: 'detached' })
      .then(
        () => Date.now() - start,
        () => NaN, // not read within the page's timeout: the goal line shows NaN, OVER
      );
    if (process.env['BENCH_DEBUG'])
      console.log(
        await page.evaluate(
          `JSON.stringify(performance.getEntries().map((e) => [e.entryType, e.name.slice(-40), Math.round(e.startTime), Math.round(e.duration)]))`,
        ),
      );
    await app.core.connected;
    const connectedMs = Date.now() - start;
    const total = (await app.core.handlers['workspace.snapshot']({})).assets.length;

    // First render of the annual grid: from the tab click (data already in memory) to painted rows.
    const firstRender = await page.evaluate(
      () =>
        new Promise<{ render: number; snapshotToAssets: number }>((resolve) => {
          const start = performance.now();
          document.querySelector('[data-testid="tab-annual"]')!.click();
          const check = (): void => {
            if (document.querySelector('[data-testid="annual-grid"] .ag-row')) {
              // One more frame: the rows are painted, not just in the DOM.
              requestAnimationFrame(() => {
                const received = performance.getEntriesByName('snapshot:received')[0]?.startTime ?? 0;
                const assetsReady = performance.getEntriesByName('grid:assets:ready')[0]?.startTime ?? 0;
                resolve({ render: performance.now() - start, snapshotToAssets: assetsReady - received });
              });
            } else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
    );
    const rowCount = await page.evaluate(
      () => document.querySelector('[data-testid="annual-grid"] .ag-grid-viewport')!.scrollHeight,
    );
    console.log(
      `start (app core, sandbox not running) to an interactive assets grid of ${total} assets, ${total * YEARS} annual rows: ${loadMs} ms (snapshot to grid ready ${ms(firstRender.snapshotToAssets)}); the session was up after ${connectedMs} ms`,
    );
    console.log(
      `annual grid first render (100k rows): ${ms(firstRender.render)} (goal < ${FIRST_RENDER_GOAL_MS} ms; scroll height ${rowCount}px)`,
    );
    floorGoal('start to an interactive assets grid, 100k rows', loadMs, floors.startMs, 'ms', FLOOR_RATIO);
    floorGoal(
      'start to every row in the assets grid, 100k rows',
      await allRowsMs,
      floors.startMs,
      'ms',
      FLOOR_RATIO,
    );
    goal(
      "start to an interactive assets grid, 100k rows (this machine's)",
      loadMs,
      'ms',
      '<=',
      START_GOAL_MS,
    );
    goal('annual grid first render, 100k rows', firstRender.render, 'ms', '<', FIRST_RENDER_GOAL_MS);
    await page.waitForTimeout(1_500); // let the background validation finish

    const edits = await measureEdits(page, 24);
    console.log(
      `edit, keypress to saved: median ${ms(percentile(edits, 50))}, p95 ${ms(percentile(edits, 95))}, max ${ms(Math.max(...edits))} (goal < ${EDIT_GOAL_MS} ms)`,
    );
    floorGoal(
      'keypress to saved at 100k rows, median',
      percentile(edits, 50),
      percentile(floors.edits, 50),
      'ms',
      FLOOR_RATIO,
    );
    goal(
      "keypress to saved at 100k rows, median (this machine's)",
      percentile(edits, 50),
      'ms',
      '<=',
      EDIT_MEDIAN_GOAL_MS,
    );
    goal(
      "keypress to saved at 100k rows, p95 (this machine's)",
      percentile(edits, 95),
      'ms',
      '<=',
      EDIT_GOAL_MS,
    );

    const hover = await measureHover(page, '[data-testid="annual-grid"] .ag-header-cell[col-id^="en_"]');

    // Scrolling with a cell focused (as after the edits), then with the focus outside the grid.
    const viewport = '[data-testid="annual-grid"] .ag-grid-viewport';
    const focused = await scrollFrames(page, viewport);
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.waitForTimeout(500);
    const free = await scrollFrames(page, viewport);
    await page.waitForTimeout(500);
    const fling = await scrollFrames(page, viewport, FLING_STEP_PX, FLING_MS);
    await page.close();
    const peer = await measurePeer(browser, {
      assets: ASSETS,
      years: YEARS,
      flingStepPx: FLING_STEP_PX,
      flingMs: FLING_MS,
    });
    console.log(
      `peer, bare AG Grid with the same rows and columns: first render ${ms(peer.render)} (ours x${(firstRender.render / peer.render).toFixed(2)})`,
    );
    const report = (label: string, ours: number[], theirs: number[]): void => {
      const p95 = percentile(ours, 95);
      console.log(
        `scroll 5 s, ${label}: ${ours.length} frames, median ${ms(percentile(ours, 50))}, p95 ${ms(p95)}, max ${ms(Math.max(...ours))} (goal p95 < ${FRAME_GOAL_MS} ms); peer p95 ${ms(percentile(theirs, 95))} (ours x${(p95 / percentile(theirs, 95)).toFixed(2)})`,
      );
      goal(`scroll frame p95, ${label}`, p95, 'ms', '<', FRAME_GOAL_MS, {
        name: 'bare AG Grid',
        value: percentile(theirs, 95),
      });
    };
    console.log(`hover to message: ${ms(hover)}; peer, AG Grid's default: ${ms(peer.hover)}`);
    goal('hover to message', hover, 'ms', '<=', HOVER_GOAL_MS, { name: 'bare AG Grid', value: peer.hover });
    report('focus outside the grid', free, peer.free);
    report('a cell focused', focused, peer.focused);
    // The fling: mean frame time (the inverse of frames per second) against the bare grid's.
    const mean = (frames: number[]): number => frames.reduce((a, b) => a + b, 0) / Math.max(1, frames.length);
    console.log(
      `fling ${FLING_STEP_PX} px a frame for ${FLING_MS / 1000} s: ${fling.length} frames (${(1000 / mean(fling)).toFixed(1)} a second), p95 ${ms(percentile(fling, 95))}; peer ${peer.fling.length} frames (${(1000 / mean(peer.fling)).toFixed(1)} a second), p95 ${ms(percentile(peer.fling, 95))}`,
    );
    goal(
      "fast fling at 100k rows, mean frame time over the bare grid's",
      mean(fling) / mean(peer.fling),
      'x',
      '<=',
      FLING_RATIO_GOAL,
    );
  } finally {
    await browser.close();
    await app.close();
  }
}

/**
 * Types a value into an annual cell and presses Enter; measures Enter keydown to the "saved" mark.
 * Two passes down the same 12 rows (in view, so no edit also scrolls the grid): with 24 edits the
 * 95th percentile is the second-largest, not the largest, and one collection pause cannot decide it.
 */
async function measureEdits(page: Page, count: number): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __enterAt?: number };
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') w.__enterAt = performance.now();
      },
      true,
    );
  });
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const row = page
      .locator('[data-testid="annual-grid"] .ag-row[row-index="' + ((i % 12) + 1) + '"] [col-id="en_abs_wf"]')
      .first();
    await row.click();
    await page.keyboard.type(String(50_000 + i));
    await page.keyboard.press('Enter');
    const elapsed = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const w = window as unknown as { __enterAt?: number };
          const check = (): void => {
            const marks = performance.getEntriesByName('edit:saved');
            const last = marks[marks.length - 1]?.startTime ?? 0;
            if (w.__enterAt !== undefined && last > w.__enterAt) {
              const at = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime ?? NaN;
              console.log(
                `edit phases: to sent ${(at('edit:sent') - w.__enterAt).toFixed(1)}, bridge ${(at('edit:answered') - at('edit:sent')).toFixed(1)}, apply ${(last - at('edit:answered')).toFixed(1)}`,
              );
              resolve(last - w.__enterAt);
            } else requestAnimationFrame(check);
          };
          check();
        }),
    );
    out.push(elapsed);
  }
  return out;
}
