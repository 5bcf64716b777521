/**
 * One click syncs everything (issue 30, item 10), in Chromium against the embedded sandbox: the
 * header's badge counts the answers waiting beside the pending assets; its Sync sends both at once
 * with no dialog when nothing is held back or deleted; the Sync panel's "Sync now" sends answers too;
 * with an asset held back the review opens first, and the review is one click away in the panel.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gridCell, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('one click syncs assets and answers', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  let responseId = 0;

  const probe = () => workspaceProbe(app);
  const waiting = async () =>
    (await app.core.handlers['responses.list']({})).find((r) => r.id === responseId)?.modified;
  const answer = (value: string) =>
    app.core.handlers['responses.setValue']({ responseId, variable: 'LE3_governance', value });
  const syncButton = () => page.getByTestId('sync-button');
  const idle = () =>
    expect.poll(() => syncButton().textContent(), { timeout: 30_000 }).not.toMatch(/Syncing/);

  useUiPage('ui-one-click-sync', async (ui) => {
    ({ app, page, pageErrors } = ui);
    responseId = (await app.core.handlers['responses.list']({}))[0]!.id;
    // An answer ticked in an earlier session: waiting on disk before the window opens.
    await answer('Answered in an earlier session');
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
  });

  it('counts waiting answers in the badge and sends assets and answers at one click, with no dialog', async () => {
    const { assets } = await probe().snapshot();
    const target = assets.find((a) => a.status === 'clean' && a.serviceAssetId !== null)!;
    // The answer waiting from before counts before any edit.
    await expect.poll(() => syncButton().locator('.badge').textContent()).toBe('1');
    const cell = gridCell(page, 'assets-grid', target.localId, 'address');
    await cell.click();
    await page.keyboard.type('Keizersgracht 1');
    await page.keyboard.press('Enter');
    await expect.poll(() => probe().valueAt(target.localId, 'address')).toBe('Keizersgracht 1');
    await expect.poll(() => syncButton().locator('.badge').textContent()).toBe('2');
    await screenshot(page, 'ui-one-click-sync-badge.png');

    await syncButton().click();
    await page.getByTestId('sync-report').waitFor({ timeout: 30_000 });
    await idle();
    // No review was asked for: nothing was held back or deleted.
    expect(await page.getByTestId('review-dialog').isVisible()).toBe(false);
    await expect.poll(waiting, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await probe().assetOf(target.localId))?.status).toBe('clean');
    await expect.poll(() => syncButton().locator('.badge').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("the Sync panel's Sync now sends waiting answers too", async () => {
    await answer('Sent from the panel');
    await expect.poll(waiting).toBe(1);
    await page.getByTestId('sync-now').click();
    await expect.poll(waiting, { timeout: 30_000 }).toBe(0);
    await idle();
  });

  it('opens the review first when an asset would be held back, and the panel opens it in one click', async () => {
    const { assets } = await probe().snapshot();
    const target = assets.find((a) => a.status === 'clean' && a.serviceAssetId !== null)!;
    await app.core.handlers['workspace.edit']({
      edits: [{ localId: target.localId, path: 'size', value: 'not a size' }],
    });
    await syncButton().click();
    const review = page.getByTestId('review-dialog');
    await expect.poll(() => review.isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('review-held-back').isVisible()).toBe(true);
    await review.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => review.isVisible()).toBe(false);

    await page.getByTestId('sync-review').click();
    await expect.poll(() => review.isVisible()).toBe(true);
    await review.getByRole('button', { name: 'Close' }).click();
    expect(pageErrors).toEqual([]);
  });
});
