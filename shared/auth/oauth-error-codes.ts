/**
 * The spec's OAuth error codes (common, access grant, access token, invalid tokens), one list for
 * the app's client and the sandbox's provider. `invalid_resource_owner` belongs to the password
 * grant, which neither side offers.
 */
export const oauthErrorCodes = [
  'invalid_request',
  'invalid_redirect_uri',
  'unauthorized_client',
  'access_denied',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'unsupported_response_type',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
  'unknown',
] as const;

export type OAuthErrorCode = (typeof oauthErrorCodes)[number];
