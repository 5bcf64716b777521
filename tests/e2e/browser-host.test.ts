import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserHost } from '../../electron/browser-host/server';
import { bridgeSocketProtocol } from '../../shared/bridge/browser-host-secret';
import { handshakeStatus, hostCookie, hostSecret, openBridgeSocket } from '../support/bridge-socket';
import { artifactPath, launchChromium } from '../../support/chromium';
import { startTestApp, type TestApp } from '../../support/test-app';

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
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain(hostSecret(host));

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

  it('refuses a bridge socket without the per-run token', async () => {
    expect(await handshakeStatus(host, { cookie: '' })).toBe(403);
  });

  it('refuses a wrong token or secret, a foreign Host header and a cross-site Origin', async () => {
    const launch = await fetch(host.launchUrl, { redirect: 'manual' });
    expect(launch.status).toBe(303);
    expect(launch.headers.get('set-cookie')).toMatch(/HttpOnly.*SameSite=Strict|SameSite=Strict.*HttpOnly/i);
    const cookie = await hostCookie(host);
    expect(await handshakeStatus(host, { cookie: 'asset_desk_host=wrong' })).toBe(403);
    expect(await handshakeStatus(host, { cookie, protocols: [bridgeSocketProtocol, 'wrong'] })).toBe(403);
    // The secret alone, or beside anything else, is not the protocol.
    expect(await handshakeStatus(host, { cookie, protocols: [hostSecret(host)] })).toBe(403);
    expect(
      await handshakeStatus(host, { cookie, protocols: [bridgeSocketProtocol, hostSecret(host), 'x'] }),
    ).toBe(403);
    expect(await handshakeStatus(host, { cookie, headers: { Origin: 'http://evil.example' } })).toBe(403);
    // DNS rebinding: a page of another site that resolves to 127.0.0.1 sends its own Host.
    expect(await handshakeStatus(host, { cookie, headers: { Host: 'evil.example' } })).toBe(421);
    const socket = await openBridgeSocket(host, { cookie });
    expect(await socket.call('app.info')).toEqual({
      ok: true,
      result: { name: 'Asset Desk', version: 'test', host: 'browser', fileDialogs: true },
    });
    socket.close();
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

      // Replayed, it opens neither the bridge's socket nor its event stream.
      expect(await handshakeStatus(host, { cookie: leaked ?? '', protocols: [bridgeSocketProtocol] })).toBe(
        403,
      );
      const stream = await fetch(`${host.origin}/bridge/events`, { headers: { Cookie: leaked ?? '' } });
      expect(stream.status).toBe(403);
      await stream.body?.cancel();

      // With the page's own secret it is the page, and works.
      const own = await openBridgeSocket(host, { cookie: leaked ?? '' });
      expect((await own.call('app.info')).ok).toBe(true);
      own.close();
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('rejects arguments outside the contract with a clear error, and keeps the socket', async () => {
    const socket = await openBridgeSocket(host, { cookie: await hostCookie(host) });
    const answer = await socket.call('workspace.edit', {
      edits: [{ localId: 'x', path: '../etc', value: {} }],
      extra: true,
    });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('bad_request');
    expect(answer.error.message).toContain('Invalid arguments for workspace.edit');
    expect(await socket.call('not.in.contract')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await socket.call('app.info')).ok).toBe(true);
    socket.close();
  });

  it('closes a socket that sends anything but a call, or more than its limit, before parsing it', async () => {
    const cookie = await hostCookie(host);
    const malformed = await openBridgeSocket(host, { cookie });
    expect(await malformed.sendRaw('{"id": "1", "name": "app.info"}')).toMatchObject({ code: 1008 });
    const garbage = await openBridgeSocket(host, { cookie });
    expect(await garbage.sendRaw('not json')).toMatchObject({ code: 1008 });
    const binary = await openBridgeSocket(host, { cookie });
    expect(await binary.sendRaw(Buffer.from([1, 2, 3]))).toMatchObject({ code: 1008 });
    // 17 MB: over the 16 MB limit, refused as it arrives (1009: message too big).
    const huge = await openBridgeSocket(host, { cookie });
    expect(await huge.sendRaw('x'.repeat(17 * 1024 * 1024))).toMatchObject({ code: 1009 });
    // The host still answers a well-formed socket.
    const after = await openBridgeSocket(host, { cookie });
    expect((await after.call('app.info')).ok).toBe(true);
    after.close();
  });
});
