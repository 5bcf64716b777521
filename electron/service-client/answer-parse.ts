/**
 * Reading an answer's body and parsing it, as two steps: the bytes are read where the request was
 * made (main), and may be parsed elsewhere (the sync's worker thread parses batch answers and
 * listing pages, so main never spends a 5,000-asset answer's parse on its event loop). Both steps
 * fail with the same ApiErrors whichever thread runs them.
 */
import type { z } from 'zod';
import { ApiError } from './errors';
import { isTimeout } from '../net/deadline';
import { JsonDepthScan, jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../shared/text/json-depth';
import {
  BodyTooLargeError,
  describeBytes,
  readBoundedBytes,
  readBoundedText,
  answerLimits,
} from './bounded-body';

/**
 * The body's bytes, bounded by `limit`; a body cut short or too large is an ApiError. With
 * `json`, its nesting is read as it arrives, and an answer nested too deep is refused at the chunk
 * that shows it (a 30 MB nested page at its first 64 KB), its rest unread.
 */
export async function readAnswerBytes(
  response: Response,
  what: string,
  limit: number,
  opts: { json?: boolean } = {},
): Promise<Uint8Array> {
  const scan = opts.json ? new JsonDepthScan() : undefined;
  try {
    return await readBoundedBytes(
      response,
      limit,
      scan &&
        ((chunk) => {
          if (scan.push(chunk)) refuseDeepNesting(chunk, what, response.status, true);
        }),
    );
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof BodyTooLargeError)
      throw new ApiError(
        'bad_response',
        `The service's answer for ${what} is larger than ${describeBytes(limit)}, more than such an answer can hold; it was not read.`,
        { status: response.status, cause: error },
      );
    if (isTimeout(error) || (error instanceof Error && error.name === 'AbortError'))
      throw asTransportError(error, what, false);
    throw new ApiError('bad_response', `The service sent an unreadable answer for ${what}`, {
      status: response.status,
      cause: error,
    });
  }
}

/**
 * The body's bytes as JSON checked by `schema`; anything else is a `bad_response` ApiError.
 * `seen` is shown the JSON as it came (the client learns the asset id's name from it).
 */
export function parseAnswer<T>(
  bytes: Uint8Array,
  schema: z.ZodType<T>,
  what: string,
  status: number,
  seen?: (json: unknown) => void,
): T {
  refuseDeepNesting(bytes, what, status);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch (error) {
    throw new ApiError('bad_response', `The service sent an unreadable answer for ${what}`, {
      status,
      cause: error,
    });
  }
  seen?.(json);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'unexpected shape';
    throw new ApiError('bad_response', `The service sent an unexpected answer for ${what} (${where})`, {
      status,
      body: json,
    });
  }
  return parsed.data;
}

/**
 * Nesting is bounded before parsing: a page of nested arrays within the size limit cost 59 s and
 * 3.4 GB before a reader overflowed its stack (shared/text/json-depth.ts).
 */
export function refuseDeepNesting(bytes: Uint8Array, what: string, status: number, known = false): void {
  if (known || jsonNestsDeeperThan(bytes))
    throw new ApiError(
      'bad_response',
      `The service's answer for ${what} nests deeper than ${MAX_JSON_DEPTH} levels, which no answer of the service does; it was not read.`,
      { status },
    );
}

/** Reads and parses in one go (what every call but the sync's hot paths does). */
export async function parseBody<T>(
  response: Response,
  schema: z.ZodType<T>,
  what: string,
  limit: number,
  seen?: (json: unknown) => void,
): Promise<T> {
  return parseAnswer(await readAnswerBytes(response, what, limit), schema, what, response.status, seen);
}

/** A refusal's body, for its message: JSON if it is, else its first characters. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await readBoundedText(response, answerLimits.error).catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 200) };
  }
}

export function asTransportError(error: unknown, what: string, mayHaveApplied: boolean): ApiError {
  if (error instanceof ApiError) return error;
  const name = error instanceof Error ? error.name : '';
  if (isTimeout(error)) {
    return new ApiError('timeout', `The service did not answer in time for ${what}`, {
      ambiguous: mayHaveApplied,
      cause: error,
    });
  }
  if (name === 'AbortError') return new ApiError('cancelled', `Cancelled: ${what}`, { cause: error });
  return new ApiError('network', `Could not reach the service for ${what}: ${causeMessage(error)}`, {
    ambiguous: mayHaveApplied,
    cause: error,
  });
}

function causeMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error.message;
}
