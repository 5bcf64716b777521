/**
 * Typed failures of sign-in and token use. Each carries a `code` the UI maps to a sentence, and a
 * message that never contains a token value.
 */
import { UserFacingError } from '../../shared/errors';
import { oauthErrorCodes, type OAuthErrorCode } from '../../shared/auth/oauth-error-codes';

export type AuthErrorCode =
  | OAuthErrorCode
  // The app's own.
  | 'invalid_token'
  | 'missing_scope'
  | 'unreachable'
  | 'bad_response'
  | 'timeout'
  | 'cancelled'
  | 'signed_out';

const oauthCodes = new Set<string>(oauthErrorCodes);

export class AuthError extends UserFacingError {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** The provider's own `error` value when it is not one the spec lists. */
    readonly providerCode?: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/** Maps a provider's `error`/`error_description` pair; codes outside the spec's table become `unknown`. */
export function oauthError(error: string, description: string | undefined): AuthError {
  const known = oauthCodes.has(error);
  const code = (known ? error : 'unknown') as AuthErrorCode;
  const text = description?.trim() || defaultDescription(error);
  return new AuthError(code, text, known ? undefined : error);
}

function defaultDescription(error: string): string {
  return error === 'access_denied' ? 'Access was denied in the browser.' : `The sign-in failed (${error}).`;
}

export function isAuthError(value: unknown, code?: AuthErrorCode): value is AuthError {
  return value instanceof AuthError && (code === undefined || value.code === code);
}
