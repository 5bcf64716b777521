/**
 * Delete as a new user meets it, in Chromium against the embedded sandbox (issue 30, item 3): Delete
 * takes the ticked rows when there are any (not the cursor's row), asks first in the app's own
 * dialog naming them ("Delete 2 ticked assets: A, B?") and summarising large sets; the deleted rows
 * stay struck through; Ctrl+Z and Ctrl+Y (history in main) restore and delete them again; Sync
 * names the assets it will delete on the service in the app's own dialog and deletes them only once
 * the analyst confirms. The browser's own `confirm` never shows.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { gridCell, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('delete, undo and the sync confirmation', () => {
  let app: TestApp;
  let page: Page;
  let first: AssetView;
  let second: AssetView;
  let third: AssetView;
  const nativeDialogs: string[] = [];
  const probe = () => workspaceProbe(app);
  const statusOf = async (localId: string) => (await probe().assetOf(localId))?.status ?? 'gone';
  const row = (localId: string) =>
    page.locator(`[data-testid="assets-grid"] .ag-row[row-id="${localId}"]`).first();
  const tick = (localId: string) => row(localId).locator('input[type="checkbox"]').first().check();
  const confirm = (p: Page) => p.getByTestId('confirm-dialog');
  const nameOf = (a: AssetView) => String(a.doc['name']);

  useUiPage('ui-delete', async (ui) => {
    ({ app, page } = ui);
    page.on('dialog', (dialog) => {
      nativeDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const assets = (await probe().snapshot()).assets.filter((a) => a.serviceAssetId !== null);
    [first, second, third] = assets as [AssetView, AssetView, AssetView];
  });

  it('deletes the ticked rows, not the cursor row, after asking in the app; undo and redo', async () => {
    await page.goto(app.host.launchUrl);
    await gridCell(page, 'assets-grid', first.localId, 'name').waitFor();
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await tick(second.localId);
    await tick(third.localId);
    // The cursor on another row: the ticked rows are what Delete takes.
    await gridCell(page, 'assets-grid', first.localId, 'name').click();
    await page.getByTestId('delete-assets').click();
    const dialog = confirm(page);
    await dialog.waitFor();
    expect(await page.getByTestId('confirm-message').textContent()).toBe(
      `Delete 2 ticked assets: ${nameOf(second)}, ${nameOf(third)}?`,
    );
    await screenshot(page, 'ui-delete-confirm.png');
    // Cancel: nothing deleted.
    await page.getByTestId('confirm-cancel').click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect([await statusOf(second.localId), await statusOf(third.localId)]).toEqual(['clean', 'clean']);

    await page.getByTestId('delete-assets').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => statusOf(second.localId)).toBe('deleted');
    expect(await statusOf(third.localId)).toBe('deleted');
    expect(await statusOf(first.localId)).toBe('clean');
    await expect.poll(() => row(third.localId).getAttribute('class')).toContain('row-deleted');
    // It says what it did.
    await expect
      .poll(() => page.locator('.notices').textContent())
      .toContain(`Deleted ${nameOf(second)}, ${nameOf(third)}`);
    await screenshot(page, 'ui-delete-struck-through.png');

    // One undo step restores both; redo deletes both again.
    await gridCell(page, 'assets-grid', first.localId, 'name').click();
    await page.keyboard.press('Control+z');
    await expect.poll(() => statusOf(second.localId)).toBe('clean');
    expect(await statusOf(third.localId)).toBe('clean');
    await page.getByTestId('redo').click();
    await expect.poll(() => statusOf(second.localId)).toBe('deleted');
    expect(await statusOf(third.localId)).toBe('deleted');
    expect(nativeDialogs).toEqual([]);
  });

  it('with nothing ticked, asks about the row at the cursor', async () => {
    // Untick everything the grid still has ticked (the header box toggles all).
    await page.locator('[data-testid="assets-grid"] .ag-header-select-all input').first().check();
    await page.locator('[data-testid="assets-grid"] .ag-header-select-all input').first().uncheck();
    await gridCell(page, 'assets-grid', first.localId, 'name').click();
    await page.getByTestId('delete-assets').click();
    expect(await page.getByTestId('confirm-message').textContent()).toBe(
      `Delete the asset at the cursor: ${nameOf(first)}?`,
    );
    await page.getByTestId('confirm-cancel').click();
    expect(await statusOf(first.localId)).toBe('clean');
  });

  it('summarises a large set: the first names and how many more', async () => {
    await page.locator('[data-testid="assets-grid"] .ag-header-select-all input').first().check();
    const live = (await probe().snapshot()).assets.filter((a) => a.status !== 'deleted').length;
    await page.getByTestId('delete-assets').click();
    const message = (await page.getByTestId('confirm-message').textContent()) ?? '';
    expect(message).toMatch(
      new RegExp(`^Delete ${live} ticked assets: ([^,]+, ){4}[^,]+ and ${live - 5} more\\?$`),
    );
    await screenshot(page, 'ui-delete-confirm-many.png');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm(page).isVisible()).toBe(false);
    expect(await statusOf(first.localId)).toBe('clean');
    await page.locator('[data-testid="assets-grid"] .ag-header-select-all input').first().uncheck();
  });

  it('Sync lists the assets it will delete by name and id in the app, and deletes them only when confirmed', async () => {
    // Declined: the deletes stay pending and the assets stay on the service.
    await page.getByTestId('sync-button').click();
    await page.getByTestId('review-sync-now').click();
    const items = page.getByTestId('confirm-items');
    await items.waitFor({ timeout: 30_000 });
    const listed = (await items.textContent()) ?? '';
    expect(listed).toContain(`${nameOf(second)} (id ${second.serviceAssetId})`);
    expect(listed).toContain(`${nameOf(third)} (id ${third.serviceAssetId})`);
    await screenshot(page, 'ui-delete-sync-confirm.png');
    await page.getByTestId('confirm-cancel').click();
    await expect.poll(() => page.getByTestId('sync-button').isDisabled(), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => statusOf(second.localId), { timeout: 30_000 }).toBe('deleted');

    // Confirmed: both gone from the service and the workspace.
    await page.getByTestId('sync-button').click();
    await page.getByTestId('review-sync-now').click();
    await page.getByTestId('confirm-ok').click({ timeout: 30_000 });
    await expect.poll(() => statusOf(second.localId), { timeout: 30_000 }).toBe('gone');
    expect(await statusOf(third.localId)).toBe('gone');
    expect(await statusOf(first.localId)).toBe('clean');
    expect(nativeDialogs).toEqual([]);
  });
});
