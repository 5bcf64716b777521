/** What the UI tests in Chromium share: the errors a page reports, and screenshots to test-results/. */
import type { ConsoleMessage, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import { artifactPath, launchChromium } from '../../support/chromium';
import { startTestApp, type TestApp } from '../../support/test-app';

/** The app, Chromium and one page of it whose errors are watched: what a UI test opens first. */
export interface UiPage {
  app: TestApp;
  browser: Awaited<ReturnType<typeof launchChromium>>;
  page: Page;
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openUiPage(
  opts: {
    app?: Parameters<typeof startTestApp>[0];
    onConsoleError?: Parameters<typeof watchPageErrors>[1];
  } = {},
): Promise<UiPage> {
  const app = await startTestApp(opts.app);
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  page.setDefaultTimeout(10_000);
  return {
    app,
    browser,
    page,
    pageErrors: watchPageErrors(page, opts.onConsoleError),
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: await artifactPath(name) });
}

/** For afterEach: the page as a failed test left it, named after the test. */
export async function screenshotIfFailed(page: Page, ctx: TestContext, prefix: string): Promise<void> {
  if (ctx.task.result?.state === 'fail')
    await screenshot(page, `${prefix}-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`);
}

/**
 * The page's uncaught errors and console errors, in one list a test expects to stay empty. A test
 * that provokes an error on purpose passes `onConsoleError` to sort console errors itself; whatever
 * it pushes to `errors` still counts as a failure.
 */
export function watchPageErrors(
  page: Page,
  onConsoleError: (message: ConsoleMessage, errors: string[]) => void = (message, errors) =>
    errors.push(message.text()),
): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') onConsoleError(message, errors);
  });
  return errors;
}

/** A grid cell as the page draws it: `grid` is the grid's data-testid. */
export function gridCell(page: Page, grid: string, rowId: string, colId: string): Locator {
  return page.locator(`[data-testid="${grid}"] .ag-row[row-id="${rowId}"] [col-id="${colId}"]`).first();
}

/**
 * A grid cell brought into the drawn columns first: AG Grid draws only the columns near the view, and
 * a grid may keep where it was scrolled, so once the row is drawn the strip is walked from its left
 * edge until the cell is drawn.
 */
export async function revealCell(page: Page, grid: string, rowId: string, colId: string): Promise<Locator> {
  const cell = gridCell(page, grid, rowId, colId);
  if (await cell.isVisible()) return cell;
  // The row drawn first: a grid just mounted on a loaded machine has none yet, and walking its strip
  // then ends at its right edge, where the cell's column is never drawn (seen in CI).
  await page.locator(`[data-testid="${grid}"] .ag-row[row-id="${rowId}"]`).first().waitFor();
  const strip = page.locator(`[data-testid="${grid}"] .ag-body-horizontal-scroll-viewport`);
  // Walked again when the grid redraws mid-walk (a tab's grid taking its later rows detached the
  // cell under the scroll once in CI): the walk is done when the cell is drawn and in view.
  await expect
    .poll(
      async () => {
        try {
          await strip.waitFor();
          await strip.evaluate((el) => el.scrollTo({ left: 0 }));
          for (let i = 0; i < 100 && !(await cell.isVisible()); i++)
            await strip.evaluate((el) => el.scrollBy({ left: 400 }));
          await cell.scrollIntoViewIfNeeded({ timeout: 2_000 });
          return true;
        } catch {
          return false;
        }
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return cell;
}

/**
 * The tooltip a cell shows when hovered, hovered afresh on each call: a grid that redraws the cell
 * under a still mouse (its later rows or the start's pull arriving) gives the new cell no
 * mouse-enter, so its tooltip never comes (seen in CI). For `expect.poll`; '' while none shows.
 */
export async function hoveredTooltip(page: Page, cell: Locator): Promise<string> {
  await page.mouse.move(0, 0);
  await cell.hover();
  return (
    (await page
      .locator('.ag-tooltip')
      .textContent({ timeout: 3_000 })
      .catch(() => null)) ?? ''
  );
}

/**
 * What main's workspace holds, read as a second pair of eyes beside the page: an asset by local id,
 * and a value at a document path (`field` or `annual_data/<year>/<field>`; null stays null).
 */
export function workspaceProbe(app: TestApp) {
  const snapshot = () => app.core.handlers['workspace.snapshot']({});
  const assetOf = async (localId: string) => (await snapshot()).assets.find((a) => a.localId === localId);
  const valueAt = async (localId: string, path: string): Promise<unknown> => {
    const asset = await assetOf(localId);
    if (!asset) return undefined;
    const [head, year, field] = path.split('/');
    if (year === undefined) return asset.doc[head!];
    const list = (asset.doc[head!] as Record<string, unknown>[] | undefined) ?? [];
    return list.find((e) => String(e['year']) === year)?.[field!];
  };
  return { snapshot, assetOf, valueAt };
}

// What pasteInPage runs in the page (this tsconfig has no DOM library).
declare const document: {
  activeElement: { dispatchEvent(event: unknown): boolean } | null;
  body: { dispatchEvent(event: unknown): boolean };
};
declare const DataTransfer: new () => {
  setData(type: string, data: string): void;
  getData(type: string): string;
};
declare const ClipboardEvent: new (type: string, init: Record<string, unknown>) => unknown;

/**
 * Clicks a grid cell until the grid has it focused. A key may follow at once: the range takes the
 * click before it (`renderer/src/editing/cell-range.ts`).
 */
export async function focusCell(cell: Locator): Promise<void> {
  await expect
    .poll(async () => {
      await cell.click();
      return (await cell.getAttribute('class'))?.includes('ag-cell-focus') ?? false;
    })
    .toBe(true);
}

/** A paste of text, as Excel's clipboard gives it, on the focused element (headless has no clipboard). */
export function pasteInPage(page: Page, text: string): Promise<void> {
  return page.evaluate((tsv) => {
    const data = new DataTransfer();
    data.setData('text/plain', tsv);
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** A copy (Ctrl+C) on the focused element: the text the page put on the clipboard. */
export function copyInPage(page: Page): Promise<string> {
  return page.evaluate(() => {
    const data = new DataTransfer();
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }),
    );
    return data.getData('text/plain');
  });
}

/**
 * A describe block's UI page: opened before its tests (then handed to `take`, which keeps what the
 * tests use and may prepare more), a screenshot of a failed test under `name`, closed after them.
 */
export function useUiPage(
  name: string,
  take: (ui: UiPage) => void | Promise<void>,
  opts: Parameters<typeof openUiPage>[0] = {},
): void {
  let ui: UiPage | undefined;
  beforeAll(async () => {
    ui = await openUiPage(opts);
    await take(ui);
  });
  afterEach((ctx) => (ui ? screenshotIfFailed(ui.page, ctx, name) : undefined));
  afterAll(() => ui?.close());
}
