/**
 * A TRUE/FALSE cell takes typing as Excel does (issue 30, item 6): true/false/yes/no/1/0 in any
 * case, then Enter, sets the value; a word that means neither is refused in the editor, the cell
 * keeping what it had.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  gridCell,
  openUiPage,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('typing in a TRUE/FALSE cell', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
  });
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-boolean'));
  afterAll(() => ui?.close());

  it('sets the value from true/false/yes/no/1/0 in any case, as Excel does', async () => {
    const probe = workspaceProbe(app);
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('tab-annual').click();
    // The first row drawn, and its "Whole building tenant controlled" cell scrolled into view.
    const rowId = (await page
      .locator('[data-testid="annual-grid"] .ag-row[row-id]')
      .first()
      .getAttribute('row-id'))!;
    const [localId, year] = rowId.split(':') as [string, string];
    const target = { localId };
    const path = `annual_data/${year}/tenant_ctrl`;
    const cell = gridCell(page, 'annual-grid', rowId, 'tenant_ctrl');
    const strip = page.locator('[data-testid="annual-grid"] .ag-body-horizontal-scroll-viewport');
    for (let i = 0; i < 100 && !(await cell.isVisible()); i++)
      await strip.evaluate((el) => el.scrollBy({ left: 600 }));
    await cell.scrollIntoViewIfNeeded();
    for (const [typed, expected] of [
      ['FALSE', false],
      ['true', true],
      ['no', false],
      ['Yes', true],
      ['0', false],
      ['1', true],
    ] as const) {
      await cell.click();
      await page.keyboard.type(typed);
      if (typed === 'FALSE') await screenshot(page, 'ui-boolean-typing.png');
      await page.keyboard.press('Enter');
      await expect.poll(() => probe.valueAt(target.localId, path), { message: typed }).toBe(expected);
      await expect.poll(async () => (await cell.textContent())?.trim()).toBe(expected ? 'TRUE' : 'FALSE');
    }
    // Neither yes nor no: refused with the reason, the cell keeps TRUE.
    await cell.click();
    await page.keyboard.type('maybe');
    await page.locator('.list-editor-reason').waitFor();
    expect(await page.locator('.list-editor-reason').textContent()).toMatch(/not in the list/);
    await page.keyboard.press('Enter');
    expect(await probe.valueAt(target.localId, path)).toBe(true);
    expect(ui!.pageErrors).toEqual([]);
  });
});
