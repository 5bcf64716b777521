/**
 * The Responses tab as an analyst uses it, in Debian's Chromium through the browser host against
 * the embedded sandbox: this year's response answered offline (text, checkbox, radio) and synced; a
 * second client's change of the same answer shown side by side and resolved; evidence uploaded with
 * progress and found on the sandbox's view-only response page; last year's response read-only.
 * What the service holds is read over HTTP as a second client would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { EventPayload } from '../../shared/bridge/contract';
import type { IndicatorValue } from '../../shared/responses/types';
import { demoUserEmail, demoUserPassword } from '../../electron/sandbox/demo-user';
import { artifactPath, launchChromium } from '../support/chromium';
import { screenshot, screenshotIfFailed, watchPageErrors } from '../support/ui-page';
import { startTestApp, testAssessmentYear } from '../support/test-app';

type App = Awaited<ReturnType<typeof startTestApp>>;

interface RemoteValue {
  variable: string;
  value: IndicatorValue;
  lock_version: number;
}
interface RemoteResponse {
  values: RemoteValue[];
  documents: Array<{ filename: string; size: number; variable: string | null }>;
}

describe('portfolio responses UI in Chromium', () => {
  let app: App;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let files: string;
  let entityId = 0;
  let openId = 0;
  let historyId = 0;
  let pageErrors: string[] = [];
  /** Console errors; a refused bridge call logs its HTTP status, which one test provokes on purpose. */
  const consoleErrors: string[] = [];
  const progress: Array<EventPayload<'responses.uploadProgress'>> = [];

  const indicator = (variable: string): Locator =>
    page.locator(`[data-testid="indicator"][data-variable="${variable}"]`);
  const option = (variable: string, code: string): Locator =>
    indicator(variable).locator(`[data-testid="indicator-option"][data-code="${code}"]`);
  const item = (id: number): Locator =>
    page.locator(`[data-testid="response-item"][data-response-id="${id}"]`);

  const remote = async (): Promise<RemoteResponse> => {
    const response = await fetch(
      `${app.core.sandbox.baseUrl}/api/v0/entities/${entityId}/responses/${openId}`,
      {
        headers: { Authorization: `Bearer ${app.core.sandbox.token}` },
      },
    );
    expect(response.status).toBe(200);
    return (await response.json()) as RemoteResponse;
  };
  const remoteValue = async (variable: string): Promise<IndicatorValue | undefined> =>
    (await remote()).values.find((v) => v.variable === variable)?.value;

  /** Another client of the service writes an answer over the version it just read. */
  const secondClientWrites = async (variable: string, value: IndicatorValue): Promise<void> => {
    const url = `${app.core.sandbox.baseUrl}/api/v0/entities/${entityId}/responses/${openId}/values/${variable}`;
    const headers = { Authorization: `Bearer ${app.core.sandbox.token}` };
    const read = await fetch(url, { headers });
    expect(read.status).toBe(200);
    const { lock_version } = (await read.json()) as RemoteValue;
    const write = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ value, lock_version }),
    });
    expect(write.status).toBe(200);
  };

  const syncAndWait = async () => {
    const button = page.getByTestId('responses-sync');
    await button.click();
    // The button says "Syncing…" while it runs; its label back means the report is in.
    await expect.poll(() => button.textContent(), { timeout: 30_000 }).toBe('Sync responses');
    await page.getByTestId('responses-sync-report').waitFor();
  };

  beforeAll(async () => {
    app = await startTestApp();
    files = mkdtempSync(join(tmpdir(), 'asset-desk-ui-evidence-'));
    app.core.events.attach({
      emit: (name, payload) => {
        if (name === 'responses.uploadProgress')
          progress.push(payload as EventPayload<'responses.uploadProgress'>);
      },
    });
    entityId = (await app.core.handlers['session.get']({})).activeEntityId ?? 0;
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    pageErrors = watchPageErrors(page, (message) => consoleErrors.push(message.text()));
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-responses'));

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (files) rmSync(files, { recursive: true, force: true });
  });

  it('lists this year’s open response and last year’s read-only one', async () => {
    await page.goto(app.host.launchUrl);
    // The first-run guide takes a fifth of a 768-pixel screen; a user who knows the app hides it.
    const guide = page.getByTestId('guide-dismiss');
    if (await guide.isVisible()) await guide.click();
    await page.getByTestId('tab-responses').click();
    const items = page.getByTestId('response-item');
    await expect.poll(() => items.count()).toBe(2);
    openId = Number(await items.nth(0).getAttribute('data-response-id'));
    historyId = Number(await items.nth(1).getAttribute('data-response-id'));
    expect(await item(openId).textContent()).toContain(`${testAssessmentYear} Real Estate Assessment`);
    expect(await item(openId).getAttribute('data-read-only')).toBe('false');
    expect(await item(openId).getByTestId('response-state').textContent()).toBe('open');
    expect(await item(openId).getByTestId('read-only-mark').count()).toBe(0);
    expect(await item(historyId).textContent()).toContain(`${testAssessmentYear - 1} Real Estate Assessment`);
    expect(await item(historyId).getByTestId('read-only-mark').textContent()).toBe('read-only');
    expect(await item(historyId).getByTestId('response-state').textContent()).toBe('submitted');
    expect(await item(openId).getByTestId('response-counts').textContent()).toContain('0 documents');
    await screenshot(page, 'ui-responses-list.png');
  });

  it('edits text, checkbox and radio answers offline, reverts one, and syncs them to the service', async () => {
    await item(openId).click();
    await indicator('LE3_governance').waitFor();
    // Grouped by section, in the service's order.
    expect(
      await page.locator('[data-testid="response-detail"] .indicator-section h3').allTextContents(),
    ).toEqual(['Management', 'Performance', 'Development', 'Residential']);
    expect(await option('LE1_objectives', 'public').isChecked()).toBe(true);

    const governance = 'ESG committee chaired by the CIO; quarterly report to the board';
    const text = indicator('LE3_governance').getByRole('textbox', {
      name: 'Describe the ESG governance structure.',
    });
    expect(await text.getAttribute('maxlength')).toBe('2000');
    await text.click();
    await page.keyboard.type(governance);
    // With the keyboard, as a user tabs to an option and ticks it.
    await option('LE1_objectives', 'investors').focus();
    await page.keyboard.press('Space');
    await indicator('LE2_responsible').getByLabel('External consultant').check();

    for (const v of ['LE3_governance', 'LE1_objectives', 'LE2_responsible'])
      await expect.poll(() => indicator(v).getAttribute('data-status')).toBe('modified');
    expect(await indicator('LE3_governance').getByTestId('modified-mark').count()).toBe(1);
    // Stored offline in main before anything is sent.
    const stored = await app.core.handlers['responses.open']({ responseId: openId });
    expect(stored.values.find((v) => v.variable === 'LE3_governance')?.value).toBe(governance);
    await expect
      .poll(() => item(openId).getByTestId('response-counts').textContent())
      .toContain('3 modified');

    // A fourth change, taken back with its revert.
    await option('DV1_design_standard', 'no').check();
    await expect.poll(() => indicator('DV1_design_standard').getAttribute('data-status')).toBe('modified');
    await page.locator('#response-heading').scrollIntoViewIfNeeded();
    await screenshot(page, 'ui-response-edit.png');
    await indicator('DV1_design_standard').getByTestId('revert-value').click();
    await expect.poll(() => indicator('DV1_design_standard').getAttribute('data-status')).toBe('clean');
    expect(await option('DV1_design_standard', 'no').isChecked()).toBe(false);

    await syncAndWait();
    expect(await page.getByTestId('sync-sent').textContent()).toBe('3 sent');
    expect(await page.getByTestId('sync-conflicts').textContent()).toBe('0 conflicts');
    expect(await page.getByTestId('sync-errors').textContent()).toBe('0 errors');
    for (const v of ['LE3_governance', 'LE1_objectives', 'LE2_responsible'])
      await expect.poll(() => indicator(v).getAttribute('data-status')).toBe('clean');
    expect(await remoteValue('LE3_governance')).toBe(governance);
    expect([...((await remoteValue('LE1_objectives')) as string[])].sort()).toEqual(['investors', 'public']);
    expect(await remoteValue('LE2_responsible')).toBe('external');
    expect(await remoteValue('DV1_design_standard')).toBe(null);
  });

  it('shows a second client’s change of the same answer beside mine and sends the one chosen', async () => {
    const mine = 'Resident app with a monthly feedback round';
    const theirs = 'Quarterly resident forum run by the property manager';
    const field = indicator('RS1_tenant_engagement');
    await field.getByRole('textbox').fill(mine);
    await expect.poll(() => field.getAttribute('data-status')).toBe('modified');
    await secondClientWrites('RS1_tenant_engagement', theirs);

    await syncAndWait();
    expect(await page.getByTestId('sync-conflicts').textContent()).toBe('1 conflict');
    const conflict = page.locator('[data-testid="response-conflict"][data-variable="RS1_tenant_engagement"]');
    await conflict.waitFor();
    expect(await conflict.getByTestId('conflict-mine').textContent()).toContain(mine);
    expect(await conflict.getByTestId('conflict-theirs').textContent()).toContain(theirs);
    expect(await field.getAttribute('data-status')).toBe('conflict');
    expect(await item(openId).getByTestId('response-counts').textContent()).toContain('1 in conflict');
    // Nothing was overwritten on either side.
    expect(await remoteValue('RS1_tenant_engagement')).toBe(theirs);
    expect(await field.getByRole('textbox').inputValue()).toBe(mine);
    await conflict.scrollIntoViewIfNeeded();
    await screenshot(page, 'ui-response-conflict.png');

    await conflict.getByTestId('keep-mine').click();
    await expect.poll(() => conflict.count()).toBe(0);
    await expect.poll(() => field.getAttribute('data-status')).toBe('modified');
    await syncAndWait();
    expect(await page.getByTestId('sync-sent').textContent()).toBe('1 sent');
    await expect.poll(() => field.getAttribute('data-status')).toBe('clean');
    expect(await remoteValue('RS1_tenant_engagement')).toBe(mine);
  });

  it('attaches evidence with progress, lists it, and the view-only response page shows it', async () => {
    const name = 'ESG policy 2025.pdf';
    const file = join(files, name);
    const bytes = new Uint8Array(1_500_000);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    writeFileSync(file, bytes);
    app.picker.next = file;
    progress.length = 0;

    const evidence = indicator('LE1_objectives');
    await evidence.getByRole('button', { name: /Attach document as evidence for How are the ESG/ }).click();
    const bar = evidence.getByTestId('upload-progress');
    await expect.poll(() => bar.getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    const meter = bar.locator('progress');
    expect(await meter.getAttribute('value')).toBe(String(bytes.length));
    expect(await meter.getAttribute('max')).toBe(String(bytes.length));
    expect(await bar.textContent()).toContain(`Uploaded ${name}`);
    // Main reported the upload as it went, ending with every byte.
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toMatchObject({ responseId: openId, sent: bytes.length, done: true });

    const listed = evidence.getByTestId('document');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.textContent()).toContain(name);
    expect(await listed.textContent()).toContain('1.4 MB');
    const row = page.getByTestId('documents-row');
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(name);
    await expect
      .poll(() => item(openId).getByTestId('response-counts').textContent())
      .toContain('1 document');
    await evidence.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'ui-response-documents.png');
    expect((await remote()).documents).toMatchObject([
      { filename: name, size: bytes.length, variable: 'LE1_objectives' },
    ]);

    // The partner checks portfolio data on the service's view-only page (signed in to its portal).
    const view = await browser.context.newPage();
    view.on('pageerror', (error) => pageErrors.push(`view page: ${String(error)}`));
    await view.goto(`${app.core.sandbox.baseUrl}/portal/view/entities/${entityId}/responses/${openId}`);
    await view.fill('#email', demoUserEmail);
    await view.fill('#password', demoUserPassword);
    await Promise.all([
      view.waitForURL((u) => u.pathname.endsWith(`/responses/${openId}`)),
      view.click('#sign-in'),
    ]);
    await view.waitForSelector('#documents');
    expect(await view.textContent('#documents')).toContain(name);
    expect(await view.textContent('tr[data-variable="LE1_objectives"]')).toContain(name);
    expect(await view.textContent('tr[data-variable="RS1_tenant_engagement"]')).toContain(
      'Resident app with a monthly feedback round',
    );
    expect(await view.textContent('tr[data-variable="LE2_responsible"]')).toContain('External consultant');
    await view.screenshot({ path: await artifactPath('ui-responses-sandbox-view.png'), fullPage: true });
    await view.close();
  });

  it('says why a file is refused, in words the analyst can act on', async () => {
    const file = join(files, 'tool.exe');
    writeFileSync(file, 'MZ');
    app.picker.next = file;
    const before = consoleErrors.length;
    await page.getByTestId('documents-panel').getByTestId('attach-document').click();
    const error = page.locator('[data-testid="upload-error"][data-target="response"]');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Could not attach the document: .*not accepted/);
    expect(await page.getByTestId('documents-row').count()).toBe(1);
    // The refused call is logged by Chromium as a failed request (400), and only that.
    const provoked = consoleErrors.splice(before);
    expect(provoked).toHaveLength(1);
    expect(provoked[0]).toMatch(/status of 400/);
  });

  it('shows last year’s response read-only', async () => {
    await item(historyId).click();
    await page.getByTestId('read-only-banner').waitFor();
    expect(await page.locator('#response-heading').textContent()).toBe(
      `${testAssessmentYear - 1} Real Estate Assessment`,
    );
    const detail = page.getByTestId('response-detail');
    // Last year's answers, shown but not editable.
    expect(await option('LE2_responsible', 'dedicated').isChecked()).toBe(true);
    expect(await indicator('LE3_governance').getByRole('textbox').inputValue()).toContain('ESG committee');
    const controls = detail.locator('input, textarea');
    const count = await controls.count();
    expect(count).toBeGreaterThan(10);
    for (let i = 0; i < count; i++) expect(await controls.nth(i).isDisabled()).toBe(true);
    for (const button of await detail.getByTestId('attach-document').all())
      expect(await button.isDisabled()).toBe(true);
    expect(await detail.getByTestId('revert-value').count()).toBe(0);
    await screenshot(page, 'ui-response-history.png');
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
