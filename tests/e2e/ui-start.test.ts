/**
 * A restart on a workspace larger than the first page (issue 18): the grid draws from disk at once,
 * the rest of the assets is read in pages behind it, and the session comes up after.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { screenshot, screenshotIfFailed, watchPageErrors } from '../support/ui-page';
import { startTestApp, type TestApp } from '../support/test-app';

const added = 2_400;

describe('start on a large workspace', () => {
  let app: TestApp | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-start'));
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('draws the first page, reads the rest in pages and then shows the session', async () => {
    const first = await startTestApp();
    await first.core.handlers['workspace.createAssets']({
      rows: Array.from({ length: added }, (_, i) => ({ fields: { name: `Loaded later ${i}` }, edits: [] })),
      edits: [],
      label: 'adding assets',
    });
    const total = (await first.core.handlers['workspace.snapshot']({})).assets.length;
    await first.close();

    app = await startTestApp({ dataDir: first.dataDir, waitForSession: false });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(20_000);
    const pageErrors = watchPageErrors(page);
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    if (await guide.isVisible()) await guide.click();

    await expect.poll(() => page.getByTestId('status-assets').textContent()).toBe(`${total} assets`);
    await page.getByTestId('status-loading').waitFor({ state: 'detached' });
    // The last asset is in the grid: Ctrl+End from a cell goes to the last row.
    await page.locator('[data-testid="assets-grid"] .ag-row[row-index="0"] [col-id="name"]').first().click();
    await page.keyboard.press('Control+End');
    await page
      .getByText(`Loaded later ${added - 1}`)
      .first()
      .waitFor();
    await page
      .getByText(/Signed in/)
      .first()
      .waitFor();
    await screenshot(page, 'ui-start-large.png');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
