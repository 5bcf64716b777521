/**
 * How long to wait after the service answered 5xx before asking again. The service answered, so it
 * is not "offline": it is having trouble, and asking again at once (a batch every few milliseconds)
 * only adds to it. The wait doubles from `baseMs` up to `maxMs` (a few minutes), unless the answer
 * said how long (`Retry-After`), which is honoured; after `attempts` waits the call gives up and the
 * sync says why, its pending changes still queued.
 */
export interface ServerBackoff {
  baseMs: number;
  maxMs: number;
  attempts: number;
}

export const defaultServerBackoff: ServerBackoff = { baseMs: 30_000, maxMs: 5 * 60_000, attempts: 4 };

/** A Retry-After longer than this is read as this: a sync never sleeps for hours on one answer. */
const maxRetryAfterMs = 30 * 60_000;

/** `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date) in ms from `now`, or undefined. */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, maxRetryAfterMs);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), maxRetryAfterMs);
}

/** The wait before try `attempt + 1` (attempt counts from 0): the service's word, else doubling. */
export function serverWaitMs(
  attempt: number,
  retryAfter: number | undefined,
  backoff: ServerBackoff,
): number {
  if (retryAfter !== undefined) return retryAfter;
  return Math.min(backoff.baseMs * 2 ** attempt, backoff.maxMs);
}

/** A wait after the service answered a batch 5xx: when the batch goes again, and why. */
export interface ServerWait {
  /** Epoch ms (of the client's clock) when the batch is sent again. */
  until: number;
  status: number;
  /** 1 for the first wait. */
  attempt: number;
  message: string;
}

/** The wait after `error` (the `waits`-th so far), or undefined once the backoff's attempts are spent. */
export function nextServerWait(
  waits: number,
  error: { message: string; status: number | undefined; details: { retryAfterMs?: number } },
  backoff: ServerBackoff,
  now: number,
): ServerWait | undefined {
  if (waits >= backoff.attempts) return undefined;
  const until = now + serverWaitMs(waits, error.details.retryAfterMs, backoff);
  return { until, status: error.status ?? 0, attempt: waits + 1, message: error.message };
}
