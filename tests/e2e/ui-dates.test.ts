/**
 * Dates and data periods (issue 30, item 17), in Chromium against the embedded sandbox: a data
 * period in another year than its row is a warning in the problems panel that leads to its cell; a
 * typed "01/03/2025" (1 March or 3 January?) is refused with the reason, the cell keeps its value.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { gridCell, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
interface PageElement {
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
declare const document: { querySelector(selector: string): PageElement | null };

describe('dates and data periods', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];

  const probe = () => workspaceProbe(app);

  useUiPage('ui-dates', (ui) => {
    ({ app, page, pageErrors } = ui);
  });

  it("warns of a data period outside its row's year and refuses an ambiguous typed date", async () => {
    const { assets } = await probe().snapshot();
    const target = assets.find(
      (a) =>
        a.status !== 'deleted' &&
        ((a.doc['annual_data'] as Record<string, unknown>[] | undefined) ?? []).some(
          (r) => r['year'] === 2021,
        ),
    )!;
    // A 2025 period typed on the 2021 row.
    await app.core.handlers['workspace.edit']({
      edits: [{ localId: target.localId, path: 'annual_data/2021/en_data_from', value: '2025-02-01' }],
    });
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('problems-panel').waitFor();
    await page.getByLabel('Show warnings').check();
    const problem = page.locator(
      `[data-testid="problem"][data-local-id="${target.localId}"][data-path="annual_data/2021/en_data_from"]`,
    );
    await expect.poll(() => problem.textContent()).toContain("falls outside the row's year (2021)");
    await screenshot(page, 'ui-dates-period-warning.png');

    // The warning leads to the cell; typing an ambiguous date there is refused, with the reason.
    await problem.click();
    const focused = () =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="annual-grid"] .ag-cell-focus');
        return el ? `${el.closest('.ag-row')?.getAttribute('row-id')}/${el.getAttribute('col-id')}` : null;
      });
    await expect.poll(focused).toBe(`${target.localId}:2021/en_data_from`);
    await page.keyboard.type('01/03/2025');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.notices').textContent())
      .toMatch(/Energy data from: "01\/03\/2025" is ambiguous.*YYYY-MM-DD/);
    expect(await probe().valueAt(target.localId, 'annual_data/2021/en_data_from')).toBe('2025-02-01');
    // An unambiguous one is taken, as ISO.
    await gridCell(page, 'annual-grid', `${target.localId}:2021`, 'en_data_from').click();
    await page.keyboard.type('15/03/2021');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => probe().valueAt(target.localId, 'annual_data/2021/en_data_from'))
      .toBe('2021-03-15');
    await expect.poll(() => problem.count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
