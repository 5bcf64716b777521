import type { OAuthErrorCode } from '../../shared/auth/oauth-error-codes';

/**
 * The spec's OAuth error codes. Every one the sandbox can produce is listed with where it arises;
 * `invalid_resource_owner` (password grant) cannot, because only the authorization-code grant is
 * offered.
 */
/*
 * Where each code arises here:
 * - invalid_request: a required parameter is missing, repeated or malformed; an unsupported PKCE method.
 * - invalid_redirect_uri: not one the application registered (shown on a page, never redirected to).
 * - unauthorized_client: a grant or response type known but not allowed (implicit, password, client credentials).
 * - access_denied: the user pressed Deny.
 * - invalid_scope: a scope that is not in the spec's table.
 * - server_error: an unexpected failure.
 * - temporarily_unavailable: the database is busy or the service is shutting down.
 * - unsupported_response_type: response_type other than code.
 * - invalid_client: unknown client_id or wrong client_secret.
 * - invalid_grant: code unknown, expired, used, issued to another client or redirect_uri, or failing PKCE.
 * - unsupported_grant_type: a grant_type the service does not know.
 * - unknown: token info for a token that is not a live OAuth token.
 */
export type { OAuthErrorCode };

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** Maps an unexpected failure to the OAuth code a client can act on. */
export function asOAuthError(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new OAuthError('temporarily_unavailable', 'The service is busy. Try again shortly.', 503);
  }
  return new OAuthError('server_error', 'The service failed to process the request.', 500);
}
