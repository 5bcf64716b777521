/**
 * A cell's history as an analyst opens it, in Chromium against the embedded sandbox (issue 31): a
 * typed value, then the cell menu (right click) names the shortcut and opens the history, which
 * lists the typed value over the value the first pull brought from the service; Alt+H opens it
 * from the keyboard.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { gridCell, screenshot, useUiPage, workspaceProbe, type UiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe("a cell's history in the grid", () => {
  let ui: UiPage;
  let app: TestApp;
  let page: Page;
  let asset: AssetView;
  useUiPage('ui-cell-history', async (opened) => {
    ui = opened;
    ({ app, page } = ui);
    const assets = (await workspaceProbe(app).snapshot()).assets.filter((a) => a.serviceAssetId !== null);
    asset = assets[0] as AssetView;
  });

  it('opens from the cell menu and Alt+H, each value with where it came from', async () => {
    await page.goto(app.host.launchUrl);
    const cell = gridCell(page, 'assets-grid', asset.localId, 'city');
    await cell.waitFor();
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    const before = String(asset.doc['city'] ?? '');
    await cell.click();
    await page.keyboard.type('Haarlem');
    await page.keyboard.press('Enter');
    await expect.poll(() => workspaceProbe(app).valueAt(asset.localId, 'city')).toBe('Haarlem');

    await cell.click({ button: 'right' });
    const menu = page.getByTestId('cell-menu');
    await menu.waitFor();
    expect(await menu.textContent()).toContain('Alt+H');
    await screenshot(page, 'ui-cell-history-menu.png');
    await menu.getByRole('menuitem').click();
    const panel = page.getByTestId('cell-history');
    await panel.getByTestId('cell-history-entry').first().waitFor();
    const rows = panel.getByTestId('cell-history-entry');
    expect(await rows.count()).toBe(before ? 2 : 1);
    expect(await rows.nth(0).getAttribute('data-source')).toBe('typed');
    expect(await rows.nth(0).textContent()).toContain('Haarlem');
    if (before) {
      expect(await rows.nth(1).getAttribute('data-source')).toBe('service');
      expect(await rows.nth(1).textContent()).toContain('from the service');
    }
    expect(await panel.locator('h2').textContent()).toContain('City');
    await screenshot(page, 'ui-cell-history-panel.png');
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => panel.isVisible()).toBe(false);

    // From the keyboard: the focused cell's history.
    await cell.click();
    await page.keyboard.press('Alt+h');
    await panel.getByTestId('cell-history-entry').first().waitFor();
    expect(await panel.getByTestId('cell-history-entry').count()).toBe(before ? 2 : 1);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(ui.pageErrors).toEqual([]);
  });
});
