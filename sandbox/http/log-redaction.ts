import type { FastifyRequest } from 'fastify';

/** Query parameters that carry credentials (the spec allows `?access_token=`); never logged. */
const secretParams = ['access_token', 'code', 'code_verifier', 'client_secret', 'refresh_token'];

/** The URL with the value of every credential parameter replaced, the rest kept for debugging. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name: string;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' ')).toLowerCase();
      } catch {
        name = rawName.toLowerCase();
      }
      return secretParams.includes(name) && eq >= 0 ? `${rawName}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/**
 * A caller's callback URL for the log: its origin only. Receivers put their own secret in the path
 * or the query (a signed or unguessable hook), as good as a token to whoever reads the log.
 */
export function redactCallbackUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '';
    return `${parsed.origin}${hidden ? '/[redacted]' : '/'}`;
  } catch {
    return '[redacted]';
  }
}

/** pino's request serializer for the sandbox's log: what pino logs by default, URL redacted. */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.headers.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
