import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import Fastify, { type FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { BridgeEventName, EventPayload } from '../../shared/bridge/contract';
import { contentSecurityPolicy } from '../../shared/bridge/csp';
import {
  bridgeSecretHeader,
  bridgeSecretParam,
  bridgeSocketPath,
  bridgeSocketProtocol,
} from '../../shared/bridge/browser-host-secret';
import { createDispatcher } from '../bridge/dispatch';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import type { BrowserTransfers } from '../files/browser-transfers';
import { registerFileRoutes } from './file-routes';
import { answerSocketCalls, socketSecret } from './socket-calls';

const cookieName = 'asset_desk_host';

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
 * It listens on 127.0.0.1 only, and every request must carry the per-run token (as a cookie after
 * the first visit), a Host header naming this listener (against DNS rebinding) and, when the browser
 * sends one, this Origin (against cross-site requests from other pages the user has open). Cookies
 * are not scoped by port, so any other server on 127.0.0.1 the browser visits receives the cookie:
 * the bridge's socket and event stream therefore also need a second secret, which only the page
 * holds (from the launch URL's fragment): in a header for the stream, beside the protocol's name in
 * the socket's handshake (`socket-calls.ts`).
 */
export async function startBrowserHost(opts: {
  rendererDir: string;
  handlers: BridgeHandlers;
  /** Uploads and downloads in place of native dialogs (the app core's, when it has no dialogs). */
  transfers?: BrowserTransfers | undefined;
  port?: number;
}): Promise<BrowserHost> {
  const token = randomBytes(32).toString('base64url');
  const bridgeSecret = randomBytes(32).toString('base64url');
  const dispatch = createDispatcher(opts.handlers);
  const streams = new Set<ServerResponse>();
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  let origin = '';
  let allowedHosts = new Set<string>();

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

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      return reply.code(421).send({ code: 'forbidden', message: 'Unexpected Host header' });
    }
    const requestOrigin = request.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      return reply.code(403).send({ code: 'forbidden', message: 'Cross-origin request refused' });
    }
    if (isLaunch(request, token)) return;
    if (!sameSecret(request.cookies[cookieName], token)) {
      return reply.code(403).send({
        code: 'forbidden',
        message: 'Missing or wrong host token: open the URL the browser host printed.',
      });
    }
    const offered =
      request.url === bridgeSocketPath ? socketSecret(request.headers) : request.headers[bridgeSecretHeader];
    if (request.url.startsWith('/bridge/') && !sameSecret(offered, bridgeSecret)) {
      return reply.code(403).send({
        code: 'forbidden',
        message: 'Missing or wrong bridge secret: open the URL the browser host printed.',
      });
    }
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Content-Security-Policy', contentSecurityPolicy);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cache-Control', 'no-store');
  });

  app.get('/', async (request, reply) => {
    if (isLaunch(request, token)) {
      reply.setCookie(cookieName, token, { httpOnly: true, sameSite: 'strict', path: '/' });
      return reply.redirect('/', 303);
    }
    return reply.sendFile('index.html');
  });

  // The page's calls: one socket, one message per call and per answer, matched by id. A POST per
  // call cost the page ~3 ms of Chromium's request and response machinery each (0.5 ms over the
  // socket), and its answer waited behind the frame after a keypress in three tasks, not one.
  app.get(bridgeSocketPath, { websocket: true }, (socket) => answerSocketCalls(socket, dispatch));

  if (opts.transfers) registerFileRoutes(app, opts.transfers);

  app.get('/bridge/events', (request, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    streams.add(res);
    request.raw.on('close', () => streams.delete(res));
  });

  const events: EventSink = {
    emit<N extends BridgeEventName>(name: N, payload: EventPayload<N>) {
      const frame = `data: ${JSON.stringify({ name, payload })}\n\n`;
      for (const res of streams) res.write(frame);
    },
  };

  const address = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  const port = new URL(address).port;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  return {
    launchUrl: `${origin}/?token=${token}#${bridgeSecretParam}=${bridgeSecret}`,
    origin,
    events,
    async close() {
      for (const res of streams) res.end();
      streams.clear();
      await app.close();
    },
  };
}

function isLaunch(request: FastifyRequest, token: string): boolean {
  if (request.method !== 'GET' || request.url.split('?')[0] !== '/') return false;
  const query = request.query as Record<string, unknown> | undefined;
  return sameSecret(query?.['token'], token);
}

function sameSecret(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
