import type { SandboxStore } from './store';

/**
 * The seeded portal user. The password is fixed and printed (CLI, sign-in page): the sandbox
 * listens on loopback only and holds demo data, and a rehearsal must not need an account.
 */
export const demoUserEmail = 'analyst@example.com';
export const demoUserPassword = 'sandbox-demo';

/** Gives the demo user its password when a sandbox created before portal sign-in lacks one. */
export function ensureDemoPassword(store: SandboxStore): void {
  const user = store.accounts.findUserByEmail(demoUserEmail);
  if (user && !store.accounts.hasPassword(user.id)) store.accounts.setPassword(user.id, demoUserPassword);
}
