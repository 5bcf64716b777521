/** What the UI tests in Chromium share: the errors a page reports, and screenshots to test-results/. */
import type { ConsoleMessage, Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { artifactPath } from './chromium';

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
