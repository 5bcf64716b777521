import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the replay server took it off the wire. */
export interface ReplayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The body parsed as JSON; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
}

/** An answer: a JSON value, or a string sent as it is (JSON text whose number formatting matters). */
export interface ReplayAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Answers by `"METHOD /path"` (no query): fixed, or made from the request. */
export type ReplayRoutes = Record<string, ReplayAnswer | ((request: ReplayRequest) => ReplayAnswer)>;

export interface ReplayServer {
  baseUrl: string;
  /** Every request taken, in order of arrival. */
  requests: ReplayRequest[];
  close(): Promise<void>;
}

/**
 * A small HTTP server on 127.0.0.1 that answers recorded exchanges (the service's documented
 * requests and answers), so the app's own client meets them over real HTTP. A request no route
 * names gets `fallback`'s answer: by default a 404 saying so.
 */
export async function startReplayServer(
  routes: ReplayRoutes,
  fallback: (request: ReplayRequest) => ReplayAnswer = (r) => ({
    status: 404,
    body: { error: `no replay for ${r.method} ${r.path}` },
  }),
): Promise<ReplayServer> {
  const requests: ReplayRequest[] = [];
  const server = createServer((req, res) => {
    void readText(req).then((text) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: unknown;
      try {
        body = text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        body = text;
      }
      const request: ReplayRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      requests.push(request);
      const route = routes[`${request.method} ${request.path}`];
      const answer =
        route === undefined ? fallback(request) : typeof route === 'function' ? route(request) : route;
      res.writeHead(answer.status ?? 200, {
        'content-type': 'application/json; charset=utf-8',
        ...answer.headers,
      });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
