import { createHash, randomBytes } from 'node:crypto';

/** Prefix makes a leaked sandbox token recognisable in logs and secret scanners. */
const tokenPrefix = 'sbx_';

/** A fresh random token value. Shown to its owner once; only its hash is stored. */
export function generateTokenValue(): string {
  return tokenPrefix + randomBytes(32).toString('base64url');
}

/**
 * Tokens carry 256 random bits, so a fast unsalted hash is enough: there is nothing to brute
 * force, and a deterministic hash lets the lookup be a unique-index hit.
 */
export function hashToken(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** The latest allowed expiry for a token created at `nowMs`: one calendar year later. */
export function maxTokenExpiry(nowMs: number): number {
  const d = new Date(nowMs);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
}
