import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxStore } from './store';

/**
 * The seeded portal user. Its password is made per install, on first run, and kept in the
 * sandbox's data folder (0600): a fixed, published password let any page that reached the port
 * (DNS rebinding, another local process) sign in and mint tokens. The app shows it beside the
 * local sandbox's sign-in; `npm run sandbox` prints it to its own terminal; the sign-in page never
 * shows it.
 */
export const demoUserEmail = 'analyst@example.com';

const passwordFileName = 'demo-password';

/** The install's demo password, created on first use; `created` says it was made just now. */
export function demoPassword(dataDir: string): { password: string; created: boolean } {
  const file = path.join(dataDir, passwordFileName);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 12) return { password: stored, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // 15 random bytes: 20 characters a person can copy, 120 bits nobody can guess.
  const password = randomBytes(15).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { password, created: true };
}

/**
 * Gives the demo user the install's password: when a sandbox created before portal sign-in lacks
 * one, and when the password file is new (a sandbox that still has the old published password).
 */
export function ensureDemoPassword(store: SandboxStore): string {
  const { password, created } = demoPassword(store.dataDir);
  const user = store.accounts.findUserByEmail(demoUserEmail);
  if (user && (created || !store.accounts.hasPassword(user.id)))
    store.accounts.setPassword(user.id, password);
  return password;
}
