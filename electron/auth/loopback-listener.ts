import type { ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { startOneShotListener } from '../net/one-shot-listener';
import { AuthError, oauthError } from './errors';

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
 * RFC 8252 §7.3 loopback redirect for one authorization, on the one-shot listener (127.0.0.1, an
 * ephemeral port, an unguessable path, closed after the first genuine callback or the timeout).
 * The `state` is compared in constant time; a forged callback (wrong state) is refused but does not
 * end the flow, so a hostile local page cannot cancel the user's real sign-in.
 */
export async function startLoopbackListener(opts: {
  expectedState: string;
  timeoutMs: number;
}): Promise<LoopbackListener> {
  const listener = await startOneShotListener<{ code: string }>({
    pathPrefix: '/oauth/',
    timeoutMs: opts.timeoutMs,
    timeoutError: () => new AuthError('timeout', 'The sign-in was not completed in time. Start it again.'),
    refuse: (res, _req, status, text) =>
      send(res, status, status === 410 ? 'Already used' : 'Not here', text),
    handle({ req, res, url, settle }) {
      res.setHeader('Connection', 'close');
      if (req.method !== 'GET') return send(res, 405, 'Not allowed', 'Only the sign-in redirect comes here.');
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
      if (error !== null) {
        const denied = oauthError(error, url.searchParams.get('error_description') ?? undefined);
        settle(denied);
        send(
          res,
          200,
          'Sign-in not completed',
          `${denied.message} You can close this tab and return to Asset Desk.`,
        );
      } else if (code !== null && code.length > 0) {
        settle({ code });
        send(res, 200, 'Signed in', 'Sign-in complete. You can close this tab and return to Asset Desk.');
      } else {
        const broken = new AuthError(
          'invalid_request',
          'The sign-in response carried neither a code nor an error.',
        );
        settle(broken);
        send(res, 400, 'Sign-in failed', `${broken.message} Return to Asset Desk and try again.`);
      }
    },
  });
  return {
    redirectUri: listener.url,
    result: listener.result,
    close: () => listener.cancel(new AuthError('cancelled', 'The sign-in was cancelled.')),
    get listening() {
      return listener.listening;
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
