/**
 * Words an analyst reads (issue 30, items 16 and 18), in Chromium against the embedded sandbox:
 * "1 conflict", "0 errors" not in red, the reporting period and sign-in in words, whole names on
 * hover, an empty floor area "required", two assets of one name told apart in the problems panel,
 * and what signing in to the built-in sandbox takes once signed out.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AssetView } from '../../shared/sync/types';
import { gridCell, hoveredTooltip, screenshot, workspaceProbe, useUiPage } from '../support/ui-page';
import type { TestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const getComputedStyle: (el: unknown) => { color: string };

describe('the words an analyst reads', () => {
  let app: TestApp;
  let page: Page;
  let pageErrors: string[] = [];
  let assets: AssetView[] = [];

  const probe = () => workspaceProbe(app);

  useUiPage('ui-wording', async (ui) => {
    ({ app, page, pageErrors } = ui);
    const handlers = app.core.handlers;
    // The demo's floor areas the service refused, corrected: no error left in the workspace.
    for (const view of (await probe().snapshot()).assets) {
      const size = Number(view.doc['size']);
      const edits = (view.serverValidations?.annualData ?? []).flatMap((rec) =>
        Object.keys(rec._validations?.errors ?? {}).map((field) => ({
          localId: view.localId,
          path: `annual_data/${rec.year}/${field}`,
          value: size,
        })),
      );
      if (edits.length > 0) await handlers['workspace.edit']({ edits });
    }
    // One conflict: the same city changed here and, meanwhile, on the service.
    assets = (await probe().snapshot()).assets.filter((a) => a.status !== 'deleted');
    const target = assets.find((a) => a.serviceAssetId !== null)!;
    await handlers['workspace.edit']({ edits: [{ localId: target.localId, path: 'city', value: 'Mine' }] });
    const entityId = app.core.sandbox.entityIds[0];
    const patched = await fetch(
      `${app.core.sandbox.baseUrl}/api/v1/entities/${entityId}/assets/${target.serviceAssetId}`,
      {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${app.core.sandbox.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ city: 'Theirs' }),
      },
    );
    expect(patched.status).toBe(200);
    const report = await handlers['sync.run']({});
    expect(report.pull.conflicts).toBe(1);
    assets = (await probe().snapshot()).assets.filter((a) => a.status !== 'deleted');
    await page.goto(app.host.launchUrl);
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
  });

  it('counts in words that agree with the number, and keeps red for errors that exist', async () => {
    const bar = page.getByTestId('status-bar');
    await expect.poll(() => bar.locator('.status-conflicts').textContent()).toBe('1 conflict');
    await expect.poll(() => page.getByTestId('status-errors').textContent()).toBe('0 errors');
    const color = (id: string) => page.getByTestId(id).evaluate((el) => getComputedStyle(el).color);
    // A link like its neighbour "outliers", not the red of errors that exist.
    expect(await color('status-errors')).toBe(await color('status-outliers'));
  });

  it('says the reporting period and the sign-in in words', async () => {
    const facts = page.getByTestId('entity-facts');
    expect(await facts.textContent()).toContain('Calendar year');
    expect(await facts.textContent()).not.toContain('calendar_year');
    expect(await page.locator('.signed-in').textContent()).toMatch(/^Signed in \(sandbox\)/);
  });

  it('shows a whole asset name on hover where the column cuts it', async () => {
    await page.getByTestId('tab-annual').click();
    const row = page.locator('[data-testid="annual-grid"] .ag-row[row-id]').first();
    const rowId = (await row.getAttribute('row-id'))!;
    const localId = rowId.split(':')[0]!;
    const name = String(assets.find((a) => a.localId === localId)?.doc['name']);
    const cell = gridCell(page, 'annual-grid', rowId, 'asset_name');
    await expect.poll(() => hoveredTooltip(page, cell), { timeout: 30_000 }).toBe(name);
    await page.getByTestId('tab-assets').click();
  });

  it("shows a column's full label and field on hover over its header", async () => {
    const header = page.locator('[data-testid="assets-grid"] .ag-header-cell[col-id="country"]');
    await expect.poll(() => hoveredTooltip(page, header), { timeout: 30_000 }).toMatch(/^Country — country/);
    // The browser's own title would show it a second time, late.
    expect(
      await page.locator('[data-testid="assets-grid"] .ag-header-cell[col-id="country"][title]').count(),
    ).toBe(0);
    await page.mouse.move(1, 1);
    await page.locator('.ag-tooltip').waitFor({ state: 'detached' });
  });

  it('calls an empty floor area required, and tells two assets of one name apart', async () => {
    const [a, b, c] = assets.filter((v) => v.serviceAssetId !== null && v.conflicts.length === 0);
    // An emptied floor area, and one asset given another's name (typed elsewhere: read on reload).
    const name = String(c!.doc['name']);
    await app.core.handlers['workspace.edit']({
      edits: [
        { localId: a!.localId, path: 'size', value: null },
        { localId: b!.localId, path: 'name', value: name },
      ],
    });
    await page.reload();
    const sizeProblem = page.locator(
      `[data-testid="problem"][data-local-id="${a!.localId}"][data-path="size"]`,
    );
    await expect.poll(() => sizeProblem.textContent()).toContain('is required');
    expect(await sizeProblem.textContent()).not.toContain('is not a number');
    const group = (v: AssetView) =>
      page.locator(`[data-testid="problem-asset"]:has([data-local-id="${v.localId}"])`);
    await expect
      .poll(() => group(b!).getByTestId('problem-asset-which').textContent())
      .toBe(`#${b!.serviceAssetId}`);
    await expect
      .poll(() => group(c!).getByTestId('problem-asset-which').textContent())
      .toBe(`#${c!.serviceAssetId}`);
    await screenshot(page, 'ui-wording-problems.png');
  });

  it('says what signing in to the built-in sandbox takes once signed out', async () => {
    await page.locator('.signed-in').getByRole('button', { name: 'Sign out' }).click();
    const welcome = page.locator('.welcome');
    await welcome.waitFor();
    expect(await welcome.textContent()).not.toContain('needs no account');
    expect(await welcome.textContent()).toContain('Signed out of the built-in sandbox');
    expect(pageErrors).toEqual([]);
  });
});
