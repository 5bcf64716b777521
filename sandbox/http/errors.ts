import type { FastifyReply } from 'fastify';

/**
 * Every non-validation error leaves the sandbox as `{ error, message }` with one of these codes;
 * the spec leaves the body shape open, and one shape lets the app show any failure the same way.
 */
export type ErrorCode =
  | 'moved_permanently'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'misdirected_request'
  | 'gone'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'internal_error';

export interface ErrorBody {
  error: ErrorCode;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, 'bad_request', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'forbidden', message);
export const unauthorized = (message: string): ApiError =>
  new ApiError(401, 'unauthorized', message, { 'www-authenticate': 'Bearer realm="sandbox"' });

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  const body: ErrorBody = { error: err.code, message: err.message };
  return reply.code(err.statusCode).send(body);
}

/** Maps a status from Fastify's own errors (body parser, limits) onto our codes. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 410:
      return 'gone';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}
