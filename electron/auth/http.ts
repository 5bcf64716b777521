import { AuthError } from './errors';
import { fetchWithDeadline, isTimeout } from '../net/deadline';
import { BodyTooLargeError, describeBytes, readBoundedText } from '../service-client/bounded-body';

/** A token or token-info answer is a few hundred bytes; anything near this is not one. */
export const authAnswerLimit = 256 * 1024;

export type FetchLike = typeof fetch;

/** Status and parsed JSON (undefined when the body is not JSON); network failures become `unreachable`. */
export async function requestJson(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit & { timeoutMs?: number },
): Promise<{ status: number; body: unknown }> {
  const { timeoutMs = 30_000, ...rest } = init;
  let response: Response;
  try {
    response = await fetchWithDeadline(
      url,
      {
        ...rest,
        headers: { Accept: 'application/json', ...(rest.headers as Record<string, string> | undefined) },
        // Never follow: a redirect would carry the token (or the code) somewhere the user did not pick.
        redirect: 'manual',
      },
      { timeoutMs, fetch: fetchImpl },
    );
  } catch (error) {
    throw new AuthError(
      'unreachable',
      `Could not reach ${new URL(url).origin}: ${describeNetworkError(error)}`,
    );
  }
  let text: string;
  try {
    text = await readBoundedText(response, authAnswerLimit);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      throw new AuthError(
        'bad_response',
        `${new URL(url).origin} sent an answer larger than ${describeBytes(authAnswerLimit)}; it is not a token answer.`,
      );
    text = '';
  }
  let body: unknown;
  try {
    body = text.length > 0 ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

export function formBody(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (isTimeout(error)) return 'no answer in time';
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error) return cause.message;
    return error.message;
  }
  return String(error);
}
