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
