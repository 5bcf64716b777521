import { join } from 'node:path';
import { ensureDemoAccess } from '../sandbox/seed';
import { createSandboxServer, type SandboxServer } from '../sandbox/server';

export interface EmbeddedSandbox {
  server: SandboxServer;
  baseUrl: string;
  /** A fresh all-scope token for this run: stored tokens are hashed, so the old one cannot be shown. */
  token: string;
  entityIds: number[];
}

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
  return { server, baseUrl, token: access.token, entityIds: access.entityIds };
}
