/**
 * The bridge's long-lived connections are held to a number per host, each refusal saying why, and
 * a socket left idle is closed (the page opens another with its next call).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserHost, type BrowserHost } from '../../../electron/browser-host/server';
import {
  bridgeEventsPath,
  bridgeSecretHeader,
  bridgeSocketPath,
  bridgeSocketProtocol,
} from '../../../shared/bridge/browser-host-secret';
import { hostCookie, hostSecret, openBridgeSocket } from '../../support/bridge-socket';
import { builtRendererDir } from '../../../support/built-renderer';
import { startTestApp, type TestApp } from '../../../support/test-app';

let app: TestApp;
let host: BrowserHost;
let cookie = '';
const idleMs = 1500;

beforeAll(async () => {
  app = await startTestApp();
  host = await startBrowserHost({
    rendererDir: builtRendererDir(),
    handlers: app.core.handlers,
    limits: { sockets: 2, streams: 2, socketIdleMs: idleMs },
  });
  cookie = await hostCookie(host);
}, 120_000);
afterAll(async () => {
  await host?.close();
  await app?.close();
});

/** Opens a socket as the page does; resolves once it is open, with how it later closes. */
function pageSocket(): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(
    `${host.origin.replace('http', 'ws')}${bridgeSocketPath}`,
    [bridgeSocketProtocol, hostSecret(host)],
    { headers: { Cookie: cookie, Origin: host.origin } },
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('error', reject);
  });
}

function openStream(): Promise<Response> {
  return fetch(`${host.origin}${bridgeEventsPath}`, {
    headers: { Cookie: cookie, [bridgeSecretHeader]: hostSecret(host) },
  });
}

describe('bridge connections', () => {
  it('holds at most its number of sockets, refusing the next with the reason', async () => {
    const first = await openBridgeSocket(host, { cookie });
    const second = await openBridgeSocket(host, { cookie });
    const third = await openBridgeSocket(host, { cookie });
    const refused = await third.sendRaw(JSON.stringify({ id: 1, name: 'app.info', args: {} }));
    expect(refused.code).toBe(1013);
    expect(refused.reason).toMatch(/Too many bridge sockets \(2\): close other Asset Desk tabs/);
    expect((await first.call('app.info')).ok).toBe(true);
    // One closed makes room for another.
    second.close();
    await expect
      .poll(async () => {
        const next = await openBridgeSocket(host, { cookie });
        const answer = await Promise.race([
          next.call('app.info'),
          new Promise((resolve) => setTimeout(() => resolve('refused'), 300)),
        ]);
        next.close();
        return answer !== 'refused';
      })
      .toBe(true);
    first.close();
  });

  it('holds at most its number of event streams, refusing the next with the reason', async () => {
    const held = [await openStream(), await openStream()];
    for (const stream of held) expect(stream.status).toBe(200);
    const refused = await openStream();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      code: 'busy',
      message: 'Too many bridge event streams (2): close other Asset Desk tabs.',
    });
    await held[0]?.body?.cancel();
    await expect
      .poll(async () => {
        const next = await openStream();
        await next.body?.cancel();
        return next.status;
      })
      .toBe(200);
    await held[1]?.body?.cancel();
  });

  it('closes a socket left idle, but not one whose calls keep coming', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idle = await pageSocket();
    const busy = await pageSocket();
    const busyClosed = { value: false };
    void busy.closed.then(() => (busyClosed.value = true));
    // Calls every fifth of the idle time, for twice the idle time.
    for (let i = 0; i < 10; i++) {
      busy.ws.send(JSON.stringify({ id: i, name: 'app.info', args: {} }));
      await new Promise((resolve) => setTimeout(resolve, idleMs / 5));
    }
    const closed = await idle.closed;
    expect(closed.code).toBe(1000);
    expect(closed.reason).toMatch(/^Idle for 1 min: closed/);
    expect(busyClosed.value).toBe(false);
    busy.ws.close();
  });
});
