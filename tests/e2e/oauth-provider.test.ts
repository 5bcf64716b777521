import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthLogin } from '../../electron/auth/oauth-login';
import { fetchTokenInfo } from '../../electron/auth/oauth-token';
import { isAuthError } from '../../electron/auth/errors';
import { demoPassword, demoUserEmail } from '../../sandbox/demo-user';
import { seedDemo } from '../../sandbox/seed';
import { openStore } from '../../sandbox/store';
import { artifactPath, launchChromium } from '../../support/chromium';
import { assessmentYear, startHarness, type Harness } from '../sandbox/helpers';

/**
 * The app's own OAuth client (PKCE, state, loopback listener on a random port and path) against
 * the sandbox provider, with a real Chromium as the system browser.
 */
describe('OAuth provider with the app’s client in Chromium', () => {
  let h: Harness;
  let dir: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let clientId = '';
  let clientSecret = '';
  let seeded: { entityIds: number[] };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sandbox-oauth-e2e-'));
    const store = openStore(dir);
    seeded = seedDemo(store, { assessmentYear, assetsPerEntity: 12 });
    store.close();
    h = await startHarness({}, dir);
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const signInIfAsked = async (): Promise<void> => {
    if (new URL(page.url()).pathname !== '/portal/sign-in') return;
    await page.fill('#email', demoUserEmail);
    await page.fill('#password', demoPassword(dir).password);
    await Promise.all([
      page.waitForURL((u) => u.pathname !== '/portal/sign-in', { timeout: 30_000 }),
      page.click('#sign-in'),
    ]);
  };

  it('registers an OAuth application in the portal', async () => {
    await page.goto(`${h.baseUrl}/portal`);
    await signInIfAsked();
    await page.click('text=Data Partners');
    await page.fill('#app-name', 'Asset Desk (e2e)');
    await page.fill('#app-redirect-uris', 'http://127.0.0.1/\nurn:ietf:wg:oauth:2.0:oob');
    await page.click('#register-app');
    clientId = (await page.textContent('#client-id'))?.trim() ?? '';
    clientSecret = (await page.textContent('#client-secret'))?.trim() ?? '';
    expect(clientId).not.toBe('');
    expect(clientSecret).toMatch(/^sbxs_/);
    await page.screenshot({ path: await artifactPath('sandbox-portal-oauth-app.png') });
    // Signed out, so the authorization below has to ask for sign-in.
    await page.click('button:has-text("Sign out")');
    await page.waitForURL((u) => u.pathname === '/portal/sign-in');
  });

  it('loopback: sign in, authorize, code on the listener, exchange, token info, API call', async () => {
    const login = await startOAuthLogin({
      connection: { portalUrl: h.baseUrl, authUrl: h.baseUrl },
      clientId,
      clientSecret,
      scopes: ['entities', 'read:assets'],
      openBrowser: async (url) => {
        await page.goto(url);
      },
      timeoutMs: 60_000,
    });
    expect(login.mode).toBe('loopback');
    expect(login.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/[A-Za-z0-9_-]+$/);
    await signInIfAsked();
    await page.waitForSelector('#authorize');
    await page.screenshot({ path: await artifactPath('sandbox-oauth-consent.png') });
    await page.click('#authorize');
    const tokens = await login.result;
    await expect.poll(() => page.textContent('h1')).toBe('Signed in');
    expect(tokens.scopes).toEqual(['entities', 'read:assets']);
    expect(tokens.expiresAt.getTime() - tokens.obtainedAt.getTime()).toBe(7200_000);

    const info = await fetchTokenInfo({ authUrl: h.baseUrl, accessToken: tokens.accessToken });
    expect(info?.applicationUid).toBe(clientId);
    expect(info?.scopes).toEqual(['public', 'entities', 'read:assets']);
    const res = await fetch(`${h.baseUrl}/api/v1/entities`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { id: number }[]).map((e) => e.id);
    expect(ids).toEqual(seeded.entityIds);
    const assets = await fetch(`${h.baseUrl}/api/v1/entities/${ids[0]}/assets?per_page=5`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(assets.status).toBe(200);
    expect(assets.headers.get('total')).toBe('12');
  });

  it('deny: the client gets access_denied from the listener', async () => {
    const login = await startOAuthLogin({
      connection: { portalUrl: h.baseUrl, authUrl: h.baseUrl },
      clientId,
      clientSecret,
      scopes: ['entities'],
      openBrowser: async (url) => {
        await page.goto(url);
      },
      timeoutMs: 60_000,
    });
    // Still signed in from the previous flow: straight to the consent page.
    await page.waitForSelector('#deny');
    await page.click('#deny');
    const error = await login.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAuthError(error, 'access_denied')).toBe(true);
    await expect.poll(() => page.textContent('h1')).toBe('Sign-in not completed');
  });

  it('oob: the code is shown in the browser and pasted into the app', async () => {
    const login = await startOAuthLogin({
      connection: { portalUrl: h.baseUrl, authUrl: h.baseUrl },
      clientId,
      clientSecret,
      scopes: ['entities'],
      redirect: 'oob',
      openBrowser: async (url) => {
        await page.goto(url);
      },
      timeoutMs: 60_000,
    });
    expect(login.mode).toBe('oob');
    await page.click('#authorize');
    const code = (await page.textContent('#authorization-code'))?.trim() ?? '';
    await page.screenshot({ path: await artifactPath('sandbox-oauth-oob-code.png') });
    login.submitCode(code);
    const tokens = await login.result;
    const res = await fetch(`${h.baseUrl}/api/v1/entities`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
    });
    expect(res.status).toBe(200);
  });
});
