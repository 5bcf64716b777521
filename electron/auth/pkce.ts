import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes as base64url: 256 bits, unguessable, and safe in URLs and paths without escaping. */
export function randomUrlToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** RFC 7636: the verifier stays in this process; only its SHA-256 travels through the browser. */
export function createPkcePair(): PkcePair {
  // 32 bytes encode to 43 characters, the minimum verifier length RFC 7636 allows.
  const verifier = randomUrlToken(32);
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
