import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError, badRequest } from './errors';

/**
 * What each route may receive. Every API route authenticates at onRequest, before its body is
 * read; what is read before authentication (forms that may carry `access_token`, the portal, the
 * OAuth token endpoint) is bounded by the small limits, so an anonymous caller cannot make the
 * sandbox buffer and parse megabytes.
 */

/** Portal forms, OAuth parameters, the export's `callback_url`: a few fields of text. */
export const formBodyLimit = 64 * 1024;
/** The default for every route that names no other limit. */
export const defaultBodyLimit = formBodyLimit;
/** One asset with its annual data and certifications, or one response value or evidence link. */
export const singleResourceBodyLimit = 1024 * 1024;
/**
 * A batch or a validation of 5,000 items per field (the spec's limit) with six years each: about
 * 12 MB for the benchmark's assets, so 64 MB leaves room for every catalog field being filled.
 */
export const batchBodyLimit = 64 * 1024 * 1024;

const formTypes = ['application/x-www-form-urlencoded', 'multipart/form-data'];

const formTooLarge = (): ApiError =>
  new ApiError(413, 'payload_too_large', `A form body may be at most ${formBodyLimit} bytes`);

/** `boundary=` with a token or a quoted string: without it a multipart body cannot be split. */
const multipartBoundary = /;\s*boundary=(?:"[^"]+"|[^\s;"]+)/i;

/**
 * preParsing hook for every route: a multipart body without its boundary is refused 400 here
 * (busboy would throw a plain error, answered 500), and a form is capped at `formBodyLimit` even on a route whose own
 * limit is larger (a route's limit wins over a parser's in Fastify), because a form may carry its
 * `access_token` and so is read before the caller is known. A declared length is refused at once;
 * a chunked body is counted as it arrives.
 */
export async function formBodyLimitHook(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
): Promise<RequestPayload> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (!formTypes.some((t) => type.startsWith(t))) return payload;
  if (type.startsWith('multipart/form-data') && !multipartBoundary.test(type)) {
    throw badRequest('A multipart/form-data body needs a boundary parameter in its Content-Type');
  }
  if (Number(request.headers['content-length']) > formBodyLimit) throw formTooLarge();
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > formBodyLimit) callback(formTooLarge());
      else callback(null, chunk);
    },
  });
  payload.on('error', (error) => counted.destroy(error));
  return payload.pipe(counted);
}
