import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from './errors';

const loopbackNames = ['127.0.0.1', 'localhost'];

/**
 * Whether a Host header names this server: 127.0.0.1 or localhost with the port it listens on.
 * Anything else is another site's name resolved to loopback (DNS rebinding) and must not reach
 * the demo data or the portal.
 */
export function isOwnHost(host: string | undefined, port: number | undefined): boolean {
  if (host === undefined || port === undefined) return false;
  return loopbackNames.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** onRequest hook for every route, the portal and OAuth included. */
export async function hostCheckHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isOwnHost(request.headers.host, request.socket.localPort)) return;
  const body: ErrorBody = {
    error: 'misdirected_request',
    message: 'This sandbox answers only to 127.0.0.1 or localhost on its own port',
  };
  await reply.code(421).send(body);
}
