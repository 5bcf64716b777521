import { z } from 'zod';
import { oauthTokenResponseSchema, tokenInfoResponseSchema } from './oauth-schemas';
import { AuthError, oauthError } from './errors';
import { formBody, requestJson, type FetchLike } from './http';

/** What a successful OAuth exchange yields. The token stays in main. */
export interface TokenSet {
  accessToken: string;
  tokenType: 'bearer';
  scopes: string[];
  expiresAt: Date;
  obtainedAt: Date;
}

const oauthErrorBody = z.object({ error: z.string(), error_description: z.string().optional() });

/** Step 2 of the spec: the code (plus the PKCE verifier) for a token at `{auth_url}/oauth/token`. */
export async function exchangeCode(opts: {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  fetch?: FetchLike;
  now?: () => Date;
}): Promise<TokenSet> {
  const now = opts.now ?? (() => new Date());
  const { status, body } = await requestJson(opts.fetch ?? fetch, `${opts.authUrl}/oauth/token`, {
    ...formBody({
      client_id: opts.clientId,
      client_secret: opts.clientSecret,
      code: opts.code,
      grant_type: 'authorization_code',
      redirect_uri: opts.redirectUri,
      code_verifier: opts.codeVerifier,
    }),
  });
  if (status !== 200) throw providerError(status, body, 'The code could not be exchanged for a token');
  const parsed = oauthTokenResponseSchema.safeParse(body);
  if (!parsed.success || parsed.data.token_type.toLowerCase() !== 'bearer' || parsed.data.expires_in <= 0) {
    throw new AuthError('bad_response', 'The token endpoint answered with an unexpected body.');
  }
  const obtainedAt = now();
  return {
    accessToken: parsed.data.access_token,
    tokenType: 'bearer',
    scopes: splitScope(parsed.data.scope),
    expiresAt: new Date(obtainedAt.getTime() + parsed.data.expires_in * 1000),
    obtainedAt,
  };
}

export interface TokenInfo {
  scopes: string[];
  expiresAt: Date;
  applicationUid: string;
  resourceOwnerId: number;
}

/**
 * `POST {auth_url}/oauth/token/info`. Null when the provider does not know the token as an OAuth
 * token (a partner token, or an expired one): callers then rely on what the API itself says.
 */
export async function fetchTokenInfo(opts: {
  authUrl: string;
  accessToken: string;
  fetch?: FetchLike;
  now?: () => Date;
}): Promise<TokenInfo | null> {
  const now = opts.now ?? (() => new Date());
  const { status, body } = await requestJson(opts.fetch ?? fetch, `${opts.authUrl}/oauth/token/info`, {
    ...formBody({ access_token: opts.accessToken }),
  });
  if (status === 401 || status === 403 || status === 404) return null;
  if (status !== 200) throw providerError(status, body, 'The token info endpoint failed');
  const parsed = tokenInfoResponseSchema.safeParse(body);
  if (!parsed.success)
    throw new AuthError('bad_response', 'The token info endpoint answered with an unexpected body.');
  return {
    scopes: parsed.data.scope,
    // expires_in counts from now, not from created_at: it is the time left.
    expiresAt: new Date(now().getTime() + parsed.data.expires_in * 1000),
    applicationUid: parsed.data.application.uid,
    resourceOwnerId: parsed.data.resource_owner_id,
  };
}

export function splitScope(scope: string): string[] {
  return scope.split(/\s+/).filter((s) => s.length > 0);
}

function providerError(status: number, body: unknown, what: string): AuthError {
  const parsed = oauthErrorBody.safeParse(body);
  if (parsed.success) return oauthError(parsed.data.error, parsed.data.error_description);
  if (status >= 500) return new AuthError('server_error', `${what}: the service answered ${status}.`);
  return new AuthError('bad_response', `${what}: the service answered ${status}.`);
}
