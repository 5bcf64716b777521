/**
 * A restart on a workspace larger than the first page (issue 18): the grid draws from disk at once,
 * the rest of the assets is read in pages behind it, and the session comes up after. A pull landing
 * later leaves the analyst where they were in the grid.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../support/chromium';
import { screenshot, screenshotIfFailed, watchPageErrors } from '../support/ui-page';
import { startTestApp, type TestApp } from '../../support/test-app';

const added = 2_400;

describe('start on a large workspace', () => {
  let app: TestApp | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;
  /** Answers to this method wait for `released` (the page's socket goes through Playwright). */
  let holdAnswersTo: { name: string; onHeld(): void; released: Promise<void> } | undefined;

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-start'));
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('draws the first page, reads the rest in pages and then shows the session', async () => {
    const first = await startTestApp();
    await first.core.handlers['workspace.createAssets']({
      rows: Array.from({ length: added }, (_, i) => ({ fields: { name: `Loaded later ${i}` }, edits: [] })),
      edits: [],
      label: 'adding assets',
    });
    const total = (await first.core.handlers['workspace.snapshot']({})).assets.length;
    await first.close();

    app = await startTestApp({ dataDir: first.dataDir, waitForSession: false });
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(20_000);
    const pageErrors = watchPageErrors(page);
    await page.routeWebSocket(/\/bridge\/socket$/, (ws) => {
      const server = ws.connectToServer();
      const names = new Map<number, string>();
      ws.onMessage((message) => {
        const call = JSON.parse(String(message)) as { id: number; name: string };
        names.set(call.id, call.name);
        server.send(message);
      });
      server.onMessage((message) => {
        const { id } = JSON.parse(String(message)) as { id: number };
        const hold = holdAnswersTo?.name === names.get(id) ? holdAnswersTo : undefined;
        names.delete(id);
        if (!hold) return ws.send(message);
        hold.onHeld();
        void hold.released.then(() => ws.send(message));
      });
    });
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    if (await guide.isVisible()) await guide.click();

    await expect.poll(() => page.getByTestId('status-assets').textContent()).toBe(`${total} assets`);
    await page.getByTestId('status-loading').waitFor({ state: 'detached' });
    // The last asset is in the grid: Ctrl+End from a cell goes to the last row.
    await page.locator('[data-testid="assets-grid"] .ag-row[row-index="0"] [col-id="name"]').first().click();
    await page.keyboard.press('Control+End');
    await page
      .getByText(`Loaded later ${added - 1}`)
      .first()
      .waitFor();
    await page
      .getByText(/Signed in/)
      .first()
      .waitFor();
    await screenshot(page, 'ui-start-large.png');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('keeps the analyst at the last row when a pull lands', async () => {
    // Someone else adds an asset on the service; a sync pulls it while the grid is at its last row.
    const { core } = app!;
    await serviceAdds(core, 990_001, 'Added on the service');
    const viewport = page.locator('[data-testid="assets-grid"] .ag-body-vertical-scroll-viewport');
    const scrolled = await viewport.evaluate((el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(50_000);
    const total = Number((await page.getByTestId('status-assets').textContent())?.split(' ')[0]);

    expect((await core.handlers['sync.run']({})).pull.added).toBe(1);
    await expect.poll(() => page.getByTestId('status-assets').textContent()).toBe(`${total + 1} assets`);
    // Read again whole before the rows were swapped: not cut back to the first 1,000 rows (the
    // grid's place went with them), and no row lost on the way.
    expect(await viewport.evaluate((el) => el.scrollTop)).toBe(scrolled);
    await page
      .getByText(`Loaded later ${added - 1}`)
      .first()
      .waitFor();
  }, 120_000);

  it('keeps an edit made while the workspace is read again', async () => {
    const { core } = app!;
    const { assets } = await core.handlers['workspace.snapshot']({});
    const target = assets.find((a) => a.doc['name'] === `Loaded later ${added - 1}`)!;
    await serviceAdds(core, 990_002, 'Added while reading');
    // The later page is read by main at once, but reaches the window only after the edit: the
    // page's view of the asset is older than the edit's.
    let pageRead!: () => void;
    const read = new Promise<void>((resolve) => (pageRead = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    holdAnswersTo = { name: 'workspace.assets', onHeld: pageRead, released };
    const total = Number((await page.getByTestId('status-assets').textContent())?.split(' ')[0]);

    expect((await core.handlers['sync.run']({})).pull.added).toBe(1);
    await read;
    const cell = page
      .locator(`[data-testid="assets-grid"] .ag-row[row-id="${target.localId}"] [col-id="name"]`)
      .first();
    await cell.click();
    await page.keyboard.type('Renamed while reading');
    await page.keyboard.press('Enter');
    await expect.poll(() => cell.textContent()).toContain('Renamed while reading');
    release();

    await expect.poll(() => page.getByTestId('status-assets').textContent()).toBe(`${total + 1} assets`);
    expect(await cell.textContent()).toContain('Renamed while reading');
    holdAnswersTo = undefined;
  }, 120_000);
});

/** Someone else adds an asset on the service (another data partner's batch). */
async function serviceAdds(core: TestApp['core'], partnersId: number, name: string): Promise<void> {
  const entityId = (await core.handlers['session.get']({})).activeEntityId;
  const created = await fetch(`${core.sandbox.baseUrl}/api/v1/entities/${entityId}/assets/batches`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${core.sandbox.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      create: [
        {
          partners_id: partnersId,
          name,
          country: 'NL',
          state_province: 'Utrecht',
          city: 'Utrecht',
          ownership: 100,
          property_type_code: 'OCHI',
          size: 1000,
        },
      ],
    }),
  });
  expect(((await created.json()) as { counts: { created: number } }).counts.created).toBe(1);
}
