import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../context';
import { OAuthError } from './errors';
import { verifyS256 } from './pkce';

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
  created_at: number;
}

const paramsSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** Grant types the service knows but does not allow applications (only the code grant is offered). */
const refusedGrantTypes = new Set(['password', 'client_credentials', 'refresh_token', 'implicit']);

/** The spec: form parameters, which may also be sent in the query string. */
function readParams(request: FastifyRequest): Record<string, string> {
  const query = paramsSchema.safeParse(request.query ?? {});
  const body = paramsSchema.safeParse(request.body ?? {});
  if (!query.success || !body.success)
    throw new OAuthError('invalid_request', 'The parameters are malformed.');
  const merged: Record<string, string> = {};
  const repeated: string[] = [];
  for (const source of [query.data, body.data]) {
    for (const [k, v] of Object.entries(source)) {
      if (Array.isArray(v) || (k in merged && merged[k] !== v)) repeated.push(k);
      else merged[k] = v;
    }
  }
  if (repeated.length > 0)
    throw new OAuthError(
      'invalid_request',
      `Parameters given more than once: ${[...new Set(repeated)].join(', ')}.`,
    );
  return merged;
}

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded first; a bad escape is the client's error. */
function formDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new OAuthError(
      'invalid_request',
      'The Basic credentials are not valid form-urlencoded text (a % must start an escape such as %3A).',
    );
  }
}

/** client_id/client_secret from HTTP Basic (RFC 6749 §2.3.1) or from the parameters (the spec). */
function clientCredentials(
  request: FastifyRequest,
  params: Record<string, string>,
): { id: string; secret: string } {
  const header = request.headers.authorization;
  const basic = typeof header === 'string' ? /^Basic\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (basic !== undefined) {
    if (params['client_secret'] !== undefined)
      throw new OAuthError('invalid_request', 'Use one client authentication method, not two.');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'The Basic credentials are malformed.', 401);
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  }
  const id = params['client_id'];
  const secret = params['client_secret'];
  if (!id || !secret)
    throw new OAuthError(
      'invalid_client',
      'Client authentication is required (client_id and client_secret).',
      401,
    );
  return { id, secret };
}

/**
 * Step 2 of the spec. Checks run in an order that leaks nothing to an unauthenticated caller: the
 * client first, then the code, and every code problem is the same `invalid_grant` with a reason.
 */
export function exchangeAuthorizationCode(ctx: SandboxContext, request: FastifyRequest): TokenResponse {
  const { oauth } = ctx.store;
  const params = readParams(request);
  const grantType = params['grant_type'];
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is missing.');

  const credentials = clientCredentials(request, params);
  const application = oauth.verifyClientSecret(credentials.id, credentials.secret);
  if (!application) throw new OAuthError('invalid_client', 'Unknown client or wrong client_secret.', 401);
  if (params['client_id'] !== undefined && params['client_id'] !== credentials.id)
    throw new OAuthError('invalid_request', 'client_id does not match the authenticated client.');

  if (grantType !== 'authorization_code') {
    if (refusedGrantTypes.has(grantType))
      throw new OAuthError('unauthorized_client', `The ${grantType} grant is not available to applications.`);
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported.`);
  }
  const codeValue = params['code'];
  if (!codeValue) throw new OAuthError('invalid_request', 'code is missing.');
  const redirectUri = params['redirect_uri'];
  if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is missing.');

  // Errors are returned, not thrown: a throw would roll back the revocation of a replayed code.
  const outcome = ctx.store.db.transaction((): TokenResponse | OAuthError => {
    const code = oauth.findCode(codeValue);
    if (!code || code.applicationId !== application.id)
      return new OAuthError('invalid_grant', 'The authorization code is invalid.');
    if (code.usedAtMs !== null) {
      oauth.revokeTokensOfCode(code);
      return new OAuthError(
        'invalid_grant',
        'The authorization code was already used; its token is revoked.',
      );
    }
    if (code.expiresAtMs <= ctx.now())
      return new OAuthError('invalid_grant', 'The authorization code expired. Request a new one.');
    if (code.redirectUri !== redirectUri)
      return new OAuthError(
        'invalid_grant',
        'redirect_uri differs from the one in the authorization request.',
      );
    if (code.codeChallenge === null && params['code_verifier'] !== undefined) {
      // A code issued without a challenge and redeemed with a verifier is a downgrade (RFC 9700 §2.1.1).
      return new OAuthError(
        'invalid_grant',
        'This code was issued without code_challenge; code_verifier is not accepted.',
      );
    }
    if (code.codeChallenge !== null) {
      const verifier = params['code_verifier'];
      if (!verifier) return new OAuthError('invalid_grant', 'code_verifier is required for this code.');
      if (!verifyS256(verifier, code.codeChallenge))
        return new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
    }
    if (!oauth.consumeCode(codeValue))
      return new OAuthError('invalid_grant', 'The authorization code was already used.');
    const issued = oauth.issueToken({
      application,
      userId: code.userId,
      scopes: code.scopes,
      code: codeValue,
    });
    return {
      access_token: issued.token,
      token_type: 'bearer',
      expires_in: issued.expiresInS,
      scope: issued.scopes.join(' '),
      created_at: Math.floor(ctx.now() / 1000),
    };
  })();
  if (outcome instanceof OAuthError) throw outcome;
  return outcome;
}
