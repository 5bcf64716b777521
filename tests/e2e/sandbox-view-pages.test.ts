import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, demoUserEmail } from '../../sandbox/demo-user';
import { seedDemo } from '../../sandbox/seed';
import { openStore } from '../../sandbox/store';
import { artifactPath, launchChromium } from '../../support/chromium';
import { assessmentYear, startHarness, type Harness } from '../sandbox/helpers';

/** The spec's view-only interface in Chromium: assets with validation and outliers, a response. */
describe('sandbox view-only pages', () => {
  let h: Harness;
  let dir: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let entityId = 0;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sandbox-view-e2e-'));
    const store = openStore(dir);
    entityId = seedDemo(store, { assessmentYear, assetsPerEntity: 18 }).entityIds[0] ?? 0;
    store.close();
    h = await startHarness({}, dir);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the uploaded assets with validation errors and outliers, and a portfolio response', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${h.baseUrl}/portal/view/entities/${entityId}/assets`);
    await page.fill('#email', demoUserEmail);
    await page.fill('#password', demoPassword(dir).password);
    await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/assets')), page.click('#sign-in')]);
    const uploaded = h.server.store.assets.all(entityId);
    await expect.poll(() => page.locator('#assets tr[data-asset-id]').count()).toBe(uploaded.length);
    const first = uploaded[0];
    expect(await page.textContent(`#assets tr[data-asset-id="${first?.id}"]`)).toContain(first?.doc.name);
    expect(await page.locator('#assets li.bad').count()).toBeGreaterThan(0);
    expect(await page.locator('#assets li.warn').count()).toBeGreaterThan(0);
    await page.screenshot({ path: await artifactPath('sandbox-view-assets.png'), fullPage: true });

    await page.click('text=Portfolio responses');
    await page.click(`text=${assessmentYear} Real Estate Assessment`);
    await page.waitForSelector('tr[data-variable="LE1_objectives"]');
    expect(await page.textContent('tr[data-variable="LE1_objectives"]')).toContain('Publicly available');
    expect(await page.textContent('tr[data-variable="LE3_governance"]')).toContain('missing');
    await page.screenshot({ path: await artifactPath('sandbox-view-response.png'), fullPage: true });
    await page.close();
  });
});
