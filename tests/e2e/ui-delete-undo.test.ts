/**
 * Delete as a new user meets it, in Chromium against the embedded sandbox: Delete takes the row under
 * the cursor, not ticked rows elsewhere; the deleted row stays struck through; Ctrl+Z and Ctrl+Y
 * (history in main) restore and delete it again; Sync names the asset it will delete on the service
 * and deletes it only once the analyst confirms.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import {
  gridCell,
  openUiPage,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';
import type { TestApp } from '../support/test-app';

describe('delete, undo and the sync confirmation', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let first: AssetView;
  let second: AssetView;
  const probe = () => workspaceProbe(app);
  const statusOf = async (localId: string) => (await probe().assetOf(localId))?.status ?? 'gone';
  const row = (localId: string) =>
    page.locator(`[data-testid="assets-grid"] .ag-row[row-id="${localId}"]`).first();

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
    const assets = (await probe().snapshot()).assets.filter((a) => a.serviceAssetId !== null);
    first = assets[0]!;
    second = assets[1]!;
  });
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-delete'));
  afterAll(() => ui?.close());

  it('deletes the focused row only, strikes it through, and undoes and redoes the delete', async () => {
    await page.goto(app.host.launchUrl);
    await gridCell(page, 'assets-grid', first.localId, 'name').waitFor();
    // A ticked row elsewhere is not what the analyst is looking at: Delete leaves it alone.
    await row(second.localId).locator('input[type="checkbox"]').first().check();
    await gridCell(page, 'assets-grid', first.localId, 'name').click();
    await page.getByTestId('delete-assets').click();
    await expect.poll(() => statusOf(first.localId)).toBe('deleted');
    expect(await statusOf(second.localId)).toBe('clean');
    await expect.poll(() => row(first.localId).getAttribute('class')).toContain('row-deleted');
    await screenshot(page, 'ui-delete-struck-through.png');

    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect.poll(() => statusOf(first.localId)).toBe('clean');
    await expect.poll(() => row(first.localId).getAttribute('class')).not.toContain('row-deleted');
    await page.getByTestId('redo').click();
    await expect.poll(() => statusOf(first.localId)).toBe('deleted');
  });

  it('Sync lists the asset it will delete by name and id, and deletes it only when confirmed', async () => {
    const asked: string[] = [];
    let answer = false;
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    // Declined: the delete stays pending and the asset stays on the service.
    // Sync shows what will be sent, assets and responses, and sends it on "Sync now".
    await page.getByTestId('sync-button').click();
    await page.getByTestId('review-sync-now').click();
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(1);
    expect(asked[0]).toContain(String(first.doc['name']));
    expect(asked[0]).toContain(`id ${first.serviceAssetId}`);
    await expect.poll(() => page.getByTestId('sync-button').isDisabled(), { timeout: 30_000 }).toBe(false);
    await expect.poll(() => statusOf(first.localId), { timeout: 30_000 }).toBe('deleted');

    answer = true;
    // Sync shows what will be sent, assets and responses, and sends it on "Sync now".
    await page.getByTestId('sync-button').click();
    await page.getByTestId('review-sync-now').click();
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(2);
    await expect.poll(() => statusOf(first.localId), { timeout: 30_000 }).toBe('gone');
    expect(await statusOf(second.localId)).toBe('clean');
  });
});
