import type { Connection } from './connections';
import { AuthError } from './errors';
import type { FetchLike } from './http';
import { startLoopbackListener, type LoopbackListener } from './loopback-listener';
import { exchangeCode, type TokenSet } from './oauth-token';
import { createPkcePair, randomUrlToken } from './pkce';
import { errorMessage } from '../../shared/errors';

export type { TokenSet } from './oauth-token';

export const oobRedirectUri = 'urn:ietf:wg:oauth:2.0:oob';

export interface OAuthLoginOptions {
  connection: Pick<Connection, 'portalUrl' | 'authUrl'>;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** The system browser (Electron: shell.openExternal); never an in-app window (RFC 8252 §8.12). */
  openBrowser: (url: string) => Promise<void>;
  /** The code lives 10 minutes; waiting longer than that for the browser is pointless. */
  timeoutMs?: number;
  fetch?: FetchLike;
  now?: () => Date;
  /** `oob` skips the listener: the portal shows the code and the user pastes it (submitCode). */
  redirect?: 'loopback' | 'oob';
}

export interface OAuthLogin {
  mode: 'loopback' | 'oob';
  /** Why loopback was not used when the caller asked for it (the listener could not bind). */
  fallbackReason?: string;
  authorizeUrl: string;
  redirectUri: string;
  /** False when the browser could not be opened: show authorizeUrl for the user to open by hand. */
  browserOpened: boolean;
  result: Promise<TokenSet>;
  /** OOB mode: the code the portal displayed. Ignored in loopback mode. */
  submitCode(code: string): void;
  cancel(): void;
}

/**
 * Authorization code grant for a native app (RFC 8252) with PKCE S256 and a `state` per attempt.
 * The returned `result` settles once: the token, or an AuthError (denied, timeout, cancelled, a
 * failed exchange).
 */
export async function startOAuthLogin(opts: OAuthLoginOptions): Promise<OAuthLogin> {
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const state = randomUrlToken(32);
  const pkce = createPkcePair();

  let listener: LoopbackListener | undefined;
  let fallbackReason: string | undefined;
  if (opts.redirect !== 'oob') {
    try {
      listener = await startLoopbackListener({ expectedState: state, timeoutMs });
    } catch (error) {
      fallbackReason = `No loopback listener could be opened (${errorMessage(error)})`;
    }
  }
  const oob = listener === undefined ? pasteBox(timeoutMs) : undefined;
  const redirectUri = listener?.redirectUri ?? oobRedirectUri;

  const authorize = new URL(`${opts.connection.portalUrl}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    client_id: opts.clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: opts.scopes.join(' '),
    state,
    code_challenge: pkce.challenge,
    code_challenge_method: pkce.method,
  }).toString();

  const codePromise =
    listener?.result ?? oob?.code ?? Promise.reject(new AuthError('cancelled', 'No sign-in path'));
  const result = codePromise.then(({ code }) =>
    exchangeCode({
      authUrl: opts.connection.authUrl,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret,
      code,
      redirectUri,
      codeVerifier: pkce.verifier,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.now ? { now: opts.now } : {}),
    }),
  );
  result.catch(() => undefined);

  let browserOpened = true;
  try {
    await opts.openBrowser(authorize.href);
  } catch {
    browserOpened = false;
  }

  return {
    mode: listener ? 'loopback' : 'oob',
    ...(fallbackReason !== undefined ? { fallbackReason } : {}),
    authorizeUrl: authorize.href,
    redirectUri,
    browserOpened,
    result,
    submitCode: (code) => oob?.submit(code),
    cancel: () => {
      listener?.close();
      oob?.cancel();
    },
  };
}

/** The OOB path's stand-in for the listener: settles with the pasted code, or times out. */
function pasteBox(timeoutMs: number): {
  code: Promise<{ code: string }>;
  submit(code: string): void;
  cancel(): void;
} {
  let settle!: (outcome: { code: string } | AuthError) => void;
  const code = new Promise<{ code: string }>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(
      () => settle(new AuthError('timeout', 'The sign-in was not completed in time. Start it again.')),
      timeoutMs,
    );
    settle = (outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (outcome instanceof AuthError) reject(outcome);
      else resolve(outcome);
    };
  });
  code.catch(() => undefined);
  return {
    code,
    submit(value) {
      const trimmed = value.trim();
      if (trimmed.length > 0) settle({ code: trimmed });
    },
    cancel: () => settle(new AuthError('cancelled', 'The sign-in was cancelled.')),
  };
}
