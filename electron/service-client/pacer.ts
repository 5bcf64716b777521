/**
 * Paces the batch endpoint by what the service says in X-RateLimit-* headers: it never sends a
 * request it knows will be refused. Until the first answer the limit is unknown, so one request goes
 * out alone; after that, sends go as fast as the remaining count allows and then wait for the reset.
 */
export interface RateLimitState {
  limit?: number;
  remaining?: number;
  /** Epoch ms when the counter is expected to reset. */
  resetAt?: number;
}

export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: PacerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Reset times are whole seconds; a small margin keeps us from arriving a hair early. */
const resetMarginMs = 250;

export class BatchPacer {
  private state: RateLimitState = {};
  private inFlight = 0;
  private waiters: Array<() => void> = [];

  constructor(private readonly clock: PacerClock = realClock) {}

  snapshot(): RateLimitState {
    return { ...this.state };
  }

  /** When the next request may go out (epoch ms), or undefined when it may go now. */
  nextSendAt(): number | undefined {
    const { remaining, resetAt } = this.state;
    if (remaining === undefined || remaining > 0) return undefined;
    if (resetAt === undefined) return undefined;
    const at = resetAt + resetMarginMs;
    return at > this.clock.now() ? at : undefined;
  }

  /**
   * Waits until a send is allowed, then counts it against the remaining budget. While the budget is
   * unknown (no answer yet), only one request is out at a time: its answer tells the budget.
   */
  async acquire(onWait?: (until: number) => void, signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      if (this.state.limit === undefined && this.inFlight > 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const until = this.nextSendAt();
      if (until === undefined) break;
      onWait?.(until);
      await this.clock.sleep(until - this.clock.now(), signal);
      // The window has turned over: the budget is the limit again until the service says otherwise.
      if (this.state.resetAt !== undefined && this.clock.now() >= this.state.resetAt) {
        this.state = { ...this.state, remaining: this.state.limit, resetAt: undefined };
      }
    }
    if (this.state.remaining !== undefined) this.state.remaining = Math.max(0, this.state.remaining - 1);
    this.inFlight++;
  }

  /** Ends a request that acquire() let out, answered or not. */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Takes the service's word after every answer, 429s included. */
  update(headers: { get(name: string): string | null }): void {
    const limit = intHeader(headers.get('x-ratelimit-limit'));
    const remaining = intHeader(headers.get('x-ratelimit-remaining'));
    const reset = intHeader(headers.get('x-ratelimit-reset'));
    if (limit === undefined && remaining === undefined && reset === undefined) return;
    const resetAt = reset === undefined ? this.state.resetAt : reset * 1000;
    // -1 means throttled: nothing left until the reset. Requests still out (besides the one this
    // answer is for) may not be counted by the service yet: count them as spent.
    const othersOut = Math.max(0, this.inFlight - 1);
    let left = remaining === undefined ? this.state.remaining : Math.max(0, remaining - othersOut);
    // Answers can overtake each other; within one window the lower count is the truer one.
    if (left !== undefined && this.state.remaining !== undefined && resetAt === this.state.resetAt) {
      left = Math.min(left, this.state.remaining);
    }
    this.state = { limit: limit ?? this.state.limit, remaining: left, resetAt };
  }
}

function intHeader(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}
