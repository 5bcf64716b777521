/**
 * A listing page nested deeper than any answer of the service is refused before it is parsed, and
 * the pull stops there: no later page is asked for, those in flight are dropped (issue 29: deeply
 * nested 30 MB pages ran 59 s and 3.4 GB into "Maximum call stack size exceeded", and later pages
 * were still fetched after page 1 had failed). Over real HTTP on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../shared/text/json-depth';
import { makeClient, makeEngine, tempWorkspace } from '../../../support/sync-harness';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const asset = (id: number, extra: Record<string, unknown> = {}) => ({
  service_asset_id: id,
  partners_id: null,
  name: `Asset ${id}`,
  ...extra,
});

/** 100 pages of one asset; page 1 carries a value nested `depth` levels; the others answer in 300 ms. */
async function listing(depth: number): Promise<{ baseUrl: string; pages: number[] }> {
  const pages: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = Number(url.searchParams.get('page') ?? 1);
    pages.push(page);
    const headers = {
      'content-type': 'application/json',
      total: '100',
      'per-page': '1',
      link: `</api/v1/entities/7/assets?page=100&per_page=1>; rel="last"`,
    };
    if (page === 1) {
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      res.writeHead(200, headers);
      res.end(`[${JSON.stringify(asset(1)).slice(0, -1)},"notes":${deep}}]`);
      return;
    }
    setTimeout(() => {
      res.writeHead(200, headers);
      res.end(JSON.stringify([asset(page)]));
    }, 300);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pages };
}

describe('a listing page nested too deep', () => {
  it('is refused unparsed and ends the pull: no page is asked for after it', async () => {
    const { baseUrl, pages } = await listing(MAX_JSON_DEPTH + 10);
    const { store } = tempWorkspace('deep-listing');
    const { engine } = makeEngine(store, makeClient(baseUrl, 'token', { retries: 0 }), 7);
    const error = await engine.pull().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/page 1 of the assets nests deeper than 64 levels/);
    // Page 1 and at most the four asked for beside it before its refusal; none after.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(Math.max(...pages)).toBeLessThanOrEqual(5);
    expect(store.assetCount()).toBe(0);
    store.close();
  });
});
