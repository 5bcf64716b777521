export interface RateLimitSettings {
  /** Requests allowed per window. The spec: 10. */
  limit: number;
  /** Window length. The spec: one minute. */
  windowMs: number;
}

export const defaultBatchRateLimit: RateLimitSettings = { limit: 10, windowMs: 60_000 };

export interface ThrottleDecision {
  allowed: boolean;
  headers: {
    'X-RateLimit-Limit': string;
    'X-RateLimit-Remaining': string;
    'X-RateLimit-Reset': string;
  };
  /** Seconds until the window resets, for Retry-After on a refusal. */
  retryAfterSeconds: number;
}

/**
 * Fixed window per key (the token hash). Refused calls are not queued and do not extend the
 * window, matching "refused, not queued": a client that paces itself recovers at the reset.
 * In memory on purpose: the limit is a courtesy of one process, not data worth persisting.
 */
export function createFixedWindowLimiter(settings: RateLimitSettings, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();

  return {
    settings,
    take(key: string): ThrottleDecision {
      const t = now();
      let w = windows.get(key);
      if (!w || t >= w.start + settings.windowMs) {
        w = { start: t, count: 0 };
        windows.set(key, w);
        // Drop stale windows now and then so long-running sandboxes do not grow without bound.
        if (windows.size > 1000) {
          for (const [k, v] of windows) if (t >= v.start + settings.windowMs) windows.delete(k);
        }
      }
      const resetMs = w.start + settings.windowMs;
      const allowed = w.count < settings.limit;
      if (allowed) w.count += 1;
      return {
        allowed,
        headers: {
          'X-RateLimit-Limit': String(settings.limit),
          'X-RateLimit-Remaining': String(allowed ? settings.limit - w.count : -1),
          'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
        },
        retryAfterSeconds: Math.max(0, Math.ceil((resetMs - t) / 1000)),
      };
    },
  };
}

export type FixedWindowLimiter = ReturnType<typeof createFixedWindowLimiter>;
