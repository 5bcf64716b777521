/**
 * The grid bench's bare AG Grid peer (the vanilla bundle, no app code, the same rows and columns)
 * and the page measurements both it and the app's grid take: scroll frames, hover to a tooltip.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { annualFieldCatalog } from '../../shared/domain';
import { annualColumns } from '../../renderer/src/grid-model/columns';
import type { launchChromium } from '../../support/chromium';
import type { PageGlobals } from './page-globals';

declare const document: PageGlobals['document'];
declare const performance: PageGlobals['performance'];
declare const requestAnimationFrame: PageGlobals['requestAnimationFrame'];

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/**
 * Frame times while scrolling the grid's viewport: by default for 5 s at 40 px a frame (about 3
 * screens a second); a fling moves `step` px a frame.
 */
export function scrollFrames(page: Page, selector: string, step = 40, duration = 5_000): Promise<number[]> {
  return page.evaluate(
    ([sel, px, span]) =>
      new Promise<number[]>((resolve) => {
        const viewport = document.querySelector(sel)!;
        const times: number[] = [];
        const start = performance.now();
        let direction = 1;
        const frame = (t: number): void => {
          times.push(t);
          if (t - start > span) {
            resolve(times.slice(1).map((v, i) => v - times[i]!));
            return;
          }
          viewport.scrollTop += direction * px;
          if (
            viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1 ||
            viewport.scrollTop <= 0
          )
            direction = -direction;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    [selector, step, duration] as const,
  );
}

/** The same 100k rows and columns in a bare AG Grid: first render and scroll frames. */
export async function measurePeer(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  size: { assets: number; years: number; flingStepPx: number; flingMs: number },
): Promise<{ render: number; free: number[]; focused: number[]; fling: number[]; hover: number }> {
  const groups = annualColumns(annualFieldCatalog, { area_units_name: 'square_metres', currency: 'EUR' });
  const columnDefs = [
    { field: 'status', headerName: '', width: 56, pinned: 'left' },
    { field: 'name', headerName: 'Asset', width: 220, pinned: 'left' },
    { field: 'year', headerName: 'Year', width: 80, pinned: 'left' },
    ...groups.map((g) => ({
      headerName: g.headerName,
      children: g.children.map((c) => ({
        field: c.field,
        headerName: c.headerName,
        headerTooltip: c.headerTooltip,
        width: c.width,
      })),
    })),
  ];
  const page = await browser.context.newPage();
  try {
    await page.setContent('<div id="grid" style="height:700px;width:1366px"></div>');
    await page.evaluate('globalThis.__name = (f) => f;');
    // The package's exports hide dist/ and its manifest; the folder is found from its main entry.
    const main = createRequire(import.meta.url).resolve('ag-grid-community');
    const bundle = join(main.slice(0, main.lastIndexOf('/dist/')), 'dist', 'ag-grid-community.min.js');
    await page.addScriptTag({ path: bundle });
    const render = await page.evaluate(
      ([cols, assets, years]) =>
        new Promise<number>((resolve) => {
          const rows: Record<string, unknown>[] = [];
          for (let i = 0; i < assets; i++) {
            const size = 2_000 + (i % 9_000);
            for (let k = 0; k < years; k++)
              rows.push({
                name: `Bench asset ${i}`,
                year: 2020 + k,
                owned_entire_period: true,
                en_abs_wf: 40_000 + ((i * 7 + k * 13) % 20_000),
                en_cov_wf: size,
                en_tot_wf: size,
                en_abs_we: 90_000 + ((i * 11 + k * 17) % 30_000),
                wat_abs_w: 500 + (i % 400),
              });
          }
          const ag = (globalThis as unknown as { agGrid: { createGrid(el: unknown, o: unknown): void } })
            .agGrid;
          const start = performance.now();
          ag.createGrid(document.querySelector('#grid'), {
            columnDefs: cols,
            rowData: rows,
            // The app grid's geometry, so both draw as many cells per frame.
            rowSelection: { mode: 'multiRow', checkboxes: true, headerCheckbox: true },
            rowHeight: 28,
            headerHeight: 30,
            groupHeaderHeight: 26,
            rowBuffer: 10,
            animateRows: false,
          });
          const check = (): void => {
            if (document.querySelector('#grid .ag-row'))
              requestAnimationFrame(() => resolve(performance.now() - start));
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
      [columnDefs, size.assets, size.years] as const,
    );
    await page.waitForTimeout(500);
    const free = await scrollFrames(page, '#grid .ag-grid-viewport');
    await page.waitForTimeout(500);
    const fling = await scrollFrames(page, '#grid .ag-grid-viewport', size.flingStepPx, size.flingMs);
    await page.evaluate("document.querySelector('#grid .ag-grid-viewport').scrollTop = 0");
    await page.locator('#grid .ag-row[row-index="2"] [col-id="en_abs_wf"]').first().click();
    await page.waitForTimeout(500);
    const focused = await scrollFrames(page, '#grid .ag-grid-viewport');
    const hover = await measureHover(page, '#grid .ag-header-cell[col-id^="en_"]');
    return { render, free, focused, fling, hover };
  } finally {
    await page.close();
  }
}

/** The pointer moved onto a header to its tooltip shown, median of three (the label in full). */
export async function measureHover(page: Page, selector: string): Promise<number> {
  const times: number[] = [];
  const target = page.locator(selector).first();
  const tooltip = page.locator('.ag-tooltip');
  for (let i = 0; i < 3; i++) {
    await page.mouse.move(1, 1);
    await tooltip.waitFor({ state: 'detached' });
    const box = (await target.boundingBox())!;
    const start = Date.now();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await tooltip.waitFor();
    times.push(Date.now() - start);
  }
  return percentile(times, 50);
}
