import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Portal passwords are chosen by people, so unlike 256-bit tokens they are hashed slowly and
 * salted. Format: `scrypt$N$r$p$salt$hash` (base64url) so the cost can change without a migration.
 */
const cost = { N: 16384, r: 8, p: 1 } as const;
const keyLength = 32;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, keyLength, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export function verifyPassword(password: string, stored: string | null | undefined): boolean {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (!N || !r || !p || expected.length === 0) return false;
  const actual = scryptSync(password, salt, expected.length, { N, r, p });
  return timingSafeEqual(actual, expected);
}
