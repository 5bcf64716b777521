import { afterEach, describe, expect, it, vi } from 'vitest';
import { expiryState, watchExpiry } from '../../../electron/auth/token-lifecycle';

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
