import { join } from 'node:path';
import { oobRedirectUri } from '../auth/oauth-login';
import { ensureDemoAccess } from '../../sandbox/seed';
import { createSandboxServer, type SandboxServer } from '../../sandbox/server';

export interface EmbeddedSandbox {
  server: SandboxServer;
  baseUrl: string;
  /** A fresh all-scope token for this run: stored tokens are hashed, so the old one cannot be shown. */
  token: string;
  entityIds: number[];
  /** The app's own OAuth application in the sandbox, so "Sign in with OAuth" can be rehearsed. */
  oauthClient: { clientId: string; clientSecret: string };
  demoUser: { email: string; password: string };
}

const appName = 'Asset Desk (built in)';

/**
 * The local Submission Service the app ships with: a new user works against it with no account.
 * It keeps its data beside the app's, so sandbox assets survive restarts like real ones would.
 */
export async function startEmbeddedSandbox(opts: {
  dataDir: string;
  assessmentYear: number;
  port?: number;
}): Promise<EmbeddedSandbox> {
  const server = createSandboxServer({
    dataDir: join(opts.dataDir, 'sandbox'),
    assessmentYear: opts.assessmentYear,
  });
  const { baseUrl } = await server.listen(opts.port ?? 0);
  const access = ensureDemoAccess(server.store, { assessmentYear: opts.assessmentYear });
  const partner = server.store.admin.listDataPartners()[0];
  if (!partner) throw new Error('The embedded sandbox has no data partner');
  // One registration, kept across runs; its secret is stored hashed, so each run takes a new one.
  const existing = server.store.oauth.listApplications(partner.id).find((app) => app.name === appName);
  const oauthClient = existing
    ? { clientId: existing.uid, clientSecret: server.store.oauth.regenerateSecret(existing.id) }
    : (() => {
        const created = server.store.oauth.createApplication({
          dataPartnerId: partner.id,
          name: appName,
          redirectUris: ['http://127.0.0.1/', oobRedirectUri],
        });
        return { clientId: created.uid, clientSecret: created.secret };
      })();
  return {
    server,
    baseUrl,
    token: access.token,
    entityIds: access.entityIds,
    oauthClient,
    demoUser: access.demoUser,
  };
}
