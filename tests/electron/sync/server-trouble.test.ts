/**
 * A service that answers 5xx is having trouble; it is not offline. Against a replay server answering
 * the batch endpoint 503 (then 500), the sync waits between tries (doubling up to a cap, or as long
 * as Retry-After says), tells the window when it tries again, keeps the pull it made, and says what
 * happened in those words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assetDeleteText } from '../../fixtures/service-docs/assets';
import { startReplayServer, type ReplayAnswer, type ReplayServer } from '../../support/replay-server';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { pendingOf } from '../../../electron/sync/pending-work';

const E = 7;
const listPath = `GET /api/v1/entities/${E}/assets`;
const batchPath = `POST /api/v1/entities/${E}/assets/batches`;
const backoff = { baseMs: 60, maxMs: 150, attempts: 3 };

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A service with one asset listed whose batch endpoint answers `answer(n)` to its n-th batch. */
async function troubled(answer: (n: number, body: Record<string, unknown>) => ReplayAnswer) {
  const posts: number[] = [];
  server = await startReplayServer({
    [listPath]: {
      body: [JSON.parse(assetDeleteText) as unknown],
      headers: { total: '1', 'per-page': '100' },
    },
    [batchPath]: (request) => {
      posts.push(Date.now());
      return answer(posts.length, request.body as Record<string, unknown>);
    },
  });
  const { store } = tempWorkspace('trouble');
  const { engine, progress } = makeEngine(
    store,
    makeClient(server.baseUrl, 'token', { retries: 0, serverBackoff: backoff }),
    E,
  );
  const local = store.createAsset(newAsset(1));
  const pulls = () => (server?.requests ?? []).filter((r) => `${r.method} ${r.path}` === listPath).length;
  return { store, engine, progress, local, posts, pulls };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] as number));
/** Timers may fire a hair early by the wall clock; the waits are what is checked, not speed. */
const slack = 15;

describe('a service answering 5xx', () => {
  it('a persistent 503: the batch goes again after doubling waits, the pull is kept, and the sync says the service is having trouble', async () => {
    const { store, engine, progress, posts, pulls } = await troubled(() => ({
      status: 503,
      body: { error: 'Service Unavailable' },
    }));
    const report = await engine.sync();

    expect(report.stopped).toMatchObject({ reason: 'error', serviceTrouble: true });
    expect(report.stopped?.offline).toBeUndefined();
    expect(report.stopped?.message).toMatch(/having trouble \(HTTP 503\)/);
    expect(report.stopped?.message).not.toMatch(/dropping/);
    expect(pulls()).toBe(1);
    expect(posts).toHaveLength(1 + backoff.attempts);
    const waited = gaps(posts);
    expect(waited[0]).toBeGreaterThanOrEqual(60 - slack);
    expect(waited[1]).toBeGreaterThanOrEqual(120 - slack);
    expect(waited[2]).toBeGreaterThanOrEqual(150 - slack);
    // The window is told when each try comes, and why.
    const retries = progress.filter((p) => p.retryAt !== undefined);
    expect(retries).toHaveLength(backoff.attempts);
    expect(retries.every((p) => /having trouble \(HTTP 503\)/.test(p.message ?? ''))).toBe(true);
    const times = retries.map((p) => p.retryAt ?? 0);
    expect(gaps(times).every((gap) => gap > 0)).toBe(true);
    // Nothing was applied, nothing is left to reconcile: the create is still pending.
    expect(store.unsettledBatches()).toEqual([]);
    expect(pendingOf(store).creates).toHaveLength(1);
    store.close();
  });

  it('a 503 with Retry-After: the batch goes again after the time it gave, then is settled', async () => {
    const { store, engine, progress, local, posts, pulls } = await troubled((n, body) => {
      if (n === 1) return { status: 503, headers: { 'retry-after': '1' }, body: { error: 'maintenance' } };
      const sent = (body['create'] as Array<Record<string, unknown>>)[0] ?? {};
      return {
        body: {
          created: [{ ...sent, service_asset_id: 5001 }],
          counts: {
            created: 1,
            always_created: 0,
            updated: 0,
            always_updated: 0,
            deleted: 0,
            invalid: 0,
            not_found: 0,
          },
        },
      };
    });
    const report = await engine.sync();
    expect(report.stopped).toBeUndefined();
    expect(posts).toHaveLength(2);
    expect(gaps(posts)[0]).toBeGreaterThanOrEqual(1000 - slack);
    expect(pulls()).toBe(1);
    const wait = progress.find((p) => p.retryAt !== undefined);
    expect(wait?.message).toMatch(/having trouble \(HTTP 503\).*maintenance/);
    expect(store.asset(local.localId)?.serviceAssetId).toBe(5001);
    expect(pendingOf(store).creates).toEqual([]);
    store.close();
  });

  it('a persistent 500 (the work may have been done): a wait before each reconcile, then "having trouble", never offline', async () => {
    const { store, engine, progress, posts, pulls } = await troubled(() => ({
      status: 500,
      body: { error: 'Internal Server Error' },
    }));
    const report = await engine.sync();
    expect(report.stopped).toMatchObject({ reason: 'error', serviceTrouble: true });
    expect(report.stopped?.offline).toBeUndefined();
    expect(report.stopped?.message).toMatch(/having trouble \(HTTP 500\)/);
    // One pull, then one reconcile per lost answer, each after its wait; no more than the backoff allows.
    expect(posts).toHaveLength(1 + backoff.attempts);
    expect(pulls()).toBe(1 + backoff.attempts);
    expect(gaps(posts).every((gap) => gap >= 60 - slack)).toBe(true);
    expect(progress.filter((p) => p.phase === 'reconcile' && p.retryAt !== undefined)).toHaveLength(
      backoff.attempts,
    );
    store.close();
  });
});
