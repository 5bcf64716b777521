/**
 * The embedded sandbox as a process of its own: the app starts it when the local sandbox connection
 * is first used, so the window never waits for it, and the service's work never shares the event
 * loop of the app's main process. It answers `ready` with what the app needs, and stops on `stop`,
 * on the app going away (disconnect) or on SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { errorMessage } from '../shared/errors';
import {
  configEnvName,
  identityPath,
  identityProof,
  type AppToSandbox,
  type EmbeddedSandboxConfig,
  type EmbeddedSandboxInfo,
  type SandboxToApp,
} from './embedded-protocol';
import { ensureDemoAccess } from './seed';
import { createSandboxServer } from './server';

const appName = 'Asset Desk (built in)';

/** The parent's channel: Electron's utility process has `parentPort`; a Node child has `send`. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: SandboxToApp): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

function onMessage(listener: (message: AppToSandbox) => void): void {
  if (parentPort) parentPort.on('message', (event) => listener(event.data as AppToSandbox));
  else process.on('message', (message) => listener(message as AppToSandbox));
}

async function start(config: EmbeddedSandboxConfig) {
  const server = createSandboxServer({
    dataDir: join(config.dataDir, config.realNames ? 'sandbox-real-names' : 'sandbox'),
    assessmentYear: config.assessmentYear,
    realNames: config.realNames === true,
  });
  // The app checks that the port it sends to is still this process's before it sends a token.
  const identityKey = randomBytes(32).toString('hex');
  server.app.get(identityPath, (request, reply) => {
    const nonce = (request.query as { nonce?: unknown }).nonce;
    if (typeof nonce !== 'string' || !/^[0-9a-f]{32,128}$/.test(nonce))
      return reply.code(400).send({ error: 'nonce: 32 to 128 hex digits' });
    return reply.send({ proof: identityProof(identityKey, nonce) });
  });
  const { baseUrl } = await server.listen(0);
  const access = ensureDemoAccess(server.store, { assessmentYear: config.assessmentYear });
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
          redirectUris: config.redirectUris,
        });
        return { clientId: created.uid, clientSecret: created.secret };
      })();
  const info: EmbeddedSandboxInfo = {
    baseUrl,
    token: access.token,
    entityIds: access.entityIds,
    oauthClient,
    demoUser: access.demoUser,
    identityKey,
  };
  return { server, info };
}

const raw = process.env[configEnvName];
if (!raw) {
  process.stderr.write(`sandbox: ${configEnvName} is not set; this file is started by the app\n`);
  process.exit(2);
}
const config = JSON.parse(raw) as EmbeddedSandboxConfig;
try {
  const { server, info } = await start(config);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close().then(() => process.exit(0));
  };
  onMessage((message) => {
    if (message.type === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  send({ type: 'ready', info });
} catch (error) {
  send({ type: 'failed', message: errorMessage(error) });
  process.exit(1);
}
