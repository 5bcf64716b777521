/**
 * A batch answer nested deeper than any answer of the service is refused where its bytes are read
 * (the service client on main, as they arrive), before the sync's worker parses it: the worker no
 * longer scans an answer's nesting a second time, so this is the one place that refuses it. The
 * batch may have been applied (the answer was a 200), so it stays in the outbox to be reconciled,
 * and nothing of it is settled. Over real HTTP on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../shared/text/json-depth';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A service whose every batch answer carries a value nested `depth` levels; it counts the posts. */
async function deepAnswers(depth: number): Promise<{ baseUrl: string; posts: () => number }> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      posts++;
      const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"created":[{"service_asset_id":1,"partners_id":1,"name":"A","notes":${deep}}]}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts: () => posts };
}

describe('a batch answer nested too deep', () => {
  it('is refused as it is read: the batch stays to be reconciled, nothing of it settled', async () => {
    const { baseUrl, posts } = await deepAnswers(MAX_JSON_DEPTH + 10);
    const { store } = tempWorkspace('deep-answer');
    store.transaction(() => {
      for (let i = 0; i < 3; i++) store.createAsset(newAsset(i));
    });
    const client = makeClient(baseUrl, 'token', { retries: 0 });
    // No reconcile round: the lost answer ends the push, its batch left in the outbox.
    const { engine } = makeEngine(store, client, 7, { maxReconcileRounds: 0 });
    const error = await engine.push().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/keeps dropping answers/);
    expect(posts()).toBe(1);
    const [batch, ...others] = store.unsettledBatches();
    expect(others).toEqual([]);
    expect(batch?.localIds).toHaveLength(3);
    expect(store.listAssets().map((asset) => asset.serviceAssetId)).toEqual([null, null, null]);
    store.close();
  });
});
