/**
 * The browser host's bridge secret, spoken to as an attacker would, over raw HTTP on 127.0.0.1:
 * every request below carries the host's cookie (which Chromium also gives a page on any other
 * 127.0.0.1 port) but not the page's bridge secret, and names a bridge route in a form the router
 * decodes or takes (percent-encoded letters, the absolute form). None may reach the bridge.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeSocketProtocol } from '../../../shared/bridge/browser-host-secret';
import { hostCookie, hostSecret } from '../../support/bridge-socket';
import { startTestApp, type TestApp } from '../../../support/test-app';

let app: TestApp;
let cookie = '';
let port = '';

beforeAll(async () => {
  app = await startTestApp({ browserFiles: true });
  cookie = await hostCookie(app.host);
  port = new URL(app.host.origin).port;
}, 120_000);
afterAll(() => app?.close());

/**
 * One request written byte for byte (so its target is exactly as given, encoded or absolute);
 * resolves with the status once the answer's head has arrived, then drops the connection.
 */
function rawStatus(
  target: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<number> {
  const headers: Record<string, string> = {
    Host: `127.0.0.1:${port}`,
    Cookie: cookie,
    Connection: 'close',
    ...opts.headers,
    ...(opts.body ? { 'Content-Length': String(opts.body.length) } : {}),
  };
  const head = [
    `${opts.method ?? 'GET'} ${target} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0));
      socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    if (opts.body) socket.write(opts.body);
  });
}

const upgrade = (protocols?: string): Record<string, string> => ({
  Upgrade: 'websocket',
  Connection: 'Upgrade',
  'Sec-WebSocket-Version': '13',
  'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
  ...(protocols ? { 'Sec-WebSocket-Protocol': protocols } : {}),
});

describe('the bridge secret, whatever form the path takes', () => {
  const encodedSocket = [
    '/%62ridge/socket',
    '/bridg%65/socket',
    '/%62%72%69%64%67%65/%73ocket',
    '/bridge/%73ocket',
  ];
  const encodedEvents = ['/%62ridge/events', '/bridg%65/events', '/bridge/%65vents'];

  it('refuses the socket at an encoded path without the secret, and opens it with the secret', async () => {
    for (const target of encodedSocket) {
      for (const protocols of [undefined, bridgeSocketProtocol, `${bridgeSocketProtocol}, wrong`]) {
        const status = await rawStatus(target, { headers: upgrade(protocols) });
        expect({ target, protocols, status }).toEqual({ target, protocols, status: 403 });
      }
      // The same path with the page's secret is the bridge's socket: these paths do reach it.
      const own = await rawStatus(target, {
        headers: upgrade(`${bridgeSocketProtocol}, ${hostSecret(app.host)}`),
      });
      expect({ target, own }).toEqual({ target, own: 101 });
    }
  });

  it('refuses the event stream at an encoded path without the secret', async () => {
    for (const target of encodedEvents) {
      for (const method of ['GET', 'HEAD']) {
        const status = await rawStatus(target, { method });
        expect({ target, method, status }).toEqual({ target, method, status: 403 });
      }
      const own = await rawStatus(target, { headers: { 'x-asset-desk-bridge': hostSecret(app.host) } });
      expect({ target, own }).toEqual({ target, own: 200 });
    }
  });

  it('refuses the file routes at an encoded path without the secret', async () => {
    const file = join(app.dataDir, 'offered.csv');
    writeFileSync(file, 'a,b\n1,2\n');
    const transfers = app.core.transfers;
    if (!transfers) throw new Error('the browser host has its file routes');
    const id = transfers.offer(file, 'offered.csv');
    for (const target of [`/%62ridge/files/download/${id}`, `/bridge/files/%64ownload/${id}`]) {
      expect({ target, status: await rawStatus(target) }).toEqual({ target, status: 403 });
    }
    const body = Buffer.from('name\nx\n');
    for (const target of ['/%62ridge/files/upload?name=a.csv', '/bridge/%66iles/upload?name=a.csv']) {
      const status = await rawStatus(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/octet-stream' },
        body,
      });
      expect({ target, status }).toEqual({ target, status: 403 });
    }
    // Still there for the page, which has the secret.
    const own = await rawStatus(`/bridge/files/download/${id}`, {
      headers: { 'x-asset-desk-bridge': hostSecret(app.host) },
    });
    expect(own).toBe(200);
  });

  it('refuses the absolute form on every route', async () => {
    for (const path of ['/bridge/socket', '/bridge/events', '/bridge/files/upload?name=a.csv', '/']) {
      for (const origin of [
        `http://127.0.0.1:${port}`,
        `http://localhost:${port}`,
        `HTTP://127.0.0.1:${port}`,
      ]) {
        const target = `${origin}${path}`;
        const headers = path === '/bridge/socket' ? upgrade(bridgeSocketProtocol) : {};
        expect({ target, status: await rawStatus(target, { headers }) }).toEqual({ target, status: 400 });
      }
    }
  });

  it('without the secret, the plain paths are refused as before, and other paths reach no bridge route', async () => {
    expect(await rawStatus('/bridge/socket', { headers: upgrade(bridgeSocketProtocol) })).toBe(403);
    expect(await rawStatus('/bridge/events')).toBe(403);
    for (const target of ['/x/../bridge/events', '//bridge/events', '/BRIDGE/events', '/bridge%2Fevents']) {
      const status = await rawStatus(target);
      expect({ target, status, reached: status < 300 }).toEqual({ target, status, reached: false });
    }
  });
});
