/**
 * Connections and sign-in as a new user meets them, in Debian's Chromium through the browser host:
 * the first-run guide on the demo entity (dismissed for good, reopened), adding a second, separate
 * Submission Service running over real HTTP, a refused token and the right one, switching back to
 * the local sandbox, and the OAuth sign-in through the UI with a second Chromium page playing the
 * system browser (loopback redirect, cancel, and the code entered by hand). Screenshots go to
 * test-results/.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localSandboxId, localSandboxRealNamesId } from '../../electron/auth/connections';
import { oobRedirectUri } from '../../electron/auth/oauth-login';
import { startHarness, type Harness } from '../sandbox/helpers';
import { memberUser } from '../sandbox/portal-client';
import { launchChromium } from '../../support/chromium';
import { screenshot, screenshotIfFailed, watchPageErrors } from '../support/ui-page';
import { startTestApp, type TestApp } from '../../support/test-app';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

// What the function run by page.evaluate uses in the page (this tsconfig has no DOM library).
declare const document: { activeElement: { id: string } | null };
declare const getComputedStyle: (el: unknown) => { whiteSpace: string };

const demoEntity = 'Northwind Core Real Estate Fund';
const secondName = 'Second service';

describe('connections, sign-in and the first-run guide in Chromium', () => {
  let app: TestApp;
  let remote: Harness;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  /** The "system browser" the app opens for OAuth. */
  let consent: Page;
  let pageErrors: string[] = [];
  /**
   * The host answers a refused token with 400 (the user's input, not the app's fault), which
   * Chromium logs; only that call, made on purpose, is allowed to fail.
   */
  let oauthClient: { clientId: string; clientSecret: string };
  let remoteUser: { email: string; password: string };

  const session = () => app.core.handlers['session.get']({});
  const byId = (id: string) => page.getByTestId(id);
  const row = (connectionId: string) =>
    page.locator(`[data-testid="connection-row"][data-connection-id="${connectionId}"]`);
  const secondId = async () => (await session()).connections.find((c) => c.name === secondName)?.id ?? '';
  const pickerOptions = () => byId('entity-picker').locator('option').allTextContents();
  const openConnections = async () => {
    await byId('connection-button').click();
    await byId('connections-dialog').waitFor({ state: 'visible' });
  };

  /** The portal in the "system browser": sign in when asked, then authorize. */
  const authorizeInBrowser = async (user: { email: string; password: string }) => {
    await expect
      .poll(() => new URL(consent.url()).pathname, { timeout: 10_000 })
      .toMatch(/^\/(portal|oauth)/);
    if (new URL(consent.url()).pathname === '/portal/sign-in') {
      await consent.fill('#email', user.email);
      await consent.fill('#password', user.password);
      // Signing in hashes the password on purpose slowly: a loaded machine needs more than the default.
      await Promise.all([
        consent.waitForURL((u) => u.pathname !== '/portal/sign-in', { timeout: 30_000 }),
        consent.click('#sign-in'),
      ]);
    }
    await consent.click('#authorize');
  };

  beforeAll(async () => {
    remote = await startHarness();
    remoteUser = memberUser(remote, 'analyst@second.example');
    // The OAuth application a user would register in the second service's portal.
    const registered = remote.server.store.oauth.createApplication({
      dataPartnerId: remote.partnerId,
      name: 'Asset Desk (e2e)',
      redirectUris: ['http://127.0.0.1/', oobRedirectUri],
    });
    oauthClient = { clientId: registered.uid, clientSecret: registered.secret };

    browser = await launchChromium();
    consent = await browser.context.newPage();
    consent.setDefaultTimeout(10_000);
    app = await startTestApp({
      openBrowser: async (url) => {
        await consent.goto(url);
      },
    });
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    pageErrors = watchPageErrors(page);
  });

  afterEach((ctx) => screenshotIfFailed(page, ctx, 'ui-conn'));

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await remote?.close();
  });

  it('opens on the demo entity with a compact guide that covers neither toolbar nor grid', async () => {
    await page.goto(app.host.launchUrl);
    const guide = byId('first-run-guide');
    await guide.waitFor();
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    expect(await byId('entity-picker').locator('option:checked').textContent()).toBe(demoEntity);
    expect(await byId('connection-button').textContent()).toBe('Local sandbox');
    for (const step of ['edit', 'validate', 'sync', 'export'])
      expect(await byId(`guide-step-${step}`).isVisible()).toBe(true);
    const text = await guide.textContent();
    expect(text).toContain('Problems panel');
    expect(text).toContain('Sync button');
    expect(text).toContain('Import / Export');

    const boxOf = async (selector: string): Promise<Box> => {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`${selector} is not laid out`);
      return box;
    };
    const guideBox = await boxOf('[data-testid="first-run-guide"]');
    const toolbar = await boxOf('.toolbar');
    const grid = await boxOf('[data-testid="assets-grid"]');
    expect(guideBox.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height - 1);
    expect(grid.y).toBeGreaterThanOrEqual(guideBox.y + guideBox.height - 1);
    // Compact: the grid keeps most of a 768-pixel-high window.
    expect(guideBox.height).toBeLessThan(110);
    await screenshot(page, 'ui-first-run.png');
  });

  it('stays dismissed after a reload, and comes back from the connections dialog', async () => {
    await byId('guide-dismiss').click();
    await expect.poll(() => byId('first-run-guide').count()).toBe(0);
    await page.reload();
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    // Long enough for a late render to have shown it.
    await page.waitForTimeout(300);
    expect(await byId('first-run-guide').count()).toBe(0);

    await openConnections();
    await byId('connections-show-guide').click();
    await byId('first-run-guide').waitFor();
    expect(await byId('connections-dialog').isVisible()).toBe(false);
  });

  it('"Add a real connection" opens the dialog; a bad address is refused field by field', async () => {
    await byId('guide-add-connection').click();
    const dialog = byId('connections-dialog');
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('add-connection-name');
    // The two built-in sandboxes: our spec's names and the real service's.
    expect(await byId('connection-row').count()).toBe(2);
    expect(await row(localSandboxId).textContent()).toContain('Signed in');

    await byId('add-connection-baseUrl').fill('http://example.com');
    await byId('add-connection-submit').click();
    expect(await byId('add-connection-name-error').textContent()).toContain('name');
    expect(await byId('add-connection-baseUrl-error').textContent()).toContain('https://');
    expect(await byId('add-connection-baseUrl').getAttribute('aria-invalid')).toBe('true');
    await byId('add-connection-baseUrl').fill('not an address');
    await byId('add-connection-name').fill(secondName);
    await byId('add-connection-submit').click();
    expect(await byId('add-connection-baseUrl-error').textContent()).toContain('Not a web address');
    expect((await session()).connections).toHaveLength(2);
  });

  it('adds the second service, refuses a wrong token clearly, and signs in with the right one', async () => {
    await byId('add-connection-baseUrl').fill(remote.baseUrl);
    await byId('add-connection-submit').click();
    const signIn = byId('sign-in-dialog');
    await signIn.waitFor({ state: 'visible' });
    expect(await signIn.locator('h2').textContent()).toBe(`Sign in to ${secondName}`);
    expect((await session()).connections.map((c) => c.name)).toEqual([
      'Local sandbox',
      "Local sandbox (real service's names)",
      secondName,
    ]);

    await byId('sign-in-token').fill('not-a-real-token-value');
    await byId('sign-in-submit').click();
    const error = byId('sign-in-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/Not signed in: The service refused this token \(401\)/);
    // The refused value is gone from the form, and nothing was stored.
    expect(await byId('sign-in-token').inputValue()).toBe('');
    expect((await session()).auth.signedIn).toBe(false);
    // The refusal is the call's answer on the bridge's socket: the page logs no error for it.
    expect(pageErrors).toEqual([]);
    await screenshot(page, 'ui-sign-in.png');

    const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await byId('sign-in-token').fill(remote.token);
    await byId('sign-in-expires').fill(expiresOn);
    await byId('sign-in-submit').click();
    await signIn.waitFor({ state: 'hidden' });
    await expect.poll(() => byId('connection-button').textContent()).toBe(secondName);
    await expect.poll(pickerOptions).toContain('Entity A');
    expect(await pickerOptions()).not.toContain('Entity B (not granted)');
    expect(await pickerOptions()).not.toContain(demoEntity);
    const now = await session();
    expect(now.auth).toMatchObject({ signedIn: true, kind: 'partner' });
    expect(now.auth.expiresAt?.slice(0, 10)).toBe(expiresOn);
    // The page holds no copy of the token.
    expect(await page.content()).not.toContain(remote.token);
  });

  it('lists both connections and switches back to the local sandbox', async () => {
    await openConnections();
    const id = await secondId();
    expect(await row(id).textContent()).toContain('Signed in (access token');
    expect(await row(id).getByTestId('connection-active').count()).toBe(1);
    expect(await row(localSandboxId).textContent()).toContain('checked when you switch');
    await screenshot(page, 'ui-connections.png');

    await row(localSandboxId).getByTestId('connection-select').click();
    await byId('connections-dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => byId('connection-button').textContent()).toBe('Local sandbox');
    await expect.poll(() => byId('entity-picker').locator('option:checked').textContent()).toBe(demoEntity);
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    expect((await session()).activeConnectionId).toBe(localSandboxId);
  });

  it("rehearses against the real service's names on the second built-in sandbox, and offers the real service's preset", async () => {
    await openConnections();
    const names = () => row(localSandboxRealNamesId).getByTestId('connection-asset-id-name').textContent();
    expect(await names()).toBe(
      "Asset id sent as gresb_asset_id (the real service's name; stated for this connection)",
    );
    expect(await row(localSandboxId).getByTestId('connection-asset-id-name').textContent()).toBe(
      "Asset id sent as service_asset_id (our spec's stand-in name; stated for this connection)",
    );
    await row(localSandboxRealNamesId).getByTestId('connection-select').click();
    await byId('connections-dialog').waitFor({ state: 'hidden' });
    await expect
      .poll(() => byId('connection-button').textContent(), { timeout: 60_000 })
      .toBe("Local sandbox (real service's names)");
    await expect.poll(() => byId('entity-picker').locator('option:checked').textContent()).toBe(demoEntity);
    // Its first pull: the demo assets arrive under gresb_asset_id, which the app reads.
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor({ timeout: 60_000 });
    expect((await session()).activeConnectionId).toBe(localSandboxRealNamesId);

    await openConnections();
    expect(await names()).toContain('gresb_asset_id');
    await byId('add-connection-preset').click();
    expect(await byId('add-connection-name').inputValue()).toBe('GRESB');
    expect(await byId('add-connection-baseUrl').inputValue()).toBe('https://api.gresb.com');
    await row(localSandboxId).getByTestId('connection-select').click();
    await expect.poll(() => byId('connection-button').textContent()).toBe('Local sandbox');
  });

  it('signs in with the browser (OAuth), after a cancelled attempt', async () => {
    await openConnections();
    const id = await secondId();
    // Forget the pasted token first, so this sign-in is the browser's alone.
    await row(id).getByTestId('connection-sign-out').click();
    await row(id).getByTestId('connection-sign-in').click();
    const signIn = byId('sign-in-dialog');
    await signIn.waitFor({ state: 'visible' });
    expect(await byId('sign-in-connection').inputValue()).toBe(id);
    await byId('sign-in-method-oauth').check();

    // A custom connection needs its registered application.
    await byId('oauth-start').click();
    expect(await byId('sign-in-error').textContent()).toContain('client id and secret');
    await byId('oauth-client-id').fill(oauthClient.clientId);
    await byId('oauth-client-secret').fill(oauthClient.clientSecret);

    await byId('oauth-start').click();
    await expect.poll(() => byId('oauth-waiting').textContent()).toContain('Waiting for the browser');
    await expect.poll(() => consent.url()).toContain(remote.baseUrl);
    await byId('oauth-cancel').click();
    await expect.poll(() => byId('oauth-waiting').count()).toBe(0);
    expect(await byId('sign-in-error').count()).toBe(0);

    await byId('oauth-start').click();
    await byId('oauth-waiting').waitFor();
    await authorizeInBrowser(remoteUser);
    await signIn.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await consent.textContent('body')).toMatch(/return to Asset Desk/i);
    await expect.poll(() => byId('connection-button').textContent()).toBe(secondName);
    await expect.poll(pickerOptions).toContain('Entity A');
    expect((await session()).auth).toMatchObject({ signedIn: true, kind: 'oauth' });
    expect(await page.content()).not.toContain(oauthClient.clientSecret);
  });

  it('signs in to the local sandbox with a code entered by hand', async () => {
    await openConnections();
    await row(localSandboxId).getByTestId('connection-select').click();
    await expect.poll(() => byId('connection-button').textContent()).toBe('Local sandbox');
    await openConnections();
    await row(localSandboxId).getByTestId('connection-sign-out').click();
    await expect.poll(() => row(localSandboxId).textContent()).toContain('Not signed in');
    await row(localSandboxId).getByTestId('connection-sign-in').click();
    await byId('sign-in-dialog').waitFor({ state: 'visible' });
    await byId('sign-in-method-oauth').check();
    // The built-in sandbox has its own application: no client fields.
    expect(await byId('oauth-client-id').count()).toBe(0);
    await byId('oauth-manual').click();
    await byId('oauth-code').waitFor();
    // The dialog shows the install's demo login, which the portal page does not: sign in with it.
    const shown = byId('oauth-portal-login').locator('code');
    const login = {
      email: (await shown.nth(0).textContent()) ?? '',
      password: (await shown.nth(1).textContent()) ?? '',
    };
    expect(login).toEqual(app.core.sandbox.demoUser);
    // The password is one word on one line, even when it starts with a hyphen.
    expect(
      await shown.nth(1).evaluate((el) => {
        const box = el as { getClientRects(): { length: number } };
        return { whiteSpace: getComputedStyle(el).whiteSpace, lines: box.getClientRects().length };
      }),
    ).toEqual({ whiteSpace: 'nowrap', lines: 1 });
    await authorizeInBrowser(login);
    const code = (await consent.textContent('#authorization-code'))?.trim() ?? '';
    expect(code.length).toBeGreaterThan(8);
    await byId('oauth-code').fill(code);
    await byId('oauth-submit-code').click();
    await byId('sign-in-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
    await expect.poll(() => byId('entity-picker').locator('option:checked').textContent()).toBe(demoEntity);
    await page.locator('[data-testid="assets-grid"] .ag-row').first().waitFor();
    expect((await session()).auth).toMatchObject({ signedIn: true, kind: 'oauth' });
  });

  it('removes the custom connection only after a confirmation', async () => {
    await openConnections();
    const id = await secondId();
    await row(id).getByTestId('connection-remove').click();
    expect(await row(id).textContent()).toContain(`Remove ${secondName}?`);
    await row(id).getByTestId('connection-remove-cancel').click();
    expect(await row(id).count()).toBe(1);
    await row(id).getByTestId('connection-remove').click();
    await row(id).getByTestId('connection-remove-confirm').click();
    await expect.poll(() => row(id).count()).toBe(0);
    expect((await session()).connections.map((c) => c.id)).toEqual([localSandboxId, localSandboxRealNamesId]);
    await byId('connections-close').click();
    await byId('connections-dialog').waitFor({ state: 'hidden' });
    expect(pageErrors).toEqual([]);
  });
});
