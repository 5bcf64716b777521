import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { AuthError, oauthError } from './errors';
import { randomUrlToken } from './pkce';

export interface LoopbackListener {
  /** `http://127.0.0.1:{port}/oauth/{random}`: the redirect_uri for this one flow. */
  redirectUri: string;
  /** The authorization code, or an AuthError (denied, timeout, cancelled). Settles once. */
  result: Promise<{ code: string }>;
  /** Stops listening; a pending result rejects as cancelled. */
  close(): void;
  readonly listening: boolean;
}

/**
 * RFC 8252 §7.3 loopback redirect for one authorization: bound to 127.0.0.1 (never all interfaces),
 * an ephemeral port and an unguessable path, the `state` compared in constant time, and closed after
 * the first genuine callback or the timeout. A forged callback (wrong state) is refused but does not
 * end the flow, so a hostile local page cannot cancel the user's real sign-in.
 */
export async function startLoopbackListener(opts: {
  expectedState: string;
  timeoutMs: number;
}): Promise<LoopbackListener> {
  const path = `/oauth/${randomUrlToken(32)}`;
  let settled = false;
  let resolveResult!: (value: { code: string }) => void;
  let rejectResult!: (error: AuthError) => void;
  const result = new Promise<{ code: string }>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // The caller may never await a rejected result (e.g. it cancelled); that is not a crash.
  result.catch(() => undefined);

  const server = createServer((req, res) => handle(req, res));
  let hostHeader = '';

  const shutDown = (): void => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
  };
  const finish = (outcome: { code: string } | AuthError): void => {
    if (settled) return;
    settled = true;
    if (outcome instanceof AuthError) rejectResult(outcome);
    else resolveResult(outcome);
  };

  function handle(req: IncomingMessage, res: ServerResponse): void {
    res.setHeader('Connection', 'close');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.headers.host !== hostHeader)
      return send(res, 421, 'Wrong address', 'This address is not for you.');
    if (url.pathname !== path) return send(res, 404, 'Not found', 'There is nothing here.');
    if (req.method !== 'GET') return send(res, 405, 'Not allowed', 'Only the sign-in redirect comes here.');
    if (settled) {
      return send(res, 410, 'Already used', 'This sign-in link was already used. Return to Asset Desk.');
    }
    const state = url.searchParams.get('state');
    if (state === null || !sameText(state, opts.expectedState)) {
      return send(
        res,
        400,
        'Sign-in refused',
        'This sign-in response does not belong to Asset Desk’s request.',
      );
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    // Past this point the one genuine callback has arrived: close once its page is delivered.
    res.once('finish', shutDown);
    let outcome: { code: string } | AuthError;
    if (error !== null) {
      const denied = oauthError(error, url.searchParams.get('error_description') ?? undefined);
      send(
        res,
        200,
        'Sign-in not completed',
        `${denied.message} You can close this tab and return to Asset Desk.`,
      );
      outcome = denied;
    } else if (code !== null && code.length > 0) {
      send(res, 200, 'Signed in', 'Sign-in complete. You can close this tab and return to Asset Desk.');
      outcome = { code };
    } else {
      const broken = new AuthError(
        'invalid_request',
        'The sign-in response carried neither a code nor an error.',
      );
      send(res, 400, 'Sign-in failed', `${broken.message} Return to Asset Desk and try again.`);
      outcome = broken;
    }
    finish(outcome);
  }

  const timer = setTimeout(() => {
    finish(new AuthError('timeout', 'The sign-in was not completed in time. Start it again.'));
    shutDown();
  }, opts.timeoutMs);

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
  const { port } = server.address() as AddressInfo;
  hostHeader = `127.0.0.1:${port}`;

  return {
    redirectUri: `http://${hostHeader}${path}`,
    result,
    close() {
      finish(new AuthError('cancelled', 'The sign-in was cancelled.'));
      shutDown();
    },
    get listening() {
      return server.listening;
    },
  };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A tiny static page: no script, no external resources, and no Referer leaking the code onward. */
function send(res: ServerResponse, status: number, title: string, text: string): void {
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} – Asset Desk</title>` +
    '<style>body{font:16px system-ui,sans-serif;margin:4rem auto;max-width:32rem;color:#222}</style></head>' +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  });
  res.end(body);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
