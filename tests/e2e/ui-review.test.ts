/**
 * The review before a sync in the analyst's words (issue 30, item 7): fields by their columns'
 * labels and year, records by their certification, held-back assets with their reasons in a table of
 * asset · field · why, and counts that do not count a held-back asset among the updates.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { openUiPage, screenshot, screenshotIfFailed, type UiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

describe('the review before a sync', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let changed: AssetView;
  let badSize: AssetView;
  let newCertification: AssetView;

  beforeAll(async () => {
    ui = await openUiPage();
    ({ app, page } = ui);
    const { assets } = await app.core.handlers['workspace.snapshot']({});
    const clean = assets.filter((a) => a.status === 'clean' && a.serviceAssetId !== null);
    [changed, badSize, newCertification] = clean.slice(-3) as [AssetView, AssetView, AssetView];
    await app.core.handlers['workspace.edit']({
      edits: [
        { localId: changed.localId, path: 'city', value: 'Haarlem' },
        { localId: badSize.localId, path: 'size', value: 'twelve thousand' },
      ],
    });
    // A certification added and left empty: held back, its year among the reasons.
    await app.core.handlers['workspace.addEntry']({
      localId: newCertification.localId,
      collection: 'certifications',
      fields: {},
    });
  });
  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-review'));
  afterAll(() => ui?.close());

  it('words paths as the columns do, names records, counts honestly, and lays it out as a table', async () => {
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('sync-button').click();
    const dialog = page.getByTestId('review-dialog');
    const held = page.getByTestId('review-held-back');
    await held.waitFor();
    const text = (await dialog.textContent()) ?? '';
    await screenshot(page, 'ui-review-words.png');
    await page.setViewportSize({ width: 1024, height: 640 });
    await screenshot(page, 'ui-review-words-1024.png');

    // No API paths, no raw field names.
    expect(text).not.toMatch(/\w\[\d+\]\./);
    for (const raw of ['asset_size', 'annual_data', 'certifications/', 'en_cov', '(empty) → true'])
      expect(text, raw).not.toContain(raw);

    // Held back, with reasons in the columns' words, one row per field.
    const heldText = (await held.textContent()) ?? '';
    expect(heldText).toContain(String(badSize.doc['name']));
    expect(heldText).toContain('Floor area');
    expect(heldText).toContain(String(newCertification.doc['name']));
    expect(heldText).toContain('New certification (no scheme yet) · Year');
    expect(await held.getByTestId('send-anyway').count()).toBe(2);

    // The one update that goes is counted; the two held back are counted as such.
    expect(await page.getByTestId('review-count-update').textContent()).toBe('Update (1)');
    expect(await page.getByTestId('review-count-held').textContent()).toBe('Held back (2)');
    const change = page.getByTestId('review-change');
    expect(await change.count()).toBe(1);
    expect(await change.textContent()).toBe(
      `${String(changed.doc['name'])}City${String(changed.doc['city'])} → Haarlem`,
    );

    // Ticking "Send anyway" moves that asset into what is sent, and the counts follow.
    await held.getByTestId('send-anyway').first().check();
    await expect.poll(() => page.getByTestId('review-count-held').textContent()).toBe('Held back (1)');
    expect(ui!.pageErrors).toEqual([]);
  });
});
