/**
 * Issue 35: after a push the window applies the views the sync answered with, in Chromium against
 * the embedded sandbox: the new rows turn clean without the workspace being read again (no
 * `workspace.snapshot` nor `workspace.assets` call after Sync), and the status bar's counts follow.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { localSandboxId } from '../../electron/auth/connections';
import { connectionFolder } from '../../electron/storage/paths';
import { WorkspaceStore } from '../../electron/workspace/workspace-store';
import { screenshot, useUiPage } from '../support/ui-page';
import { amsterdamOffice } from '../../support/sync-harness';
import type { TestApp } from '../../support/test-app';

describe('a push answers with the views it changed', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  const created: string[] = [];
  /** The window's reads of the whole workspace (a snapshot and its pages), counted from main. */
  const reads = { snapshot: 0, pages: 0 };

  useUiPage('ui-push-views', async (ui) => {
    ({ app, page, pageErrors } = ui);
    for (const i of [1, 2, 3]) {
      const view = await app.core.handlers['workspace.createAsset']({
        fields: amsterdamOffice(`Pushed asset ${i}`, i),
      });
      created.push(view.localId);
    }
    const { handlers } = app.core;
    const snapshot = handlers['workspace.snapshot'];
    const pages = handlers['workspace.assets'];
    handlers['workspace.snapshot'] = (args) => (reads.snapshot++, snapshot(args));
    handlers['workspace.assets'] = (args) => (reads.pages++, pages(args));
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
  });

  it('turns the pushed rows clean without reading the workspace again', async () => {
    await page
      .getByTestId('status-pending')
      .filter({ hasText: /^3 pending/ })
      .waitFor();
    // The new rows are the last ones: scrolled into view.
    await page.evaluate(
      'document.querySelector(\'[data-testid="assets-grid"] .ag-grid-viewport\').scrollTop = 1e6',
    );
    const statusOf = (localId: string) =>
      page.locator(`[data-testid="assets-grid"] .ag-row[row-id="${localId}"] [col-id="__status"]`).first();
    for (const localId of created)
      await expect.poll(() => statusOf(localId).locator('.status-new').count()).toBe(1);
    const before = { ...reads };
    expect(before.snapshot).toBeGreaterThan(0);

    await page.getByTestId('sync-button').click();
    await page
      .getByTestId('status-pending')
      .filter({ hasText: /^0 pending/ })
      .waitFor({ timeout: 30_000 });
    // A clean row's status cell is blank: the rows are there, none marked new any more.
    for (const localId of created) {
      await expect.poll(() => statusOf(localId).locator('.status-mark').count()).toBe(0);
      expect(
        await page.locator(`[data-testid="assets-grid"] .ag-row[row-id="${localId}"]`).count(),
      ).toBeGreaterThan(0);
    }
    await screenshot(page, 'ui-push-views.png');
    // The sync's answer brought the views; nothing was read whole (its pull brought nothing new).
    await page.waitForTimeout(500);
    expect(reads).toEqual(before);
    expect(pageErrors).toEqual([]);
  });
});

/**
 * Past a thousand rows the grid takes a push's answer in place (`grid-rows.ts` `updateInPlace`):
 * the rows drawn then lose their "new" mark and class and show the service's id, and rows drawn
 * only later, scrolled to, show the same.
 */
describe('a push of many rows, taken in place', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  const count = 1_200;

  useUiPage('ui-push-views-bulk', async (ui) => {
    ({ app, page, pageErrors } = ui);
    const entityId = (await app.core.handlers['session.get']({})).activeEntityId!;
    // Seeded behind the app, as the sync bench does: a second connection to the workspace's file.
    const seed = WorkspaceStore.open(
      join(connectionFolder(app.dataDir, localSandboxId), `entity-${entityId}.sqlite`),
    );
    seed.transaction(() => {
      for (let i = 0; i < count; i++) seed.createAsset(amsterdamOffice(`Bulk asset ${i}`, i));
    });
    seed.close();
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
  });

  /**
   * The drawn rows of the assets grid: id, whether marked new, its cells marked changed (the pinned
   * name's among them), and the id column's text (null when not drawn). A row is drawn in parts (its pinned columns apart), each carrying the row's classes.
   */
  const drawnRows = () =>
    page.getByTestId('assets-grid').evaluate((grid) => {
      const rows = new Map<
        string,
        { rowId: string; newClass: boolean; changedCells: number; assetId: string | null }
      >();
      for (const part of grid.querySelectorAll('.ag-row[row-id]')) {
        const rowId = part.getAttribute('row-id')!;
        const row = rows.get(rowId) ?? { rowId, newClass: false, changedCells: 0, assetId: null };
        row.newClass ||= part.classList.contains('row-new');
        row.changedCells += part.querySelectorAll('.cell-changed').length;
        row.assetId ??= part.querySelector('[col-id="service_asset_id"]')?.textContent ?? null;
        rows.set(rowId, row);
      }
      return [...rows.values()];
    });
  const scrollTo = (top: number) =>
    page.evaluate(
      `document.querySelector('[data-testid="assets-grid"] .ag-grid-viewport').scrollTop = ${top}`,
    );

  it(
    'marks the drawn rows clean with their ids, and the rows drawn later too',
    { timeout: 120_000 },
    async () => {
      await page
        .getByTestId('status-pending')
        .filter({ hasText: new RegExp(`^${count} pending`) })
        .waitFor({ timeout: 30_000 });
      await scrollTo(28 * 200);
      // The id column is the last: the grid scrolled to its right end draws it. Its strip is walked
      // back and forth while waiting: AG Grid drops a strip's scroll that comes while the body's own
      // (vertical) scroll still holds it, and a strip already at its end fires no second one.
      await expect
        .poll(
          async () => {
            await page.getByTestId('assets-grid').evaluate(async (grid) => {
              const strip = grid.querySelector('.ag-body-horizontal-scroll-viewport')!;
              strip.scrollTo({ left: strip.scrollLeft - 50 });
              await new Promise((done) => setTimeout(done, 50));
              strip.scrollTo({ left: 1e6 });
            });
            return (await drawnRows()).filter((r) => r.newClass && r.changedCells > 0 && r.assetId === '')
              .length;
          },
          { timeout: 10_000 },
        )
        .toBeGreaterThan(5);
      const drawn = new Set((await drawnRows()).map((r) => r.rowId));

      await page.getByTestId('sync-button').click();
      await page
        .getByTestId('status-pending')
        .filter({ hasText: /^0 pending/ })
        .waitFor({ timeout: 60_000 });
      const after = await drawnRows();
      expect(after.filter((r) => drawn.has(r.rowId)).length).toBeGreaterThan(5);
      for (const row of after) {
        expect(row.newClass).toBe(false);
        expect(row.changedCells).toBe(0);
        expect(row.assetId).toMatch(/^\d+$/);
      }
      expect(await page.locator('[data-testid="assets-grid"] .status-new').count()).toBe(0);

      // Rows not drawn when the answer came.
      await scrollTo(28 * 1_000);
      await expect
        .poll(async () => (await drawnRows()).filter((r) => !drawn.has(r.rowId)).length)
        .toBeGreaterThan(5);
      for (const row of await drawnRows()) {
        expect(row.newClass).toBe(false);
        expect(row.changedCells).toBe(0);
        expect(row.assetId).toMatch(/^\d+$/);
      }
      await screenshot(page, 'ui-push-views-bulk.png');
      expect(pageErrors).toEqual([]);
    },
  );
});
