/**
 * The Responses tab as an analyst uses it, in Debian's Chromium through the browser host against
 * the embedded sandbox: this year's response answered offline (text, checkbox, radio) and synced; a
 * second client's change of the same answer shown side by side and resolved; evidence added as the
 * service takes it (a link with its type; a file on this computer explained, not uploaded) and found
 * on the sandbox's view-only response page; last year's response read-only.
 * What the service holds is read over HTTP (GET values/{variable}) as a second client would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { IndicatorValue } from '../../shared/responses/types';
import { demoUserEmail } from '../../sandbox/demo-user';
import { artifactPath } from '../../support/chromium';
import { openUiPage, screenshot, screenshotIfFailed, type UiPage } from '../support/ui-page';
import { testAssessmentYear, type TestApp } from '../../support/test-app';

interface RemoteValue {
  variable: string;
  value: IndicatorValue;
  lock_version: string;
}

describe('portfolio responses UI in Chromium', () => {
  let app: TestApp;
  let ui: UiPage | undefined;
  let browser: UiPage['browser'];
  let page: Page;
  let entityId = 0;
  let openId = 0;
  let historyId = 0;
  let pageErrors: string[] = [];
  /** Console errors; a refused bridge call logs its HTTP status, which one test provokes on purpose. */
  const consoleErrors: string[] = [];

  const indicator = (variable: string): Locator =>
    page.locator(`[data-testid="indicator"][data-variable="${variable}"]`);
  const option = (variable: string, code: string): Locator =>
    indicator(variable).locator(`[data-testid="indicator-option"][data-code="${code}"]`);
  const item = (id: number): Locator =>
    page.locator(`[data-testid="response-item"][data-response-id="${id}"]`);

  const valueUrl = (variable: string, responseId = openId) =>
    `${app.core.sandbox.baseUrl}/api/v0/entities/${entityId}/responses/${responseId}/values/${variable}`;
  const remoteValue = async (variable: string): Promise<IndicatorValue | undefined> => {
    const response = await fetch(valueUrl(variable), {
      headers: { Authorization: `Bearer ${app.core.sandbox.token}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as RemoteValue).value;
  };

  /** Another client of the service writes an answer over the version it just read. */
  const secondClientWrites = async (variable: string, value: IndicatorValue): Promise<void> => {
    const url = valueUrl(variable);
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
    ui = await openUiPage({ onConsoleError: (message) => consoleErrors.push(message.text()) });
    ({ app, browser, page, pageErrors } = ui);
    entityId = (await app.core.handlers['session.get']({})).activeEntityId ?? 0;
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-responses'));

  afterAll(() => ui?.close());

  it('lists this year’s response in progress and last year’s read-only one', async () => {
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
    expect(await item(openId).getByTestId('response-state').getAttribute('data-status')).toBe('in_progress');
    expect(await item(openId).getByTestId('response-state').textContent()).toBe('in progress');
    expect(await item(openId).getByTestId('read-only-mark').count()).toBe(0);
    expect(await item(historyId).textContent()).toContain(`${testAssessmentYear - 1} Real Estate Assessment`);
    expect(await item(historyId).getByTestId('read-only-mark').textContent()).toBe('read-only');
    expect(await item(historyId).getByTestId('response-state').textContent()).toBe('submitted');
    expect(await item(openId).getByTestId('response-counts').textContent()).toContain('0 evidence items');
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

  it('adds evidence as a link with its type; a file on this computer is explained, never uploaded', async () => {
    const policy = indicator('PO_1');
    await policy
      .getByRole('button', {
        name: 'Add evidence for Does the entity have a policy on environmental issues?',
      })
      .click();
    const form = policy.getByTestId('evidence-form');
    await form.waitFor();
    expect(await form.getByTestId('evidence-local-help').textContent()).toMatch(
      /cannot be sent as it is.*not as an upload.*document store/,
    );
    // Unlike answers, which wait for Sync, evidence goes to the service when it is added: said so.
    expect(await form.getByTestId('evidence-when').textContent()).toBe(
      'Sent to the service as soon as you add it; answers wait for Sync.',
    );
    expect(await form.getByTestId('evidence-submit').textContent()).toBe('Add and send now');
    // The analyst first pastes the path of the file on this computer: told plainly what it needs.
    const before = consoleErrors.length;
    await form.getByTestId('evidence-url').fill('C:\\Users\\analyst\\ESG policy 2025.pdf');
    await form.getByTestId('evidence-submit').click();
    const error = policy.getByTestId('evidence-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /file on this computer, which the service cannot reach: put the file where it can be opened by a link/,
    );
    await policy.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'ui-response-evidence-local-file.png');
    // The refused call is an answer on the bridge's socket: the page logs nothing for it.
    expect(consoleErrors.slice(before)).toEqual([]);

    // Hosted on the company's document store: its link, as a file, shared, with notes.
    const url = 'https://docs.example.com/esg/environmental-policy-2025.pdf';
    await form.getByTestId('evidence-type').selectOption('F');
    await form.getByTestId('evidence-url').fill(url);
    await form.getByTestId('evidence-notes').fill('Page 4, section 2');
    await form.getByTestId('evidence-share').check();
    await form.getByTestId('evidence-submit').click();
    const result = policy.getByTestId('evidence-result');
    await result.waitFor();
    // In words, not the service's variables ("PO_1_A1_EVD_TYPE_1 = F … SHARE_1 = empty").
    expect(await result.textContent()).toContain('Sent to the service as item 1');
    expect(await result.textContent()).toContain('Document file');
    expect(await result.textContent()).toContain('Shared with investors');
    expect(await result.textContent()).toContain('Notes: Page 4, section 2');
    expect(await result.textContent()).not.toMatch(/_EVD_|= empty/);
    expect(await result.getByTestId('evidence-report').getAttribute('href')).toContain(
      `/responses/${openId}#PO_1_A1_EVD-1`,
    );
    const listed = policy.getByTestId('evidence-item');
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.getAttribute('data-type')).toBe('F');
    expect(await listed.textContent()).toContain(url);
    expect(await listed.textContent()).toContain('Shared with investors');
    expect(await remoteValue('PO_1_A1_EVD_TYPE_1')).toBe('F');
    expect(await remoteValue('PO_1_A1_EVD_SHARE_1')).toBe(1);
    expect(await remoteValue('PO_1_A1_EVD_NOTES_1')).toBe('Page 4, section 2');

    // A web page as a hyperlink for another indicator (no share setting for those).
    const objectives = indicator('LE1_objectives');
    await objectives.getByTestId('add-evidence').click();
    const second = objectives.getByTestId('evidence-form');
    await second.getByTestId('evidence-type').selectOption('H');
    expect(await second.getByTestId('evidence-share').count()).toBe(0);
    await second.getByTestId('evidence-url').fill('https://www.example.com/esg/objectives');
    await second.getByTestId('evidence-submit').click();
    await objectives.getByTestId('evidence-result').waitFor();
    expect(await remoteValue('LE1_objectives_EVD_LINK_1')).toBe('https://www.example.com/esg/objectives');

    const rows = page.getByTestId('evidence-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect
      .poll(() => item(openId).getByTestId('response-counts').textContent())
      .toContain('2 evidence items');
    await policy.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'ui-response-evidence.png');

    // The partner checks portfolio data on the service's view-only page (signed in to its portal).
    const view = await browser.context.newPage();
    view.on('pageerror', (e) => pageErrors.push(`view page: ${String(e)}`));
    await view.goto(`${app.core.sandbox.baseUrl}/portal/view/entities/${entityId}/responses/${openId}`);
    await view.fill('#email', demoUserEmail);
    await view.fill('#password', app.core.sandbox.demoUser.password);
    await Promise.all([
      view.waitForURL((u) => u.pathname.endsWith(`/responses/${openId}`)),
      view.click('#sign-in'),
    ]);
    await view.waitForSelector('#evidence');
    expect(await view.textContent('#evidence')).toContain(url);
    expect(await view.textContent('tr[data-variable="LE1_objectives"]')).toContain(
      'https://www.example.com/esg/objectives',
    );
    expect(await view.textContent('tr[data-variable="RS1_tenant_engagement"]')).toContain(
      'Resident app with a monthly feedback round',
    );
    expect(await view.textContent('tr[data-variable="LE2_responsible"]')).toContain('External consultant');
    await view.screenshot({ path: await artifactPath('ui-responses-sandbox-view.png'), fullPage: true });
    await view.close();
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
    const adds = await detail.getByTestId('add-evidence').all();
    expect(adds.length).toBeGreaterThan(0);
    for (const button of adds) expect(await button.isDisabled()).toBe(true);
    // Last year's hyperlink evidence, read from the service.
    expect(await indicator('PO_1').getByTestId('evidence-item').textContent()).toContain(
      'https://example.com/esg/environmental-policy',
    );
    expect(await detail.getByTestId('revert-value').count()).toBe(0);
    await screenshot(page, 'ui-response-history.png');
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
