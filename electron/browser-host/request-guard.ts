/**
 * Every request's checks, in one place (the browser host's onRequest hook). It listens on 127.0.0.1
 * only, and every request must carry the per-run token (as a cookie after the first visit), a Host
 * header naming this listener (against DNS rebinding) and, when the browser sends one, this Origin
 * (against cross-site requests from other pages the user has open). Cookies are not scoped by port,
 * so any other server on 127.0.0.1 the browser visits receives the cookie: every bridge route (its
 * socket, its event stream, its file routes) therefore also needs a second secret, which only the
 * page holds (from the launch URL's fragment): in a header, or beside the protocol's name in the
 * socket's handshake (`socket-calls.ts`).
 *
 * Which routes are the bridge's is decided by the route the router matched, never by the raw URL's
 * text: the router decodes the path (`/%62ridge/socket` is `/bridge/socket` to it) and takes the
 * absolute form (`GET http://127.0.0.1:PORT/bridge/socket`), so a prefix test on the raw URL let
 * both past the secret. The absolute form, which only proxies are sent, is refused outright.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bridgeSecretHeader, bridgeSocketPath } from '../../shared/bridge/browser-host-secret';
import { socketSecret } from './socket-calls';

export const hostCookieName = 'asset_desk_host';

/** Where the bridge's routes live: the socket, the event stream and the file routes. */
const bridgePrefix = '/bridge/';

export interface GuardSecrets {
  /** The per-run token of the launch URL's query, then the cookie. */
  token: string;
  /** The bridge's secret of the launch URL's fragment, held by the page alone. */
  bridgeSecret: string;
}

/** This listener's own origin and Host values, known once it listens. */
export interface Listener {
  origin: string;
  hosts: ReadonlySet<string>;
}

export function createRequestGuard(secrets: GuardSecrets, listener: () => Listener) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (!(request.raw.url ?? '').startsWith('/')) {
      return reply.code(400).send({ code: 'bad_request', message: 'Send a path, not an absolute URL.' });
    }
    const { origin, hosts } = listener();
    if (!hosts.has(request.headers.host ?? '')) {
      return reply.code(421).send({ code: 'forbidden', message: 'Unexpected Host header' });
    }
    const requestOrigin = request.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      return reply.code(403).send({ code: 'forbidden', message: 'Cross-origin request refused' });
    }
    if (isLaunch(request, secrets.token)) return undefined;
    if (!sameSecret(request.cookies[hostCookieName], secrets.token)) {
      return reply.code(403).send({
        code: 'forbidden',
        message: 'Missing or wrong host token: open the URL the browser host printed.',
      });
    }
    const route = bridgeRoute(request);
    if (route === undefined) return undefined;
    const offered =
      route === bridgeSocketPath ? socketSecret(request.headers) : request.headers[bridgeSecretHeader];
    if (!sameSecret(offered, secrets.bridgeSecret)) {
      return reply.code(403).send({
        code: 'forbidden',
        message: 'Missing or wrong bridge secret: open the URL the browser host printed.',
      });
    }
    return undefined;
  };
}

/**
 * The bridge route this request will reach, as the router matched it; a raw path that reads as one
 * also counts (a request the router sends elsewhere loses nothing by showing the secret).
 */
function bridgeRoute(request: FastifyRequest): string | undefined {
  const matched = request.routeOptions.url;
  if (matched?.startsWith(bridgePrefix)) return matched;
  const raw = (request.raw.url ?? '').split('?')[0] ?? '';
  return raw.toLowerCase().startsWith(bridgePrefix) ? raw : undefined;
}

export function isLaunch(request: FastifyRequest, token: string): boolean {
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
