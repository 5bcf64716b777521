/**
 * The desktop UI as a new user meets it, in Debian's Chromium through the browser host against the
 * embedded sandbox: the demo entity's grids, an invalid edit shown in the cell and the problems panel,
 * a pasted TSV block, fill down, undo and redo, a new asset, a sync that brings the service's ids, and
 * a conflict made by a second client and resolved side by side. Screenshots of each main screen go to
 * test-results/.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import {
  gridCell,
  hoveredTooltip,
  openUiPage,
  pasteInPage,
  revealCell,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
interface PageElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  dispatchEvent(event: unknown): boolean;
}
declare const document: {
  activeElement: PageElement | null;
  body: PageElement;
  elementFromPoint(x: number, y: number): PageElement | null;
};

describe('desktop UI in Chromium', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let pageErrors: string[] = [];
  let first: AssetView;
  let second: AssetView;

  const probe = () => workspaceProbe(app);
  const snapshot = () => probe().snapshot();
  const assetOf = (localId: string) => probe().assetOf(localId);
  const valueAt = (localId: string, path: string) => probe().valueAt(localId, path);
  const cell = (grid: string, rowId: string, colId: string) => gridCell(page, grid, rowId, colId);
  const paste = (text: string) => pasteInPage(page, text);
  const typeInto = async (grid: string, rowId: string, colId: string, text: string) => {
    await focusCell(page, rowId, colId, grid);
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page, pageErrors } = ui);
    const assets = (await snapshot()).assets;
    first = assets[0]!;
    second = assets[1]!;
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui'));

  afterAll(() => ui?.close());

  it('starts on the demo entity with its units, grids and status bar', async () => {
    await page.goto(app.host.launchUrl);
    await cell('assets-grid', first.localId, 'name').waitFor();
    expect(await cell('assets-grid', first.localId, 'name').textContent()).toBe(first.doc['name']);
    await expect.poll(() => page.getByTestId('status-assets').textContent()).toBe('36 assets');
    const picker = page.getByTestId('entity-picker');
    expect(await picker.locator('option:checked').textContent()).toBe('Northwind Core Real Estate Fund');
    const facts = await page.getByTestId('entity-facts').textContent();
    expect(facts).toContain('square metres');
    expect(facts).toContain('EUR');
    expect(await page.getByTestId('online-indicator').textContent()).toContain('Online');
    // Units in headers come from the entity's preferences.
    // The seeded invalid assets are listed as problems before anything is edited.
    await expect.poll(() => page.getByTestId('problem').count()).toBeGreaterThan(0);
    await screenshot(page, 'ui-assets-grid.png');
  });

  it('shows an invalid edit in the cell and the problems panel, and clears it when fixed', async () => {
    await typeInto('assets-grid', first.localId, 'ownership', '150');
    const ownership = cell('assets-grid', first.localId, 'ownership');
    await expect.poll(() => ownership.getAttribute('class')).toContain('cell-error');
    await expect.poll(() => valueAt(first.localId, 'ownership')).toBe(150);
    const problem = page.locator(
      `[data-testid="problem"][data-local-id="${first.localId}"][data-path="ownership"]`,
    );
    await problem.waitFor();
    expect(await problem.textContent()).toContain('must be less than or equal to 100');
    // The message on hover (the pointer comes from outside the grid, as a user's does).
    await expect
      .poll(() => hoveredTooltip(page, ownership), { timeout: 30_000 })
      .toContain('must be less than or equal to 100');
    await screenshot(page, 'ui-validation-error.png');

    // The problems panel jumps to the cell; typing there fixes it.
    await page.mouse.move(0, 0);
    await problem.click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.activeElement;
          return `${el?.closest('.ag-row')?.getAttribute('row-id')}|${el?.getAttribute('col-id')}`;
        }),
      )
      .toBe(`${first.localId}|ownership`);
    await page.keyboard.type('100');
    await page.keyboard.press('Enter');
    await expect.poll(() => valueAt(first.localId, 'ownership')).toBe(100);
    await expect.poll(() => ownership.getAttribute('class')).not.toContain('cell-error');
    await expect.poll(() => problem.count()).toBe(0);
  });

  it("marks both names when an asset takes another's, and clears both when it gives it back", async () => {
    // The first asset's cell is not edited: its row is drawn again because its result changed.
    const firstName = cell('assets-grid', first.localId, 'name');
    const secondName = cell('assets-grid', second.localId, 'name');
    expect(await firstName.getAttribute('class')).not.toContain('cell-error');
    await typeInto('assets-grid', second.localId, 'name', String(first.doc['name']));
    await expect.poll(() => secondName.getAttribute('class')).toContain('cell-error');
    await expect.poll(() => firstName.getAttribute('class')).toContain('cell-error');
    await typeInto('assets-grid', second.localId, 'name', String(second.doc['name']));
    await expect.poll(() => firstName.getAttribute('class')).not.toContain('cell-error');
    await expect.poll(() => secondName.getAttribute('class')).not.toContain('cell-error');
    await expect.poll(() => valueAt(second.localId, 'name')).toBe(second.doc['name']);
  });

  it('pastes a 3x4 TSV block, fills down, and undoes and redoes both', async () => {
    await page.getByTestId('tab-annual').click();
    const size = Number(first.doc['size']);
    const row = (year: number) => `${first.localId}:${year}`;
    // Units in headers come from the entity's preferences.
    expect(
      await page.locator('[data-testid="annual-grid"] .ag-header-cell[col-id="en_cov_wf"]').textContent(),
    ).toContain('m²');
    await cell('annual-grid', row(2020), 'en_abs_wd').click();
    // As Excel puts it on the clipboard: CRLF rows, tab cells, a trailing newline.
    const block = [
      [111111, size, size, 2222],
      [333333, size, size, 4444],
      [555555, size, size, 6666],
    ];
    await paste(block.map((r) => r.join('\t')).join('\r\n') + '\r\n');
    const cols = ['en_abs_wd', 'en_cov_wd', 'en_tot_wd', 'en_abs_we'];
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 4; c++)
        await expect
          .poll(() => valueAt(first.localId, `annual_data/${2020 + r}/${cols[c]}`))
          .toBe(block[r]![c]);
    await expect.poll(() => cell('annual-grid', row(2022), 'en_abs_wd').textContent()).toBe('555555');
    expect(await cell('annual-grid', row(2021), 'en_abs_wd').getAttribute('class')).toContain('cell-changed');
    await screenshot(page, 'ui-annual-paste.png');

    // A district heating figure without its floor areas: the shared rules warn (the service takes it).
    await typeInto('annual-grid', row(2023), 'en_abs_wd', '7777');
    await expect
      .poll(() => cell('annual-grid', row(2023), 'en_abs_wd').getAttribute('class'))
      .toContain('cell-warning');
    await page.keyboard.press('Control+z');
    // Undo (in main) gives the cell back as it was: empty, the field absent as before the edit.
    await expect
      .poll(async () => (await valueAt(first.localId, 'annual_data/2023/en_abs_wd')) ?? null)
      .toBe(null);
    await expect
      .poll(() => cell('annual-grid', row(2023), 'en_abs_wd').getAttribute('class'))
      .not.toContain('cell-warning');

    // Fill down, single cell: 2023 takes 2022's value (Ctrl+D).
    await (await revealCell(page, 'annual-grid', row(2023), 'en_abs_we')).click();
    await page.keyboard.press('Control+d');
    await expect.poll(() => valueAt(first.localId, 'annual_data/2023/en_abs_we')).toBe(6666);

    // Fill down over selected rows: 2023 to 2025 take 2023's water consumption.
    const water = async (year: number) => valueAt(first.localId, `annual_data/${year}/wat_abs_w`);
    const water2023 = await water(2023);
    const water2024 = await water(2024);
    const water2025 = await water(2025);
    expect(water2024).not.toBe(water2023);
    for (const year of [2023, 2024, 2025])
      await page
        .locator(`[data-testid="annual-grid"] .ag-row[row-id="${row(year)}"] input[type="checkbox"]`)
        .first()
        .check();
    await focusCell(page, row(2023), 'wat_abs_w', 'annual-grid');
    await page.keyboard.press('Control+d');
    await expect.poll(() => water(2025)).toBe(water2023);
    expect(await water(2024)).toBe(water2023);
    await screenshot(page, 'ui-annual-fill-down.png');

    // Undo the selection fill, then the single fill; redo both.
    await page.keyboard.press('Control+z');
    await expect.poll(() => water(2025)).toBe(water2025);
    expect(await water(2024)).toBe(water2024);
    await page.keyboard.press('Control+z');
    await expect.poll(() => valueAt(first.localId, 'annual_data/2023/en_abs_we')).not.toBe(6666);
    await page.keyboard.press('Control+y');
    await expect.poll(() => valueAt(first.localId, 'annual_data/2023/en_abs_we')).toBe(6666);
    await page.keyboard.press('Control+y');
    await expect.poll(() => water(2025)).toBe(water2023);
    // The toolbar buttons do the same.
    await page.getByTestId('undo').click();
    await expect.poll(() => water(2025)).toBe(water2025);
    await page.getByTestId('redo').click();
    await expect.poll(() => water(2025)).toBe(water2023);
    expect(await valueAt(first.localId, 'annual_data/2020/en_abs_wd')).toBe(111111);
  });

  it('adds an asset, types and pastes its characteristics, and sees it as a staged new row', async () => {
    await page.getByTestId('tab-assets').click();
    const before = (await snapshot()).assets.length;
    await page.getByTestId('add-asset').click();
    await expect.poll(async () => (await snapshot()).assets.length).toBe(before + 1);
    const created = (await snapshot()).assets.find((a) => a.serviceAssetId === null)!;
    const nameCell = cell('assets-grid', created.localId, 'name');
    await nameCell.waitFor();
    await nameCell.click();
    await paste('Utrecht Tower 99\tNL\tUtrecht\tUtrecht\t1 Canal Street');
    await expect.poll(() => valueAt(created.localId, 'city')).toBe('Utrecht');
    await typeInto('assets-grid', created.localId, 'ownership', '100');
    await focusCell(page, created.localId, 'property_type_code');
    await paste('OCHI');
    await focusCell(page, created.localId, 'size');
    await paste('12,500');
    await expect.poll(() => valueAt(created.localId, 'size')).toBe(12500);
    await expect.poll(() => valueAt(created.localId, 'property_type_code')).toBe('OCHI');
    expect(
      await page
        .locator(`[data-testid="assets-grid"] .ag-row[row-id="${created.localId}"]`)
        .first()
        .getAttribute('class'),
    ).toContain('row-new');
    await expect.poll(() => page.getByTestId('status-pending').textContent()).toContain('1 new');
    // The review lists what the sync will send.
    await page.getByTestId('review-button').click();
    const review = page.getByTestId('review-dialog');
    await expect.poll(() => review.textContent()).toContain('Utrecht Tower 99');
    expect(await review.textContent()).toContain(
      '2020 · Energy consumption, whole building, district heating/cooling',
    );
    await screenshot(page, 'ui-review.png');
    await page.keyboard.press('Escape');
  });

  it('syncs with one click and shows the ids the service gave', async () => {
    // Nothing held back or deleted: Sync sends at once, no review on the way (it is in the panel).
    await page.getByTestId('sync-button').click();
    await page.getByTestId('sync-report').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('review-dialog').isVisible()).toBe(false);
    await expect
      .poll(() => page.getByTestId('sync-push-summary').textContent(), { timeout: 30_000 })
      .toContain('1 created');
    const synced = (await snapshot()).assets.find((a) => a.doc['name'] === 'Utrecht Tower 99')!;
    expect(synced.serviceAssetId).toBeGreaterThan(0);
    expect(synced.status).toBe('clean');
    await focusCell(page, synced.localId, 'service_asset_id');
    await expect
      .poll(() => cell('assets-grid', synced.localId, 'service_asset_id').textContent())
      .toBe(String(synced.serviceAssetId));
    await expect.poll(() => page.getByTestId('status-pending').textContent()).toContain('0 pending');
    // The service now holds the pasted annual values.
    const remote = await sandboxGet(app, first.serviceAssetId!);
    expect(remote.annual_data.find((r) => r.year === 2021)?.['en_abs_wd']).toBe(333333);
    await screenshot(page, 'ui-sync.png');
  });

  it('resolves a conflict with a second client side by side', async () => {
    await typeInto('assets-grid', second.localId, 'city', 'Berlin-Mitte');
    await expect.poll(() => valueAt(second.localId, 'city')).toBe('Berlin-Mitte');
    // A second client changes the same field on the service.
    await sandboxPatch(app, second.serviceAssetId!, { city: 'Potsdam' });
    await page.getByTestId('sync-now').click();
    const row = page.locator('[data-testid="conflict-row"][data-path="city"]');
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('Berlin-Mitte');
    expect(await row.textContent()).toContain('Potsdam');
    await expect
      .poll(() => cell('assets-grid', second.localId, 'city').getAttribute('class'))
      .toContain('cell-conflict');
    await screenshot(page, 'ui-conflict.png');
    await row.getByTestId('keep-mine').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.getByTestId('sync-now').click();
    await expect
      .poll(async () => (await sandboxGet(app, second.serviceAssetId!)).city, { timeout: 30_000 })
      .toBe('Berlin-Mitte');
    expect(pageErrors).toEqual([]);
  });

  it('explains outliers with the intensity across years and the thresholds', async () => {
    await page.getByTestId('tab-outliers').click();
    const view = page.getByTestId('outliers-view');
    await view.waitFor();
    await expect.poll(() => view.locator('.outlier-item').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('kpi-en').textContent()).toContain('LfL limit ±50 %');
    // The intensity across the years is a chart with axes (Chart.js draws it on a canvas).
    expect(await page.locator('[data-testid="kpi-en"] .intensity-chart canvas').count()).toBe(1);
    await screenshot(page, 'ui-outliers.png');
  });

  it("reverts one asset to the service's copy from its row marker", async () => {
    await page.getByTestId('tab-assets').click();
    const synced = await valueAt(second.localId, 'city');
    await typeInto('assets-grid', second.localId, 'city', 'Spandau');
    await expect.poll(() => valueAt(second.localId, 'city')).toBe('Spandau');
    const marker = page
      .locator(`[data-testid="assets-grid"] .ag-row[row-id="${second.localId}"] .revert-button`)
      .first();
    await marker.click();
    await expect.poll(() => valueAt(second.localId, 'city')).toBe(synced);
    await expect.poll(() => cell('assets-grid', second.localId, 'city').textContent()).toBe(synced);
    expect((await assetOf(second.localId))?.status).toBe('clean');
    await expect.poll(() => marker.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});

/** Scrolls a grid (as a user would, with its scrollbars) until the cell is in view, then clicks it. */
async function focusCell(page: Page, rowId: string, colId: string, grid = 'assets-grid'): Promise<void> {
  const root = page.locator(`[data-testid="${grid}"]`);
  const locator = root.locator(`.ag-row[row-id="${rowId}"] [col-id="${colId}"]`).first();
  // Drawn cells may sit in the grid's buffer outside the viewport: "in view" is what the pointer hits.
  const inView = () =>
    locator.count().then((n) =>
      n === 0
        ? false
        : locator.evaluate((el) => {
            const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            return hit !== null && el.contains(hit);
          }),
    );
  const scroll = (selector: string, axis: 'left' | 'top', to: number | 'step') =>
    root
      .locator(selector)
      .first()
      .evaluate(
        (el, [a, t]) => {
          const key = a === 'left' ? 'scrollLeft' : 'scrollTop';
          el[key] = t === 'step' ? el[key] + (a === 'left' ? 250 : 300) : Number(t);
        },
        [axis, to] as const,
      );
  const settle = () => page.waitForTimeout(40);
  if (!(await inView())) {
    const rowInView = async () => {
      const row = root.locator(`.ag-row[row-id="${rowId}"]`).first();
      if ((await row.count()) === 0) return false;
      // The pinned columns show every row: hit-test the row's height at the grid's left edge.
      return root.evaluate((gridEl, id) => {
        const el = gridEl.querySelector(`.ag-row[row-id="${id}"]`);
        if (!el) return false;
        const r = el.getBoundingClientRect();
        const g = gridEl.getBoundingClientRect();
        const hit = document.elementFromPoint(g.x + 60, r.y + r.height / 2);
        return hit?.closest('.ag-row')?.getAttribute('row-id') === id;
      }, rowId);
    };
    if (!(await rowInView())) {
      await scroll('.ag-grid-viewport', 'top', 0);
      await settle();
      for (let i = 0; i < 200 && !(await rowInView()); i++) {
        await scroll('.ag-grid-viewport', 'top', 'step');
        await settle();
      }
    }
    if (!(await inView())) {
      // Along the row with the arrow keys from its pinned first column, as a keyboard user goes.
      const pinned = root
        .locator(`.ag-row[row-id="${rowId}"] [col-id="${grid === 'assets-grid' ? 'name' : 'year'}"]`)
        .first();
      await pinned.click();
      const focusedCol = () => page.evaluate(() => document.activeElement?.getAttribute('col-id') ?? null);
      for (let i = 0; i < 250 && (await focusedCol()) !== colId; i++) await page.keyboard.press('ArrowRight');
      await settle();
    }
  }
  await locator.click();
}

async function sandboxGet(app: TestApp, serviceAssetId: number) {
  const entityId = app.core.sandbox.entityIds[0];
  const response = await fetch(
    `${app.core.sandbox.baseUrl}/api/v1/entities/${entityId}/assets/${serviceAssetId}`,
    {
      headers: { Authorization: `Bearer ${app.core.sandbox.token}` },
    },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    city: string;
    annual_data: Array<Record<string, unknown> & { year: number }>;
  };
}

async function sandboxPatch(
  app: TestApp,
  serviceAssetId: number,
  body: Record<string, unknown>,
): Promise<void> {
  const entityId = app.core.sandbox.entityIds[0];
  const response = await fetch(
    `${app.core.sandbox.baseUrl}/api/v1/entities/${entityId}/assets/${serviceAssetId}`,
    {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${app.core.sandbox.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  expect(response.status).toBe(200);
}
