/**
 * The window at the smallest size the app allows (1024x640), with and without the side panel and the
 * find bar (issue 30, item 5): nothing scrolls sideways, the header stays one line with Sync in view,
 * the status bar one line, the find bar whole and clear of the side panel.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('layout at 1024x640', () => {
  let app: TestApp;
  let page: Page;
  const width = 1024;
  const height = 640;

  useUiPage('ui-layout', async (ui) => {
    ({ app, page } = ui);
    await page.setViewportSize({ width, height });
  });

  // The page's own measure of itself (a string: the test's types know no DOM).
  const pageSize = async () =>
    (await page.evaluate(
      '({ scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight, innerWidth: window.innerWidth })',
    )) as { scrollWidth: number; scrollHeight: number; innerWidth: number };
  const boxOf = async (locator: Locator, what: string) => {
    const box = await locator.boundingBox();
    expect(box, what).not.toBeNull();
    return box!;
  };
  /** Inside the window, and not cut by its own box (text wider than the element is clipped). */
  const inWindow = async (locator: Locator, what: string) => {
    const box = await boxOf(locator, what);
    expect(box.x, what).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, what).toBeLessThanOrEqual(width + 0.5); // subpixel borders
    expect(box.y + box.height, what).toBeLessThanOrEqual(height + 0.5);
    const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped, `${what} is cut`).toBe(false);
    return box;
  };
  /** One line: every child's middle at one height, and no text inside wrapped onto a second line. */
  const oneLine = async (locator: Locator, what: string) => {
    const { middles, wrapped } = await locator.evaluate((root) => {
      const shown = [...root.children].filter((c) => c.getBoundingClientRect().width > 0);
      const wraps: string[] = [];
      for (const el of root.querySelectorAll('*')) {
        const texts = [...el.childNodes].filter((n) => n.nodeType === 3 && (n.textContent ?? '').trim());
        for (const node of texts) {
          const range = document.createRange();
          range.selectNodeContents(node);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) wraps.push((node.textContent ?? '').trim());
        }
      }
      return {
        middles: shown.map((c) => c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2),
        wrapped: wraps,
      };
    });
    expect(Math.max(...middles) - Math.min(...middles), `${what} wraps`).toBeLessThan(8);
    expect(wrapped, `${what}: text on two lines`).toEqual([]);
  };

  const checkFits = async (label: string) => {
    for (const tab of ['assets', 'annual', 'portfolio', 'outliers', 'responses']) {
      await page.getByTestId(`tab-${tab}`).click();
      const size = await pageSize();
      expect(size.scrollWidth, `${label} ${tab}`).toBeLessThanOrEqual(size.innerWidth);
      expect(size.scrollHeight, `${label} ${tab}`).toBeLessThanOrEqual(height);
    }
    await page.getByTestId('tab-assets').click();
    await inWindow(page.getByTestId('sync-button'), `${label}: Sync`);
    await inWindow(page.getByTestId('status-bar'), `${label}: status bar`);
    await inWindow(page.getByTestId('status-errors'), `${label}: problems count`);
    await oneLine(page.locator('.app-header'), `${label}: header`);
    await oneLine(page.getByTestId('status-bar'), `${label}: status bar`);
  };

  it('fits with the side panel: no sideways scroll, header and status bar one line each', async () => {
    await page.goto(app.host.launchUrl);
    await page.getByTestId('assets-grid').waitFor();
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    // The demo entity has errors: the Problems panel is open beside the grid.
    await page.getByTestId('problems-panel').waitFor();
    await checkFits('with the panel');
    await screenshot(page, 'ui-layout-1024x640-panel.png');
  });

  it('keeps the find bar whole and clear of the side panel, its close button in reach', async () => {
    await page.locator('[data-testid="assets-grid"] .ag-row[row-id] [col-id="name"]').first().click();
    await page.keyboard.press('Control+f');
    const bar = page.locator('.find-bar');
    await bar.waitFor();
    await screenshot(page, 'ui-layout-1024x640-find.png');
    const size = await pageSize();
    expect(size.scrollWidth).toBeLessThanOrEqual(size.innerWidth);
    const panel = await boxOf(page.getByTestId('problems-panel'), 'side panel');
    for (const id of ['replace-scope', 'find-close', 'replace-all']) {
      const box = await inWindow(page.getByTestId(id), id);
      expect(box.x + box.width, `${id} under the side panel`).toBeLessThanOrEqual(panel.x + 0.5);
    }
    // The scope's words are whole: the select is as wide as its chosen option's text.
    const scopeCut = await page.getByTestId('replace-scope').evaluate((el) => {
      const select = el as unknown as {
        selectedOptions: ArrayLike<{ textContent: string | null }>;
        clientWidth: number;
      };
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.textContent = select.selectedOptions[0]?.textContent ?? '';
      document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      return text > select.clientWidth;
    });
    expect(scopeCut, '"in this column" is cut').toBe(false);
    await page.getByTestId('find-close').click();
  });

  it('fits without the side panel too, with changes pending (a longer status bar)', async () => {
    await page.locator('[data-testid="assets-grid"] .ag-row[row-id] [col-id="city"]').first().click();
    await page.keyboard.type('Schiedam');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('status-pending').textContent()).toMatch(/^1 pending/);
    await page.getByTestId('toggle-problems').click();
    await expect.poll(() => page.locator('.app-main.with-panel').count()).toBe(0);
    await checkFits('without the panel');
    await screenshot(page, 'ui-layout-1024x640.png');
  });
});

// What the measures run in the page (this tsconfig has no DOM library).
declare const document: {
  createRange(): { selectNodeContents(node: unknown): void; getClientRects(): Iterable<{ top: number }> };
  createElement(tag: 'span'): {
    style: { font: string };
    textContent: string | null;
    getBoundingClientRect(): { width: number };
    remove(): void;
  };
  body: { append(node: unknown): void };
};
declare const getComputedStyle: (el: unknown) => { font: string };
