import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { contentSecurityPolicy } from '../../shared/bridge/csp';
import {
  bridgeEventsPath,
  bridgeSecretParam,
  bridgeSocketPath,
  bridgeSocketProtocol,
} from '../../shared/bridge/browser-host-secret';
import { createDispatcher } from '../bridge/dispatch';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import type { BrowserTransfers } from '../files/browser-transfers';
import { BridgeConnections, defaultConnectionLimits, type ConnectionLimits } from './bridge-connections';
import { registerFileRoutes } from './file-routes';
import { createRequestGuard, hostCookieName, isLaunch, type Listener } from './request-guard';
import { answerSocketCalls } from './socket-calls';

export interface BrowserHost {
  /**
   * Open this once: its query carries the per-run token, which the host swaps for an HttpOnly
   * cookie (for the page and its files), and its fragment the bridge's secret, which never reaches
   * a server: the page keeps it in sessionStorage and sends it with every bridge call.
   */
  launchUrl: string;
  origin: string;
  events: EventSink;
  close(): Promise<void>;
}

/**
 * Serves the built renderer and implements the bridge contract over a WebSocket (calls) and
 * server-sent events (pushes), so the real renderer runs in a browser (for tests, and for machines
 * without Electron).
 *
 * It listens on 127.0.0.1 only; what every request must carry (the per-run token, this Host and
 * Origin, and on the bridge's routes a second secret) is checked in one place, `request-guard.ts`.
 */
export async function startBrowserHost(opts: {
  rendererDir: string;
  handlers: BridgeHandlers;
  /** Uploads and downloads in place of native dialogs (the app core's, when it has no dialogs). */
  transfers?: BrowserTransfers | undefined;
  port?: number;
  /** How many sockets and streams the host holds, and for how long an idle socket (tests shrink them). */
  limits?: Partial<ConnectionLimits>;
}): Promise<BrowserHost> {
  const token = randomBytes(32).toString('base64url');
  const bridgeSecret = randomBytes(32).toString('base64url');
  const dispatch = createDispatcher(opts.handlers);
  const connections = new BridgeConnections({ ...defaultConnectionLimits, ...opts.limits });
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  let listener: Listener = { origin: '', hosts: new Set() };

  await app.register(fastifyCookie);
  await app.register(fastifyWebsocket, {
    options: {
      // A call's limit before it is parsed, the same as the host's request bodies'.
      maxPayload: 16 * 1024 * 1024,
      // The page offers the protocol's name and its secret (a browser cannot set other headers on
      // a WebSocket's handshake); the name is the one chosen, the secret never echoed.
      handleProtocols: (offered) => (offered.has(bridgeSocketProtocol) ? bridgeSocketProtocol : false),
    },
  });
  await app.register(fastifyStatic, { root: opts.rendererDir, index: false, wildcard: true });

  app.addHook(
    'onRequest',
    createRequestGuard({ token, bridgeSecret }, () => listener),
  );

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Content-Security-Policy', contentSecurityPolicy);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', 'no-store');
  });

  app.get('/', async (request, reply) => {
    if (isLaunch(request, token)) {
      reply.setCookie(hostCookieName, token, { httpOnly: true, sameSite: 'strict', path: '/' });
      return reply.redirect('/', 303);
    }
    return reply.sendFile('index.html');
  });

  // The page's calls: one socket, one message per call and per answer, matched by id. A POST per
  // call cost the page ~3 ms of Chromium's request and response machinery each (0.5 ms over the
  // socket), and its answer waited behind the frame after a keypress in three tasks, not one.
  app.get(bridgeSocketPath, { websocket: true }, (socket) => {
    if (connections.admitSocket(socket)) {
      answerSocketCalls(socket, dispatch, { idleMs: connections.limits.socketIdleMs });
    }
  });

  if (opts.transfers) registerFileRoutes(app, opts.transfers);

  app.get(bridgeEventsPath, (request, reply) => connections.openStream(request, reply));

  const address = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const port = new URL(address).port;
  const origin = `http://127.0.0.1:${port}`;
  listener = { origin, hosts: new Set([`127.0.0.1:${port}`, `localhost:${port}`]) };

  return {
    launchUrl: `${origin}/?token=${token}#${bridgeSecretParam}=${bridgeSecret}`,
    origin,
    events: connections.events,
    async close() {
      connections.endStreams();
      await app.close();
    },
  };
}
