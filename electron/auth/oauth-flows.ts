/**
 * The OAuth sign-ins in progress, by flow id: each is started (the browser opened, or a code to
 * paste), may be given a pasted code or cancelled, and is reported once it ends
 * (`auth.oauthFinished`); its token goes to the session that started it.
 */
import { randomUUID } from 'node:crypto';
import type { MethodResult } from '../../shared/bridge/contract';
import { grantableScopes } from '../../shared/auth/scopes';
import { badRequest, errorMessage } from '../../shared/errors';
import type { EventSink } from '../bridge/handlers';
import type { Connection } from './connections';
import { AuthError } from './errors';
import { startOAuthLogin, type OAuthLogin } from './oauth-login';
import type { StoredToken } from './secret-store';

export interface OAuthStart {
  connection: Connection;
  /** The OAuth application registered in the portal (the local sandbox's own for it). */
  client: { clientId: string; clientSecret: string };
  redirect: 'loopback' | 'oob';
  /** The local sandbox's demo login, shown beside its portal's sign-in page. */
  portalLogin: { email: string; password: string } | undefined;
  /** The flow's token, once the provider gave it: saved and made active by the session. */
  signedIn(token: StoredToken): Promise<void>;
}

export class OAuthFlows {
  private readonly flows = new Map<string, OAuthLogin>();

  constructor(
    private readonly events: EventSink,
    private readonly openBrowser: ((url: string) => Promise<void>) | undefined,
  ) {}

  async start(start: OAuthStart): Promise<MethodResult<'auth.startOAuth'>> {
    const openBrowser = this.openBrowser;
    if (!openBrowser) throw badRequest('No browser to sign in with.');
    const flowId = randomUUID();
    const login = await startOAuthLogin({
      connection: start.connection,
      clientId: start.client.clientId,
      clientSecret: start.client.clientSecret,
      scopes: [...grantableScopes],
      openBrowser,
      redirect: start.redirect,
    });
    this.flows.set(flowId, login);
    login.result.then(
      async (tokenSet) => {
        this.flows.delete(flowId);
        await start.signedIn({
          accessToken: tokenSet.accessToken,
          kind: 'oauth',
          scopes: tokenSet.scopes,
          expiresAt: tokenSet.expiresAt.toISOString(),
          obtainedAt: tokenSet.obtainedAt.toISOString(),
        });
        this.events.emit('auth.oauthFinished', { flowId, ok: true });
      },
      (error: unknown) => {
        this.flows.delete(flowId);
        this.events.emit('auth.oauthFinished', {
          flowId,
          ok: false,
          code: error instanceof AuthError ? error.code : 'server_error',
          message: errorMessage(error),
        });
      },
    );
    return {
      flowId,
      mode: login.mode,
      authorizeUrl: login.authorizeUrl,
      browserOpened: login.browserOpened,
      fallbackReason: login.fallbackReason,
      portalLogin: start.portalLogin,
    };
  }

  /** A code the analyst pasted (the manual redirect); false when the flow is gone. */
  submitCode(flowId: string, code: string): boolean {
    const login = this.flows.get(flowId);
    if (!login) return false;
    login.submitCode(code);
    return true;
  }

  cancel(flowId: string): boolean {
    const login = this.flows.get(flowId);
    login?.cancel();
    return login !== undefined;
  }

  close(): void {
    for (const login of this.flows.values()) login.cancel();
  }
}
