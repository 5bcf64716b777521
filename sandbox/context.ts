import type { FastifyBaseLogger } from 'fastify';
import type { SandboxStore } from './store';
import type { FixedWindowLimiter } from './http/throttle';

export interface CallbackRetrySettings {
  /** Total attempts including the first. */
  attempts: number;
  /** Delay before the second attempt; doubles after each failure. */
  baseDelayMs: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
}

export interface SandboxSettings {
  exportTtlMs: number;
  /** Annual data may cover this year and the 5 before it. */
  assessmentYear: () => number;
  callbackRetry: CallbackRetrySettings;
}

/** What route modules share: one store, one clock, one limiter, one logger. */
export interface SandboxContext {
  store: SandboxStore;
  settings: SandboxSettings;
  now: () => number;
  batchLimiter: FixedWindowLimiter;
  log: FastifyBaseLogger;
  /** Work started outside a request (export builds, callbacks) so close() can wait for it. */
  background: Set<Promise<unknown>>;
  /** Aborted on close: background retries stop instead of holding the process open. */
  shutdown: AbortSignal;
}
