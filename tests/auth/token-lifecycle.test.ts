import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  SessionGate,
  UnauthorizedError,
  expiryState,
  gatedFetch,
  watchExpiry,
  type SignInReason,
} from '../../electron/auth/token-lifecycle';
import { startFakeApi } from './fake-api';

const t0 = new Date('2025-03-01T10:00:00Z');
const minutes = (n: number) => n * 60_000;

describe('expiryState', () => {
  it('warns 15 minutes before an OAuth token expires', () => {
    const token = { kind: 'oauth' as const, expiresAt: new Date(t0.getTime() + minutes(120)).toISOString() };
    expect(expiryState(token, t0).level).toBe('ok');
    expect(expiryState(token, new Date(t0.getTime() + minutes(104))).level).toBe('ok');
    expect(expiryState(token, new Date(t0.getTime() + minutes(106))).level).toBe('soon');
    expect(expiryState(token, new Date(t0.getTime() + minutes(120))).level).toBe('expired');
  });

  it('warns two weeks before a partner token expires, and knows nothing without a date', () => {
    const token = { kind: 'partner' as const, expiresAt: new Date('2025-03-20T00:00:00Z') };
    expect(expiryState(token, t0).level).toBe('ok');
    expect(expiryState(token, new Date('2025-03-10T00:00:00Z')).level).toBe('soon');
    expect(expiryState({ kind: 'partner', expiresAt: null }, t0)).toEqual({
      level: 'unknown',
      expiresAt: null,
      msLeft: null,
    });
  });
});

describe('watchExpiry', () => {
  afterEach(() => vi.useRealTimers());

  it('calls onSoon once at the warning and onExpired at expiry, even for a token a year away', () => {
    vi.useFakeTimers({ now: t0 });
    const events: string[] = [];
    const yearAway = new Date(t0.getTime() + 365 * 24 * 3_600_000);
    const stop = watchExpiry(
      { kind: 'partner', expiresAt: yearAway },
      {
        onSoon: () => events.push(`soon@${Date.now()}`),
        onExpired: () => events.push(`expired@${Date.now()}`),
      },
    );
    const day = 24 * 3_600_000;
    vi.advanceTimersByTime(351 * day - 1);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([`soon@${yearAway.getTime() - 14 * day}`]);
    vi.advanceTimersByTime(14 * day - 1);
    expect(events).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(events).toHaveLength(2);
    expect(events[1]).toBe(`expired@${yearAway.getTime()}`);
    stop();
  });

  it('stops when told', () => {
    vi.useFakeTimers({ now: t0 });
    const onExpired = vi.fn();
    const stop = watchExpiry(
      { kind: 'oauth', expiresAt: new Date(t0.getTime() + minutes(120)) },
      { onSoon: vi.fn(), onExpired },
    );
    stop();
    vi.advanceTimersByTime(minutes(200));
    expect(onExpired).not.toHaveBeenCalled();
  });
});

describe('SessionGate', () => {
  it('rejects work while signed out', async () => {
    const gate = new SessionGate(() => undefined);
    await expect(gate.run(async () => 1)).rejects.toMatchObject({ code: 'signed_out' });
  });

  it('pauses every caller on 401, asks once for a sign-in, and resumes them with the new token', async () => {
    const asked: SignInReason[] = [];
    const gate = new SessionGate((reason) => asked.push(reason));
    gate.open('old');
    const seen: string[] = [];
    const task = async (token: string) => {
      seen.push(token);
      if (token === 'old') throw new UnauthorizedError();
      return `done with ${token}`;
    };
    const calls = [gate.run(task), gate.run(task), gate.run(task)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gate.state).toBe('paused');
    expect(asked).toEqual(['unauthorized']);
    // Work started while paused waits too.
    const late = gate.run(task);
    gate.open('new');
    expect(await Promise.all([...calls, late])).toEqual(Array(4).fill('done with new'));
    expect(seen.filter((t) => t === 'new')).toHaveLength(4);
  });

  it('pauses at expiry and rejects the waiting work when the user signs out instead', async () => {
    const gate = new SessionGate(() => undefined);
    gate.open('t');
    gate.pause('expired');
    const waiting = gate.run(async () => 'never');
    gate.signOut();
    await expect(waiting).rejects.toMatchObject({ code: 'signed_out' });
  });

  it('lets other errors through untouched', async () => {
    const gate = new SessionGate(() => undefined);
    gate.open('t');
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.state).toBe('open');
  });
});

describe('gatedFetch against a service that starts refusing the token', () => {
  let api: Awaited<ReturnType<typeof startFakeApi>>;
  beforeAll(async () => {
    api = await startFakeApi();
  });
  afterAll(() => api.close());

  it('retries the paused request with the new Bearer token after re-sign-in', async () => {
    api.setRoute(({ token }) =>
      token === 'fresh' ? { status: 200, body: { ok: true } } : { status: 401, body: {} },
    );
    const gate: SessionGate = new SessionGate(() => setTimeout(() => gate.open('fresh'), 20));
    gate.open('stale');
    const response = await gatedFetch(gate)(`${api.origin}/api/v1/entities`, {
      method: 'POST',
      body: JSON.stringify({ a: 1 }),
    });
    expect(response.status).toBe(200);
    expect(api.requests.map((r) => r.token)).toEqual(['stale', 'fresh']);
  });
});
