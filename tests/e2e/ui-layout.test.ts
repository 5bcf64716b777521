/** The window at the smallest size the app allows (1024x640): nothing scrolls sideways, Sync and the status bar stay in view. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openUiPage, screenshot, type UiPage } from '../support/ui-page';
import type { TestApp } from '../support/test-app';

describe('layout at 1024x640', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
    await page.setViewportSize({ width: 1024, height: 640 });
  });
  afterAll(() => ui?.close());

  it('fits: no sideways scroll, the Sync button and the status bar in view', async () => {
    await page.goto(app.host.launchUrl);
    await page.getByTestId('assets-grid').waitFor();
    for (const tab of ['assets', 'annual', 'portfolio', 'outliers', 'responses']) {
      await page.getByTestId(`tab-${tab}`).click();
      // The page's own measure of itself (a string: the test's types know no DOM).
      const size = (await page.evaluate(
        '({ scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight })',
      )) as { scrollWidth: number; scrollHeight: number };
      expect(size, tab).toEqual({ scrollWidth: 1024, scrollHeight: 640 });
    }
    for (const id of ['sync-button', 'status-bar']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box, id).not.toBeNull();
      expect(box!.x + box!.width, id).toBeLessThanOrEqual(1024.5); // subpixel borders
      expect(box!.y + box!.height, id).toBeLessThanOrEqual(640.5);
    }
    await screenshot(page, 'ui-layout-1024x640.png');
  });
});
