/**
 * The pull's local part on real listing pages from the sandbox: a group of pages is weighed
 * against the workspace's rows read in one statement, so an asset listed twice in one group (the
 * listing shifted between pages) must be taken in once, and a re-pull must find every row it read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullRun } from '../../../electron/sync/pull-run';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('PullRun', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
    const { store } = tempWorkspace('seed');
    for (let i = 0; i < 150; i++) store.createAsset(newAsset(i));
    const report = await makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
    expect(report.push.created).toBe(150);
  });
  afterAll(() => h?.close());

  const page = (n: number) => makeClient(h.baseUrl, h.token).listAssetsPageBytes(h.entityId, n, 100);

  /** Feeds pages (in this order, numbered from 1) to a pull run and finishes it. */
  function pull(run: PullRun, pages: Array<Awaited<ReturnType<typeof page>>>) {
    const seen = pages.flatMap(
      ({ bytes, status, meta }, i) => run.page(bytes, status, i + 1, meta, pages.length).ids,
    );
    run.lacking(seen);
    return run.finish([], []);
  }

  it('takes an asset listed on two pages of one group in once', async () => {
    const { store } = tempWorkspace('twice');
    const first = await page(1);
    // Page 1 again as page 2: the listing moved down by a whole page between the two reads.
    const summary = pull(new PullRun(store), [first, first, await page(2)]);
    expect(summary.added).toBe(150);
    expect(store.assetCount()).toBe(150);
    expect(new Set(store.serviceIds()).size).toBe(150);
  });

  it('finds every known row on a re-pull, and merges a copy the service changed', async () => {
    const { store } = tempWorkspace('again');
    expect(pull(new PullRun(store), [await page(1), await page(2)]).added).toBe(150);
    const [changed] = await makeClient(h.baseUrl, h.token).listAllAssets(h.entityId);
    const id = changed?.service_asset_id as number;
    await makeClient(h.baseUrl, h.token).postBatch(h.entityId, {
      update: [{ service_asset_id: id, address: 'Damrak 1' }],
    });
    const again = pull(new PullRun(store), [await page(1), await page(2)]);
    expect(again).toMatchObject({ added: 0, updated: 1, conflicts: 0 });
    expect(store.assetCount()).toBe(150);
    expect(store.assetByServiceId(id)?.current?.['address']).toBe('Damrak 1');
  });

  it('merges the last pages of a listing as each comes, not after it', async () => {
    const { store } = tempWorkspace('closing');
    const client = makeClient(h.baseUrl, h.token);
    const pages = await Promise.all(
      Array.from({ length: 15 }, (_, i) => client.listAssetsPageBytes(h.entityId, i + 1, 10)),
    );
    const run = new PullRun(store);
    const take = (i: number) => run.page(pages[i]!.bytes, pages[i]!.status, i + 1, pages[i]!.meta, 15);
    for (let i = 0; i < 14; i++) take(i);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.assetCount()).toBe(140);
    take(14);
    // One turn later, before the listing is over: nothing waits for `lacking` but what it reads.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(store.assetCount()).toBe(150);
  });
});
