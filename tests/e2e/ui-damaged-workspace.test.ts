/**
 * A restart on a workspace whose file was damaged (issue 29): the window opens, says which workspace
 * cannot be opened and why, and its "Rebuild from the service" brings the entity's assets back into
 * the grid, the damaged file kept aside unchanged.
 */
import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../support/chromium';
import { startTestApp, type TestApp } from '../../support/test-app';
import { screenshot, screenshotIfFailed, watchPageErrors } from '../support/ui-page';

describe('a damaged workspace file in the window', () => {
  let app: TestApp | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-damaged'));
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('is named with its reason, and rebuilt from the service on request', async () => {
    const first = await startTestApp();
    const entityId = (await first.core.handlers['session.get']({})).activeEntityId as number;
    await first.close();
    const folder = join(
      first.dataDir,
      'workspaces',
      readdirSync(join(first.dataDir, 'workspaces'))[0] as string,
    );
    const fd = openSync(join(folder, `entity-${entityId}.sqlite`), 'r+');
    writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
    closeSync(fd);

    app = await startTestApp({ dataDir: first.dataDir });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(20_000);
    const pageErrors = watchPageErrors(page);
    await page.goto(app.host.launchUrl);
    const notice = page.locator('.workspace-problem');
    await notice.getByText(/cannot be opened: its file is damaged/).waitFor();
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await screenshot(page, 'ui-damaged-workspace.png');

    await notice.getByRole('button', { name: 'Rebuild from the service' }).click();
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    await notice.waitFor({ state: 'detached' });
    expect(readdirSync(folder).some((name) => name.startsWith(`entity-${entityId}.sqlite.damaged-`))).toBe(
      true,
    );
    await screenshot(page, 'ui-damaged-workspace-rebuilt.png');
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
