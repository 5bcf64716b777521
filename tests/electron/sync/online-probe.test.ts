/** The probe that brings the app back online: a real proxy in front of the sandbox goes down and up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnlineProbe } from '../../../electron/sync/online-probe';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient } from '../../../support/sync-harness';

describe('online probe', () => {
  let h: Harness;
  let proxy: FaultProxy;
  beforeAll(async () => {
    h = await startHarness();
    proxy = await startFaultProxy(h.baseUrl);
  });
  afterAll(async () => {
    await proxy?.close();
    await h?.close();
  });

  it('keeps asking, backing off, while the service is down, and says so once it answers', async () => {
    const client = makeClient(proxy.url, h.token, { retries: 0 });
    let asked = 0;
    let online = 0;
    const probe = new OnlineProbe({
      ask: () => {
        asked++;
        return client.lists();
      },
      onOnline: () => online++,
      firstMs: 10,
      maxMs: 40,
    });
    proxy.setDown(true);
    probe.start();
    await expect.poll(() => asked, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(online).toBe(0);
    expect(probe.running).toBe(true);
    proxy.setDown(false);
    await expect.poll(() => online, { timeout: 5_000 }).toBe(1);
    expect(probe.running).toBe(false);
  });
});
