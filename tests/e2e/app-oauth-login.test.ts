/**
 * The app's sign-in through the bridge, end to end: "Sign in with OAuth" opens the system browser
 * (real Chromium) on the embedded sandbox's portal; the user signs in and authorizes; the code comes
 * back to the app's loopback listener; the token lands in the real keychain (gnome-keyring) and the
 * app calls the API with it. Forged callbacks and the deny path are refused.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthFinished } from '../../shared/bridge/types';
import { localSandboxId } from '../../electron/auth/connections';
import { KeytarSecretStore, type KeychainApi } from '../../electron/auth/secret-store';
import { startAppCore, type AppCore } from '../../electron/app/app-core';
import { artifactPath, launchChromium } from '../../support/chromium';
import { testAssessmentYear } from '../../support/test-app';

/** The real keychain, namespaced so parallel test files never share an entry. */
const namespace = `e2e-oauth-${process.pid}`;
const keychain: KeychainApi = {
  getPassword: (service, account) => keytar.getPassword(`${service}:${namespace}`, account),
  setPassword: (service, account, password) =>
    keytar.setPassword(`${service}:${namespace}`, account, password),
  deletePassword: (service, account) => keytar.deletePassword(`${service}:${namespace}`, account),
};

describe('OAuth sign-in through the app', () => {
  let core: AppCore;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  const finished: OAuthFinished[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.context.newPage();
    core = await startAppCore({
      dataDir: mkdtempSync(join(tmpdir(), 'asset-desk-oauth-')),
      version: 'test',
      host: 'browser',
      assessmentYear: testAssessmentYear,
      secrets: { store: new KeytarSecretStore(keychain), status: { available: true, backend: 'keychain' } },
      // Chromium plays the system browser.
      openBrowser: async (url) => {
        await page.goto(url);
      },
    });
    core.events.attach({
      emit(name, payload) {
        if (name === 'auth.oauthFinished') finished.push(payload as OAuthFinished);
      },
    });
    // Start signed out, as a user who chose OAuth would be.
    await core.handlers['auth.signOut']({ connectionId: localSandboxId });
  });

  afterAll(async () => {
    await keychain.deletePassword(`asset-desk:${localSandboxId}`, 'access-token').catch(() => false);
    await browser?.close();
    await core?.close();
  });

  async function signInAndDecide(decision: 'Authorize' | 'Deny'): Promise<void> {
    if (new URL(page.url()).pathname === '/portal/sign-in') {
      await page.fill('#email', core.sandbox.demoUser.email);
      await page.fill('#password', core.sandbox.demoUser.password);
      await Promise.all([
        page.waitForURL((u) => u.pathname !== '/portal/sign-in', { timeout: 30_000 }),
        page.click('#sign-in'),
      ]);
    }
    await page.screenshot({ path: await artifactPath(`app-oauth-consent-${decision.toLowerCase()}.png`) });
    await page.click(`button:has-text("${decision}")`);
  }

  const outcome = (flowId: string) =>
    expect.poll(() => finished.find((f) => f.flowId === flowId), { timeout: 15_000 }).toBeDefined();

  it('refuses forged callbacks (wrong state, wrong path) and still completes the real one', async () => {
    expect((await core.handlers['session.get']({})).auth.signedIn).toBe(false);
    const start = await core.handlers['auth.startOAuth']({ connectionId: localSandboxId });
    expect(start.mode).toBe('loopback');
    expect(start.browserOpened).toBe(true);
    // The sign-in dialog shows the install's demo login beside the wait; the portal page never does.
    expect(start.portalLogin).toEqual(core.sandbox.demoUser);
    expect(core.sandbox.demoUser.password).not.toBe('sandbox-demo');
    expect(new URL(page.url()).pathname).toBe('/portal/sign-in');
    expect(await page.content()).not.toContain(core.sandbox.demoUser.password);
    const redirectUri = new URL(new URL(start.authorizeUrl).searchParams.get('redirect_uri') ?? '');
    expect(redirectUri.hostname).toBe('127.0.0.1');
    expect(redirectUri.pathname.length).toBeGreaterThan(30);

    const forgedState = await fetch(`${redirectUri.href}?code=forged&state=not-the-state`);
    expect(forgedState.status).toBe(400);
    const wrongPath = await fetch(`${redirectUri.origin}/oauth/guess?code=forged&state=x`);
    expect(wrongPath.status).toBe(404);
    expect(finished).toEqual([]);

    await signInAndDecide('Authorize');
    await outcome(start.flowId);
    expect(finished.find((f) => f.flowId === start.flowId)).toEqual({ flowId: start.flowId, ok: true });
    expect(await page.textContent('body')).toMatch(/return to Asset Desk/i);

    // The token is in the keychain (a fresh store reads it back) and is an OAuth token.
    const stored = await new KeytarSecretStore(keychain).read(localSandboxId);
    expect(stored?.kind).toBe('oauth');
    expect(stored?.accessToken).toMatch(/\S{20,}/);
    expect(new Date(stored?.expiresAt ?? 0).getTime() - Date.now()).toBeGreaterThan(7_000_000);

    // The app works with it: entities and the workspace come from the service.
    const session = await core.handlers['session.get']({});
    expect(session.auth).toMatchObject({ signedIn: true, kind: 'oauth', storage: 'keychain' });
    expect(session.entities.length).toBeGreaterThan(0);
    const snapshot = await core.handlers['workspace.snapshot']({});
    expect(snapshot.assets.length).toBeGreaterThan(0);
    const report = await core.handlers['sync.run']({});
    expect(report.stopped).toBeUndefined();
  });

  it('the deny path ends the flow with access_denied and stores nothing new', async () => {
    const before = await new KeytarSecretStore(keychain).read(localSandboxId);
    const start = await core.handlers['auth.startOAuth']({ connectionId: localSandboxId });
    await signInAndDecide('Deny');
    await outcome(start.flowId);
    expect(finished.find((f) => f.flowId === start.flowId)).toMatchObject({
      ok: false,
      code: 'access_denied',
    });
    expect(await new KeytarSecretStore(keychain).read(localSandboxId)).toEqual(before);
  });
});
