import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryEntityCache, createEntityDirectory } from '../../electron/auth/entities';
import { SessionGate, gatedFetch } from '../../electron/auth/token-lifecycle';
import { entityFixture, startFakeApi } from './fake-api';

let api: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());

describe('entity directory', () => {
  it('serves live data with reporting preferences, then the cached copy when the service is down', async () => {
    const gate = new SessionGate(() => undefined);
    gate.open('tok');
    const cache = new MemoryEntityCache();
    const t = new Date('2025-03-01T10:00:00Z');
    const directory = createEntityDirectory({
      connection: { id: 'local-sandbox', baseUrl: api.origin },
      fetch: gatedFetch(gate),
      cache,
      now: () => t,
    });
    api.setRoute(({ path, token }) => {
      if (token !== 'tok') return { status: 401 };
      if (path === '/api/v1/entities') return { status: 200, body: [entityFixture(1), entityFixture(2)] };
      if (path === '/api/v1/entities/2') return { status: 200, body: entityFixture(2, 'Second') };
      return undefined;
    });
    const live = await directory.listEntities();
    expect(live).toMatchObject({ offline: false, fetchedAt: t });
    expect(live.value.map((e) => e.id)).toEqual([1, 2]);
    const one = await directory.getEntity(2);
    expect(one.value.reporting_preferences.area_units_name).toBe('square meters');

    api.setRoute(() => ({ status: 503 }));
    expect(await directory.listEntities()).toEqual({ ...live, offline: true });
    expect((await directory.getEntity(2)).value.name).toBe('Second');
    await expect(directory.getEntity(1)).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('does not hide a refused scope behind the cache', async () => {
    const gate = new SessionGate(() => undefined);
    gate.open('tok');
    api.setRoute(() => ({ status: 403, body: {} }));
    const directory = createEntityDirectory({
      connection: { id: 'x', baseUrl: api.origin },
      fetch: gatedFetch(gate),
      cache: new MemoryEntityCache(),
    });
    await expect(directory.listEntities()).rejects.toMatchObject({ code: 'missing_scope' });
  });
});
