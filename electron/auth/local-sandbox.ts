/**
 * The built-in sandboxes as the session reaches them: the embedded service's address, its token for
 * this run (never kept in the keychain) and the app's OAuth client there.
 */
import { grantableScopes } from '../../shared/auth/scopes';
import { localSandboxId, localSandboxRealNamesId, type Connection, type LocalSandboxId } from './connections';
import type { StoredToken } from './secret-store';

/** The embedded sandbox as sign-in needs it: its address, this run's token, the app's OAuth client. */
export interface LocalSandboxAccess {
  ensure(): Promise<{
    baseUrl: string;
    token: string;
    oauthClient: { clientId: string; clientSecret: string };
    demoUser: { email: string; password: string };
  }>;
}

/** The built-in sandbox behind a connection, if it is one. */
export function localSandboxOf(
  target: Connection,
  sandboxes: { localSandbox: LocalSandboxAccess; localSandboxRealNames?: LocalSandboxAccess | undefined },
): { id: LocalSandboxId; access: LocalSandboxAccess } | undefined {
  if (target.id === localSandboxId) return { id: localSandboxId, access: sandboxes.localSandbox };
  const realNames = sandboxes.localSandboxRealNames;
  if (target.id === localSandboxRealNamesId && realNames)
    return { id: localSandboxRealNamesId, access: realNames };
  return undefined;
}

/** A local sandbox's token for this run, as the session holds a token. */
export function sandboxRunToken(accessToken: string): StoredToken {
  return {
    accessToken,
    kind: 'sandbox',
    scopes: [...grantableScopes],
    expiresAt: null,
    obtainedAt: new Date().toISOString(),
  };
}
