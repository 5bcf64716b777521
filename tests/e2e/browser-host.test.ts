import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHost } from '../../electron/browser-host/server';
import { bridgeSecretHeader, secretFromFragment } from '../../shared/bridge/browser-host-secret';
import { artifactPath, launchChromium } from '../support/chromium';
import { startTestApp, type TestApp } from '../support/test-app';

describe('browser host', () => {
  let app: TestApp;
  let host: BrowserHost;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    app = await startTestApp();
    host = app.host;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the grid rows that came through the bridge in real Chromium', { timeout: 60_000 }, async () => {
    const page = await browser.context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(host.launchUrl);
    // The launch URL swaps the token for a cookie and redirects to a clean URL; the page keeps the
    // bridge secret from the fragment in sessionStorage and takes it off the address bar.
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain(bridgeSecret(host));

    // What the bridge serves: the demo entity's workspace, pulled from the embedded sandbox.
    const snapshot = await app.core.handlers['workspace.snapshot']({});
    const first = snapshot.assets[0];
    expect(first).toBeDefined();
    const row = page.locator(`.ag-row[row-id="${first?.localId}"] [col-id="name"]`).first();
    await row.waitFor();
    expect(await row.textContent()).toBe(first?.doc['name']);
    await expect
      .poll(() => page.locator('.status-bar').textContent())
      .toContain(`${snapshot.assets.length} assets`);
    await page.screenshot({ path: await artifactPath('browser-host-assets-grid.png') });
    expect(consoleErrors).toEqual([]);
    await page.close();
  });

  it('refuses a page load without the per-run token', async () => {
    const page = await browser.context.newPage();
    await page.context().clearCookies();
    const response = await page.goto(`${host.origin}/`);
    expect(response?.status()).toBe(403);
    await page.close();
  });

  it('refuses a bridge call without the per-run token', async () => {
    const response = await fetch(`${host.origin}/bridge/invoke/session.get`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'forbidden' });
  });

  it('refuses a wrong token, a foreign Host header and a cross-site Origin', async () => {
    const cookie = await tokenCookie(host);
    const url = `${host.origin}/bridge/invoke/app.info`;
    const post = (headers: Record<string, string>) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' });

    expect(
      (await post({ Cookie: 'asset_desk_host=wrong', [bridgeSecretHeader]: bridgeSecret(host) })).status,
    ).toBe(403);
    expect((await post({ Cookie: cookie, Origin: 'http://evil.example' })).status).toBe(403);
    // Node's fetch will not let a caller set Host, so speak HTTP/1.1 by hand for the rebinding case.
    expect(await rawStatus(host, 'evil.example', cookie)).toBe(421);
    const ok = await post({ Cookie: cookie, Origin: host.origin, [bridgeSecretHeader]: bridgeSecret(host) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      ok: true,
      result: { name: 'Asset Desk', version: 'test', host: 'browser', fileDialogs: true },
    });
  });

  it('the cookie another 127.0.0.1 port receives gives no bridge access', { timeout: 60_000 }, async () => {
    // Cookies are not scoped by port: a server on another local port gets the host's cookie.
    let seen: IncomingHttpHeaders | undefined;
    const other = createServer((req, res) => {
      seen = req.headers;
      res.end('other local server');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const page = await browser.context.newPage();
      await page.goto(host.launchUrl);
      const address = other.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.close();
      const leaked = /asset_desk_host=[^;]+/.exec(seen?.cookie ?? '')?.[0];
      expect(leaked).toBeDefined();

      // Replayed, it opens neither a bridge call nor the event stream.
      const call = await fetch(`${host.origin}/bridge/invoke/session.get`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: leaked ?? '' },
        body: '{}',
      });
      expect(call.status).toBe(403);
      const stream = await fetch(`${host.origin}/bridge/events`, { headers: { Cookie: leaked ?? '' } });
      expect(stream.status).toBe(403);
      await stream.body?.cancel();

      // With the page's own secret it is the page, and works.
      const own = await fetch(`${host.origin}/bridge/invoke/app.info`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Cookie: leaked ?? '',
          [bridgeSecretHeader]: bridgeSecret(host),
        },
        body: '{}',
      });
      expect(own.status).toBe(200);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('rejects arguments outside the contract with a clear error', async () => {
    const cookie = await tokenCookie(host);
    const response = await fetch(`${host.origin}/bridge/invoke/workspace.edit`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: cookie,
        [bridgeSecretHeader]: bridgeSecret(host),
      },
      body: JSON.stringify({ edits: [{ localId: 'x', path: '../etc', value: {} }], extra: true }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain('Invalid arguments for workspace.edit');
  });
});

function bridgeSecret(host: BrowserHost): string {
  return secretFromFragment(new URL(host.launchUrl).hash) ?? '';
}

async function tokenCookie(host: BrowserHost): Promise<string> {
  const response = await fetch(host.launchUrl, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Strict/i);
  return setCookie.split(';')[0] ?? '';
}

async function rawStatus(host: BrowserHost, hostHeader: string, cookie: string): Promise<number> {
  const { request } = await import('node:http');
  const target = new URL(host.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: '/bridge/invoke/app.info',
        method: 'POST',
        headers: { Host: hostHeader, Cookie: cookie, 'Content-Type': 'application/json' },
        setHost: false,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}
