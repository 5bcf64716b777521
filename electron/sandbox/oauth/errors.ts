/**
 * The spec's OAuth error codes. Every one the sandbox can produce is listed with where it arises;
 * `invalid_resource_owner` (password grant) cannot, because only the authorization-code grant is
 * offered.
 */
export type OAuthErrorCode =
  /** A required parameter is missing, repeated or malformed; an unsupported PKCE method. */
  | 'invalid_request'
  /** redirect_uri is not one the application registered (shown on a page, never redirected to). */
  | 'invalid_redirect_uri'
  /** A grant or response type the service knows but does not allow applications (implicit, password, client credentials). */
  | 'unauthorized_client'
  /** The user pressed Deny. */
  | 'access_denied'
  /** A scope that is not in the spec's table. */
  | 'invalid_scope'
  /** An unexpected failure. */
  | 'server_error'
  /** The database is busy or the service is shutting down: retry later. */
  | 'temporarily_unavailable'
  /** response_type other than code (and the known-but-refused token). */
  | 'unsupported_response_type'
  /** Unknown client_id or wrong client_secret. */
  | 'invalid_client'
  /** Code unknown, expired, used, issued to another client or redirect_uri, or failing PKCE. */
  | 'invalid_grant'
  /** grant_type the service does not know. */
  | 'unsupported_grant_type'
  /** The spec's "invalid tokens" code: token info for a token that is not a live OAuth token. */
  | 'unknown';

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
