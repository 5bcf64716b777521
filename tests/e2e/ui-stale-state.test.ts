/**
 * Nothing stale after a sync or a switch of entity (issue 30, item 11), in Chromium against the
 * embedded sandbox: a dry run's result goes when a sync runs; the selection's cell count, the last
 * sync's report and a dry run of one entity are not shown on another's workspace.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gridCell, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('no stale state after a sync or a switch of entity', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];

  useUiPage('ui-stale-state', async (ui) => {
    ({ app, page, pageErrors } = ui);
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
  });

  it('clears a dry run when a sync runs', async () => {
    await page.getByRole('button', { name: 'Sync panel' }).click();
    await page.getByTestId('dry-run').click();
    await page.getByTestId('dry-run-results').waitFor({ timeout: 30_000 });
    await page.getByTestId('sync-now').click();
    await page.getByTestId('sync-report').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('sync-now').textContent(), { timeout: 30_000 }).toBe('Sync now');
    expect(await page.getByTestId('dry-run-results').count()).toBe(0);
  });

  it("shows neither the selection, the last sync nor the dry run of one entity on another's", async () => {
    const { assets } = await workspaceProbe(app).snapshot();
    await page.getByTestId('dry-run').click();
    await page.getByTestId('dry-run-results').waitFor({ timeout: 30_000 });
    await gridCell(page, 'assets-grid', assets[0]!.localId, 'city').click();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => page.getByTestId('status-range').textContent()).toMatch(/^4 cells/);
    expect(await page.getByTestId('sync-report').count()).toBe(1);

    const session = await app.core.handlers['session.get']({});
    const other = session.entities.find((e) => e.id !== session.activeEntityId)!;
    await page.getByTestId('entity-picker').selectOption(String(other.id));
    await expect
      .poll(async () => (await app.core.handlers['session.get']({})).activeEntityId, { timeout: 30_000 })
      .toBe(other.id);
    await page.getByTestId('status-assets').waitFor();
    await expect.poll(() => page.getByTestId('status-range').count()).toBe(0);
    await expect.poll(() => page.getByTestId('sync-report').count()).toBe(0);
    expect(await page.getByTestId('dry-run-results').count()).toBe(0);
    await screenshot(page, 'ui-stale-state-switched.png');
    expect(pageErrors).toEqual([]);
  });
});
