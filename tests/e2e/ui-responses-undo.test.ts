/**
 * Undo on the Responses tab undoes what its label says (issue 30, item 2): an answer is a labelled
 * step of the workspace's history ("answer to <indicator>"), so ticking an answer and pressing Undo
 * takes the tick back, not an asset edit made earlier on another tab; Redo puts it back, and the next
 * Undo reaches the asset edit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  gridCell,
  openUiPage,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('undo of an answer on the Responses tab', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;

  const indicator = (variable: string): Locator =>
    page.locator(`[data-testid="indicator"][data-variable="${variable}"]`);
  const option = (variable: string, code: string): Locator =>
    indicator(variable).locator(`[data-testid="indicator-option"][data-code="${code}"]`);

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
  });
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-responses-undo'));
  afterAll(() => ui?.close());

  it('undoes the answer just ticked, labelled as such, and leaves the asset edit before it', async () => {
    const probe = workspaceProbe(app);
    const { assets } = await probe.snapshot();
    const asset = assets.find((a) => a.status === 'clean')!;
    const city = asset.doc['city'];
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();

    // An asset edit first, on the Assets tab.
    await gridCell(page, 'assets-grid', asset.localId, 'city').click();
    await page.keyboard.type('Delft');
    await page.keyboard.press('Enter');
    await expect.poll(() => probe.valueAt(asset.localId, 'city')).toBe('Delft');

    // Then an answer ticked on the Responses tab.
    await page.getByTestId('tab-responses').click();
    await page.getByTestId('response-item').first().click();
    await option('LE1_objectives', 'investors').check();
    await expect.poll(() => indicator('LE1_objectives').getAttribute('data-status')).toBe('modified');
    const undoButton = page.getByTestId('undo');
    await expect
      .poll(() => undoButton.getAttribute('title'))
      .toBe('Undo answer to How are the ESG objectives communicated? (Ctrl+Z)');
    await screenshot(page, 'ui-responses-undo-label.png');

    await undoButton.click();
    await expect.poll(() => indicator('LE1_objectives').getAttribute('data-status')).toBe('clean');
    expect(await option('LE1_objectives', 'investors').isChecked()).toBe(false);
    // The asset edit is untouched, still pending.
    expect(await probe.valueAt(asset.localId, 'city')).toBe('Delft');
    const responseId = Number(
      await page.getByTestId('response-item').first().getAttribute('data-response-id'),
    );
    const stored = async () =>
      (await app.core.handlers['responses.open']({ responseId })).values.find(
        (v) => v.variable === 'LE1_objectives',
      )?.value;
    expect(await stored()).toEqual(['public']);
    await expect.poll(() => undoButton.getAttribute('title')).toMatch(/^Undo edit of 1 cell/);

    // Redo ticks it again; two undos later the asset edit is undone too.
    await page.getByTestId('redo').click();
    await expect.poll(() => option('LE1_objectives', 'investors').isChecked()).toBe(true);
    expect(await stored()).toEqual(['public', 'investors']);
    await undoButton.click();
    await expect.poll(() => option('LE1_objectives', 'investors').isChecked()).toBe(false);
    await undoButton.click();
    await expect.poll(() => probe.valueAt(asset.localId, 'city')).toBe(city);
    expect(ui!.pageErrors).toEqual([]);
  });
});
