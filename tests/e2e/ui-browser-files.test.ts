/**
 * Files in the browser host as `npm run start:browser` runs it (no dialogs of main's), in Debian's
 * Chromium: the export is the browser's own download, edited like in Excel, chosen again through
 * the page's file input (by keyboard) and read into a preview, then applied; OAuth opens the portal
 * in a new tab and the dialog says so. The routes behind the files demand the per-run secret, refuse
 * other kinds and oversized bodies, keep no file name as a path, and serve an export once.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localSandboxId } from '../../electron/auth/connections';
import { bridgeSecretHeader, secretFromFragment } from '../../shared/bridge/browser-host-secret';
import { downloadRoute, uploadLimitBytes, uploadRoute } from '../../shared/bridge/browser-host-files';
import type { AssetView } from '../../shared/sync/types';
import type { TestApp } from '../../support/test-app';
import {
  gridCell,
  openUiPage,
  screenshot,
  screenshotIfFailed,
  type UiPage,
  workspaceProbe,
} from '../support/ui-page';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const document: { activeElement: { getAttribute(name: string): string | null } | null };

const NEW_CITY = 'Deventer';

describe('files in the browser host, in Chromium', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let page: Page;
  let pageErrors: string[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'asset-desk-ui-browser-files-'));
  let first: AssetView;
  let originalCity: unknown;

  const probe = () => workspaceProbe(app);
  const byId = (id: string) => page.getByTestId(id);
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  const transfersIn = (kind: 'uploads' | 'downloads') => readdirSync(join(app.dataDir, 'transfers', kind));

  beforeAll(async () => {
    ui = await openUiPage({ app: { browserFiles: true } });
    ({ app, page, pageErrors } = ui);
    first = (await probe().snapshot()).assets[0]!;
    originalCity = await probe().valueAt(first.localId, 'city');
    expect(originalCity).not.toBe(NEW_CITY);
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-browser-files'));

  afterAll(() => ui?.close());

  it('exports as a download, and imports the edited file through the file input', async () => {
    await page.goto(app.host.launchUrl);
    await gridCell(page, 'assets-grid', first.localId, 'name').waitFor();
    await byId('exchange-button').click();
    await byId('exchange-dialog').waitFor({ state: 'visible' });

    // By keyboard: the format has focus, Tab reaches the Sources tab's option and then Export, Enter
    // starts the browser's download.
    expect(await focused()).toBe('export-format-xlsx');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('export-sources-tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('export-run');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/ \d{4}-\d{2}-\d{2}\.xlsx$/);
    const exported = join(folder, download.suggestedFilename());
    await download.saveAs(exported);
    const total = (await probe().snapshot()).assets.length;
    await expect
      .poll(() => byId('export-result').textContent())
      .toBe(`Exported ${total} assets to ${download.suggestedFilename()}.`);
    // Served once, then gone from main's folder.
    await expect.poll(() => transfersIn('downloads')).toEqual([]);

    const edited = join(folder, 'assets-edited.xlsx');
    await editCity(exported, edited, first.serviceAssetId!, NEW_CITY);

    // "Choose workbook…" by keyboard opens the browser's file chooser; the bytes go to main. The
    // chooser is awaited before the key goes (Playwright intercepts choosers once someone waits).
    const choosing = page.waitForEvent('filechooser');
    await byId('import-choose').focus();
    await page.keyboard.press('Enter');
    const chooser = await choosing;
    await chooser.setFiles(edited);
    await byId('preview').waitFor();
    expect(await byId('preview-file').textContent()).toBe('assets-edited.xlsx');
    expect(await byId('import-file').textContent()).toContain('assets-edited.xlsx');
    expect(await byId('count-changed').getAttribute('data-count')).toBe('1');
    // The preview holds what was read: the uploaded copy is already deleted.
    expect(transfersIn('uploads')).toEqual([]);
    await screenshot(page, 'ui-browser-files-preview.png');

    await byId('apply-import').click();
    await byId('apply-result').waitFor();
    expect(await probe().valueAt(first.localId, 'city')).toBe(NEW_CITY);

    expect(pageErrors).toEqual([]);
    // The same input takes a file set on it directly; a text file is refused with the reason.
    const bogus = join(folder, 'notes.xlsx');
    writeFileSync(bogus, 'plain text, not a spreadsheet');
    await page.setInputFiles('[data-testid="import-file-input"]', bogus);
    await expect.poll(() => byId('import-error').textContent()).toContain('neither an Excel workbook');
    // The refusal is an answer on the bridge's socket, shown in the dialog: the page logs nothing.
    expect(pageErrors).toEqual([]);
    await byId('exchange-close').click();
    await expect
      .poll(() => gridCell(page, 'assets-grid', first.localId, 'city').textContent())
      .toBe(NEW_CITY);
    await screenshot(page, 'ui-browser-files-imported.png');
    expect(pageErrors).toEqual([]);
  });

  it("downloads the portfolio's tables", async () => {
    await byId('tab-portfolio').click();
    await byId('portfolio-view').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), byId('portfolio-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^Portfolio \d{4}-\d{2}-\d{2}\.xlsx$/);
    const saved = join(folder, download.suggestedFilename());
    await download.saveAs(saved);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(saved);
    expect(book.worksheets.length).toBeGreaterThan(0);
    await expect.poll(() => transfersIn('downloads')).toEqual([]);
    await byId('tab-assets').click();
    expect(pageErrors).toEqual([]);
  });

  it('opens the OAuth sign-in page in a new tab and says so', { timeout: 60_000 }, async () => {
    await byId('connection-button').click();
    await byId('connections-dialog').waitFor({ state: 'visible' });
    const row = page.locator(`[data-testid="connection-row"][data-connection-id="${localSandboxId}"]`);
    await row.getByTestId('connection-sign-out').click();
    await expect.poll(() => row.textContent()).toContain('Not signed in');
    await row.getByTestId('connection-sign-in').click();
    await byId('sign-in-dialog').waitFor({ state: 'visible' });
    await byId('sign-in-method-oauth').check();
    const [tab] = await Promise.all([page.context().waitForEvent('page'), byId('oauth-start').click()]);
    await expect
      .poll(() => byId('oauth-waiting').textContent())
      .toContain('Authorize Asset Desk in the tab that opened.');
    expect(await byId('oauth-waiting').textContent()).not.toContain('window that opened');
    await expect.poll(() => new URL(tab.url()).pathname).toMatch(/^\/(portal|oauth)/);
    await screenshot(page, 'ui-browser-files-oauth-tab.png');
    if (new URL(tab.url()).pathname === '/portal/sign-in') {
      await tab.fill('#email', app.core.sandbox.demoUser.email);
      await tab.fill('#password', app.core.sandbox.demoUser.password);
      await Promise.all([
        tab.waitForURL((u) => u.pathname !== '/portal/sign-in', { timeout: 30_000 }),
        tab.click('#sign-in'),
      ]);
    }
    await tab.click('#authorize');
    await byId('sign-in-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
    const session = await app.core.handlers['session.get']({});
    expect(session.auth).toMatchObject({ signedIn: true, kind: 'oauth' });
    await tab.close();
    expect(pageErrors).toEqual([]);
  });

  it('guards the file routes: secret, kind, size, names, one download', async () => {
    const cookie = await tokenCookie(app);
    const secret = secretFromFragment(new URL(app.host.launchUrl).hash) ?? '';
    const upload = (name: string, body: Uint8Array, headers: Record<string, string> = {}) =>
      fetch(`${app.host.origin}${uploadRoute}?name=${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: {
          Cookie: cookie,
          [bridgeSecretHeader]: secret,
          'Content-Type': 'application/octet-stream',
          ...headers,
        },
        body,
      });
    const csv = new TextEncoder().encode('id,name\n');

    // The cookie alone (which other local ports receive) is not enough.
    expect((await upload('a.csv', csv, { [bridgeSecretHeader]: 'wrong' })).status).toBe(403);
    expect((await upload('a.exe', csv)).status).toBe(400);
    // Larger than an import may be: refused by its length, before the body is read.
    expect((await upload('big.csv', new Uint8Array(uploadLimitBytes + 1))).status).toBe(413);
    const before = transfersIn('uploads');
    // A name is data, never a path: this lands under a random name in main's folder.
    const sneaky = await upload('../../escape.csv', csv);
    expect(sneaky.status).toBe(200);
    const body = (await sneaky.json()) as { ok: true; result: { fileId: string; name: string } };
    expect(body.result.name).toBe('escape.csv');
    const added = transfersIn('uploads').filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[0-9a-f-]{36}\.csv$/);
    expect(readFileSync(join(app.dataDir, 'transfers', 'uploads', added[0]!), 'utf8')).toBe('id,name\n');

    // An export's download: once, with the secret, as an attachment.
    const written = await app.core.handlers['workbook.export']({ format: 'csv' });
    const id = written?.downloadId ?? '';
    expect(id).not.toBe('');
    const get = (headers: Record<string, string>) =>
      fetch(`${app.host.origin}${downloadRoute}/${id}`, { headers: { Cookie: cookie, ...headers } });
    expect((await get({})).status).toBe(403);
    const served = await get({ [bridgeSecretHeader]: secret });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename=".*\.csv"/);
    expect(await served.text()).toContain(NEW_CITY);
    expect((await get({ [bridgeSecretHeader]: secret })).status).toBe(404);
  });
});

async function editCity(from: string, to: string, serviceAssetId: number, city: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(from);
  const sheet = workbook.getWorksheet('Asset Characteristics');
  if (!sheet) throw new Error('no Asset Characteristics tab');
  let column = 0;
  sheet.getRow(1).eachCell((cell, index) => {
    if (cell.value === 'city') column = index;
  });
  let edited = false;
  for (let r = 3; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (row.getCell(1).value === serviceAssetId) {
      row.getCell(column).value = city;
      edited = true;
    }
  }
  if (!column || !edited) throw new Error(`asset ${serviceAssetId} or its city not found`);
  await workbook.xlsx.writeFile(to);
}

async function tokenCookie(app: TestApp): Promise<string> {
  const response = await fetch(app.host.launchUrl, { redirect: 'manual' });
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}
