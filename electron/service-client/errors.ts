/**
 * Typed failures of a call to the Submission Service. `ambiguous` says whether the request may have
 * been applied although no answer arrived (a POST whose connection dropped): the sync engine must
 * reconcile before it resends such a request.
 */
import { UserFacingError } from '../../shared/errors';

export type ApiErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'bad_request'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'cancelled';

export class ApiError extends UserFacingError {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: {
      status?: number;
      body?: unknown;
      ambiguous?: boolean;
      /** For rate_limited: when the service expects the counter to reset (epoch ms). */
      resetAt?: number;
      /** For server: how long the service asked to wait (its Retry-After), in ms. */
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get ambiguous(): boolean {
    return this.details.ambiguous ?? false;
  }
}

/** A call that failed because the service could not be reached (not because it said no). */
export function isOfflineError(error: unknown): boolean {
  return error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');
}

/** What the user reads for each kind; the service's own message is appended where it sent one. */
export function errorForStatus(status: number, body: unknown, what: string): ApiError {
  const serverMessage = messageOf(body);
  const suffix = serverMessage ? `: ${serverMessage}` : '';
  if (status === 401)
    return new ApiError('unauthorized', `Sign-in needed: the token was refused${suffix}`, { status, body });
  if (status === 403)
    return new ApiError('forbidden', `No permission for ${what}${suffix}`, { status, body });
  if (status === 404) return new ApiError('not_found', `Not found: ${what}${suffix}`, { status, body });
  if (status === 422)
    return new ApiError('validation', `The service rejected ${what} as invalid${suffix}`, { status, body });
  if (status === 429)
    return new ApiError('rate_limited', `Too many requests for ${what}${suffix}`, { status, body });
  if (status >= 500) {
    // A 5xx may come after the server applied part of the work. The service answered: it is
    // having trouble, not out of reach.
    return new ApiError('server', `The service is having trouble (HTTP ${status}) with ${what}${suffix}`, {
      status,
      body,
      ambiguous: true,
    });
  }
  return new ApiError('bad_request', `The service refused ${what} (HTTP ${status})${suffix}`, {
    status,
    body,
  });
}

function messageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error']) {
    const value = record[key];
    if (typeof value === 'string' && value.length > 0) return value.slice(0, 500);
  }
  return undefined;
}
