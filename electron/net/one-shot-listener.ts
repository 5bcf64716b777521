import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OneShotListener<T> {
  /** `http://127.0.0.1:{port}{prefix}{random}`: the address handed to the other side. */
  url: string;
  /** Settles once: the first genuine call's outcome, the timeout, or a cancel. */
  result: Promise<T>;
  /** Stops listening; a pending result rejects with `error`. */
  cancel(error: Error): void;
  readonly listening: boolean;
}

export interface OneShotRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /**
   * Ends the wait with this outcome once `res` is answered (the listener closes after the answer is
   * delivered). A handler that refuses a call without settling leaves the wait running.
   */
  settle(outcome: unknown): void;
}

/**
 * A listener for exactly one call from outside the app (an OAuth redirect, an export callback):
 * 127.0.0.1 only, an ephemeral port, an unguessable path (the path is the credential), the Host
 * checked against DNS rebinding, closed after the first genuine call or the timeout. Calls to other
 * paths, with another Host, or after the one use are refused without touching the wait, so a hostile
 * local page cannot end the real one by knocking first. What a genuine call must look like is the
 * caller's `handle`.
 */
export async function startOneShotListener<T>(opts: {
  pathPrefix: string;
  timeoutMs: number;
  timeoutError: () => Error;
  handle(call: OneShotRequest): void;
  refuse(res: ServerResponse, req: IncomingMessage, status: number, text: string): void;
}): Promise<OneShotListener<T>> {
  const path = `${opts.pathPrefix}${randomBytes(32).toString('base64url')}`;
  let settled = false;
  let resolveResult!: (value: T) => void;
  let rejectResult!: (error: Error) => void;
  const result = new Promise<T>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // A caller that gave up never awaits the rejection; that is not an unhandled error.
  result.catch(() => undefined);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.headers.host !== hostHeader) return opts.refuse(res, req, 421, 'This address is not for you.');
    if (url.pathname !== path) return opts.refuse(res, req, 404, 'There is nothing here.');
    if (settled) return opts.refuse(res, req, 410, 'This address was already used.');
    opts.handle({
      req,
      res,
      url,
      settle(outcome) {
        if (settled) return;
        settled = true;
        res.once('finish', shutDown);
        if (outcome instanceof Error) rejectResult(outcome);
        else resolveResult(outcome as T);
      },
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  let hostHeader = '';

  function shutDown(): void {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  }
  const end = (error: Error): void => {
    if (!settled) {
      settled = true;
      rejectResult(error);
    }
    shutDown();
  };
  const timer = setTimeout(() => end(opts.timeoutError()), opts.timeoutMs);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    clearTimeout(timer);
    throw error;
  });
  hostHeader = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `http://${hostHeader}${path}`,
    result,
    cancel: end,
    get listening() {
      return server.listening;
    },
  };
}
