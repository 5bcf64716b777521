/**
 * Every request's deadline holds through garbage collection (issue 29): a service that accepts the
 * connection and then stalls — before its headers, in the middle of a body, or on the second page of
 * a listing — fails the call after the client's timeout, never after undici's 5-minute default.
 * The collector runs every 20 ms meanwhile: `AbortSignal.timeout()` combined by `AbortSignal.any()`
 * was collected with its timer, so the call waited 300 s.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../electron/service-client/errors';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { fetchWithDeadline } from '../../../electron/net/deadline';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `work` with the collector running every 20 ms; resolves with its outcome and duration. */
async function underCollection(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const collecting = setInterval(gc, 20);
  const started = performance.now();
  try {
    await work();
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  } finally {
    clearInterval(collecting);
  }
}

const client = (baseUrl: string) =>
  new SubmissionApiClient({ baseUrl, getToken: () => 't', retries: 0, timeoutMs: 1000, deadlineMs: 1000 });

const asset = (id: number) => ({ service_asset_id: id, partners_id: id, name: `A${id}` });

function expectTimeout(outcome: { error: unknown; ms: number }): void {
  expect(outcome.error).toBeInstanceOf(ApiError);
  expect((outcome.error as ApiError).kind).toBe('timeout');
  // The client's 1 s, plus the machine's slack; never undici's 300 s.
  expect(outcome.ms).toBeLessThan(6000);
}

describe('a stalled service fails the call at its deadline, through garbage collection', () => {
  it('before the headers', async () => {
    const baseUrl = await serve(() => undefined);
    const cancel = new AbortController();
    expectTimeout(await underCollection(() => client(baseUrl).listEntities(cancel.signal)));
  }, 20_000);

  it('in the middle of a body', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id": 1, ');
    });
    const cancel = new AbortController();
    expectTimeout(await underCollection(() => client(baseUrl).listEntities(cancel.signal)));
  }, 20_000);

  it('between the pages of a listing', async () => {
    const requests: string[] = [];
    const baseUrl = await serve((req, res) => {
      requests.push(req.url ?? '');
      if (!req.url?.includes('page=1&')) return; // page 2 never answers
      res.writeHead(200, {
        'content-type': 'application/json',
        total: '2',
        'per-page': '1',
        link: '</api/v1/entities/1/assets?page=2&per_page=1>; rel="last"',
      });
      res.end(JSON.stringify([asset(1)]));
    });
    const cancel = new AbortController();
    const outcome = await underCollection(() =>
      client(baseUrl).listAllAssets(1, { perPage: 1, signal: cancel.signal }),
    );
    expectTimeout(outcome);
    expect(requests.some((url) => url.includes('page=2'))).toBe(true);
  }, 20_000);

  it('a cancel still cancels, and an answer read whole leaves no timer behind', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const response = await fetchWithDeadline(`${baseUrl}/`, { method: 'GET' }, { timeoutMs: 60_000 });
    expect(await response.json()).toEqual([]);
    const stalled = await serve(() => undefined);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    const outcome = await underCollection(() => client(stalled).listEntities(cancel.signal));
    expect((outcome.error as ApiError).kind).toBe('cancelled');
  }, 20_000);
});
