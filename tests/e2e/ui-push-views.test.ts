/**
 * Issue 35: after a push the window applies the views the sync answered with, in Chromium against
 * the embedded sandbox: the new rows turn clean without the workspace being read again (no
 * `workspace.snapshot` nor `workspace.assets` call after Sync), and the status bar's counts follow.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, useUiPage } from '../support/ui-page';
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
        fields: {
          name: `Pushed asset ${i}`,
          country: 'NL',
          state_province: 'Noord-Holland',
          city: 'Amsterdam',
          ownership: 100,
          property_type_code: 'OCHI',
          size: 1_000 + i,
        },
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
