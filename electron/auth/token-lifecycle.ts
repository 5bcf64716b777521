import { AuthError } from './errors';
import type { FetchLike } from './http';
import type { TokenKind } from './secret-store';

export type ExpiryLevel = 'ok' | 'soon' | 'expired' | 'unknown';

export interface ExpiryState {
  level: ExpiryLevel;
  expiresAt: Date | null;
  msLeft: number | null;
}

/**
 * How long before expiry to warn. OAuth tokens live 2 hours and cannot be refreshed, so the user
 * needs enough warning to finish a sync; partner tokens live up to a year and are renewed in the
 * portal, which takes longer to arrange.
 */
export const defaultWarnLeadMs: Record<TokenKind, number> = {
  oauth: 15 * 60_000,
  partner: 14 * 24 * 3_600_000,
  sandbox: 0,
};

export interface TokenExpiry {
  kind: TokenKind;
  expiresAt: Date | string | null;
}

export function expiryState(
  token: TokenExpiry,
  now: Date,
  leadMs = defaultWarnLeadMs[token.kind],
): ExpiryState {
  if (token.expiresAt === null) return { level: 'unknown', expiresAt: null, msLeft: null };
  const expiresAt = new Date(token.expiresAt);
  const msLeft = expiresAt.getTime() - now.getTime();
  const level: ExpiryLevel = msLeft <= 0 ? 'expired' : msLeft <= leadMs ? 'soon' : 'ok';
  return { level, expiresAt, msLeft };
}

// setTimeout overflows past ~24.8 days, and partner tokens live up to a year: wait in steps.
const maxTimerMs = 2 ** 31 - 1;

/** Calls onSoon once when the warning window opens and onExpired at expiry. Returns a stop function. */
export function watchExpiry(
  token: TokenExpiry,
  handlers: { onSoon(state: ExpiryState): void; onExpired(state: ExpiryState): void },
  opts: { now?: () => Date; leadMs?: number } = {},
): () => void {
  const now = opts.now ?? (() => new Date());
  const leadMs = opts.leadMs ?? defaultWarnLeadMs[token.kind];
  let timer: NodeJS.Timeout | undefined;
  let warned = false;
  let stopped = false;

  const tick = (): void => {
    if (stopped) return;
    const state = expiryState(token, now(), leadMs);
    if (state.level === 'unknown') return;
    if (state.level === 'expired') {
      handlers.onExpired(state);
      return;
    }
    if (state.level === 'soon' && !warned) {
      warned = true;
      handlers.onSoon(state);
    }
    const untilNext = state.level === 'soon' ? (state.msLeft ?? 0) : (state.msLeft ?? 0) - leadMs;
    timer = setTimeout(tick, Math.min(Math.max(untilNext, 0), maxTimerMs));
  };
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Thrown by a task run through the gate when the service answered 401. */
export class UnauthorizedError extends Error {
  constructor(message = 'The service refused the access token (401).') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

export type GateState = 'signed-out' | 'open' | 'paused';
export type SignInReason = 'unauthorized' | 'expired';

/**
 * Holds a connection's access token for the work that uses it. When a call gets 401 (or the token
 * expires), the gate pauses: that call and every later one wait, the app asks once for a new
 * sign-in, and `open(newToken)` resumes them all with the new token. Signing out instead rejects
 * them with `signed_out`.
 *
 * Retrying after 401 is safe even for POST: the service authenticates before it acts.
 */
export class SessionGate {
  private current: string | undefined;
  private status: GateState = 'signed-out';
  private waiters: Array<{ resolve(token: string): void; reject(error: AuthError): void }> = [];

  constructor(private readonly onSignInRequired: (reason: SignInReason) => void) {}

  get state(): GateState {
    return this.status;
  }

  /** Signed in (first time or again): resumes every paused caller with this token. */
  open(accessToken: string): void {
    this.current = accessToken;
    this.status = 'open';
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) waiter.resolve(accessToken);
  }

  /** Stops handing out the token and asks for a sign-in once; callers wait. */
  pause(reason: SignInReason): void {
    if (this.status !== 'open') return;
    this.status = 'paused';
    this.current = undefined;
    this.onSignInRequired(reason);
  }

  /** Signed out: nothing waits for a sign-in that is not coming. */
  signOut(): void {
    this.status = 'signed-out';
    this.current = undefined;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) waiter.reject(signedOut());
  }

  async run<T>(task: (accessToken: string) => Promise<T>): Promise<T> {
    for (;;) {
      const token = await this.token();
      try {
        return await task(token);
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        // Several calls may fail with the same stale token; only the first pauses the gate.
        if (this.current === token) this.pause('unauthorized');
      }
    }
  }

  private token(): Promise<string> {
    if (this.status === 'open' && this.current !== undefined) return Promise.resolve(this.current);
    if (this.status === 'signed-out') return Promise.reject(signedOut());
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }
}

function signedOut(): AuthError {
  return new AuthError('signed_out', 'Signed out: sign in to this connection to continue.');
}

/**
 * fetch through a gate: adds the Bearer header, and turns 401 into pause, sign in, resume, retry.
 * Bodies must be re-sendable (string, URLSearchParams, Blob), not streams, for the retry.
 */
export function gatedFetch(gate: SessionGate, fetchImpl: FetchLike = fetch): FetchLike {
  return (input, init) =>
    gate.run(async (token) => {
      const headers = new Headers(init?.headers);
      headers.set('Authorization', `Bearer ${token}`);
      const response = await fetchImpl(input, { ...init, headers });
      if (response.status === 401) {
        await response.body?.cancel();
        throw new UnauthorizedError();
      }
      return response;
    });
}
