import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43..128 characters of the unreserved set. Also the shape of an S256 challenge. */
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isWellFormedChallenge(challenge: string): boolean {
  return verifierPattern.test(challenge);
}

export function verifyS256(verifier: string, challenge: string): boolean {
  if (!verifierPattern.test(verifier)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
