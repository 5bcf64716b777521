import { z } from 'zod';
import { isScope, type Scope } from '../../shared/auth/scopes';
import type { OAuthApplication, OAuthRepo } from '../store/oauth-repo';
import { OAuthError } from './errors';
import { matchesRegistered, isNativeRedirect } from './redirect-uri';
import { isWellFormedChallenge } from './pkce';

/** A checked step-1 request: what the consent page shows and the decision carries back. */
export interface AuthorizationRequest {
  application: OAuthApplication;
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string | undefined;
}

export type AuthorizationCheck =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** The client or its redirect URI cannot be trusted: show the error, never redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'page'; error: OAuthError }
  /** A trusted redirect URI exists: the error goes back to the client there. */
  | { kind: 'redirect'; error: OAuthError; redirectUri: string; state: string | undefined };

const paramsSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** Response types the service knows (the implicit grant) but does not allow applications. */
const refusedResponseTypes = new Set(['token']);

export function parseScopeParam(raw: string | undefined): { scopes: Scope[] } | { unknown: string[] } {
  const words = (raw ?? '').split(/[\s+]+/).filter((w) => w.length > 0);
  const unknown = words.filter((w) => !isScope(w));
  if (unknown.length > 0) return { unknown };
  const scopes = [...new Set(words.filter(isScope))];
  // Every application has the public scope by default.
  return { scopes: scopes.length > 0 ? scopes : ['public'] };
}

/**
 * Checks an authorization request (the GET's query, or the consent form's hidden fields) in the
 * order RFC 6749 asks: client and redirect URI first, because only then may errors be redirected.
 */
export function checkAuthorizationRequest(oauth: OAuthRepo, input: unknown): AuthorizationCheck {
  const parsed = paramsSchema.safeParse(input ?? {});
  if (!parsed.success)
    return {
      kind: 'page',
      error: new OAuthError('invalid_request', 'The request parameters are malformed.'),
    };
  const raw = parsed.data;
  const repeated = Object.keys(raw).filter((k) => Array.isArray(raw[k]));
  const one = (k: string): string | undefined => {
    const v = raw[k];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  };

  const clientId = one('client_id');
  if (clientId === undefined)
    return { kind: 'page', error: new OAuthError('invalid_request', 'client_id is missing.') };
  const application = oauth.findApplicationByUid(clientId);
  if (!application)
    return {
      kind: 'page',
      error: new OAuthError('invalid_client', 'No application has this client_id.', 401),
    };

  let redirectUri = one('redirect_uri');
  if (redirectUri === undefined) {
    // RFC 6749 §3.1.2.3: optional when exactly one URI is registered.
    if (application.redirect_uris.length !== 1) {
      return {
        kind: 'page',
        error: new OAuthError(
          'invalid_request',
          'redirect_uri is missing and the application registered several.',
        ),
      };
    }
    redirectUri = application.redirect_uris[0] as string;
  }
  if (repeated.includes('redirect_uri') || !matchesRegistered(application.redirect_uris, redirectUri)) {
    return {
      kind: 'page',
      error: new OAuthError(
        'invalid_redirect_uri',
        'The redirect URI is not one this application registered.',
      ),
    };
  }

  const state = one('state');
  const fail = (error: OAuthError): AuthorizationCheck => ({ kind: 'redirect', error, redirectUri, state });
  if (repeated.length > 0)
    return fail(
      new OAuthError('invalid_request', `Parameters given more than once: ${repeated.join(', ')}.`),
    );

  const responseType = one('response_type');
  if (responseType === undefined) return fail(new OAuthError('invalid_request', 'response_type is missing.'));
  if (refusedResponseTypes.has(responseType)) {
    return fail(
      new OAuthError(
        'unauthorized_client',
        'Applications may only use the authorization code grant (response_type=code).',
      ),
    );
  }
  if (responseType !== 'code')
    return fail(
      new OAuthError(
        'unsupported_response_type',
        `response_type ${responseType} is not supported; use code.`,
      ),
    );

  const scope = parseScopeParam(one('scope'));
  if ('unknown' in scope)
    return fail(new OAuthError('invalid_scope', `Unknown scope: ${scope.unknown.join(', ')}.`));

  const codeChallenge = one('code_challenge');
  const method = one('code_challenge_method');
  if (codeChallenge !== undefined) {
    if ((method ?? 'plain') !== 'S256')
      return fail(new OAuthError('invalid_request', 'Only code_challenge_method=S256 is supported.'));
    if (!isWellFormedChallenge(codeChallenge))
      return fail(new OAuthError('invalid_request', 'code_challenge is malformed.'));
  } else if (method !== undefined) {
    return fail(new OAuthError('invalid_request', 'code_challenge_method was sent without code_challenge.'));
  } else if (isNativeRedirect(redirectUri)) {
    // Native apps cannot keep a client secret safe: their codes must be bound to a verifier.
    return fail(
      new OAuthError(
        'invalid_request',
        'code_challenge is required for loopback and out-of-band redirect URIs (PKCE, RFC 7636).',
      ),
    );
  }

  return { kind: 'ok', request: { application, redirectUri, scopes: scope.scopes, state, codeChallenge } };
}

/** The parameters that re-create this request, for the consent form's hidden fields and sign-in's return. */
export function authorizationParams(req: AuthorizationRequest): Record<string, string> {
  const out: Record<string, string> = {
    client_id: req.application.uid,
    redirect_uri: req.redirectUri,
    response_type: 'code',
    scope: req.scopes.join(' '),
  };
  if (req.state !== undefined) out['state'] = req.state;
  if (req.codeChallenge !== undefined) {
    out['code_challenge'] = req.codeChallenge;
    out['code_challenge_method'] = 'S256';
  }
  return out;
}

/** Appends OAuth response parameters to a redirect URI, keeping its own query (RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}
