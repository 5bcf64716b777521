/**
 * Deadlines that hold. `AbortSignal.timeout()` is only weakly held by Node: combined through
 * `AbortSignal.any()`, nothing but the combined signal refers to it, so a garbage collection during a
 * stalled request collects its timer and the request waits for undici's own default of 5 minutes
 * (issue 29: a sync hung for 300,615 ms on a listing page that never sent its headers). Here the
 * timer is an ordinary `setTimeout`, held by Node's timer list until it fires or is cleared, and
 * every request also goes through an undici dispatcher whose header and body timeouts stop a socket
 * that goes quiet, whatever the caller's signal does.
 */
import { Agent } from 'undici';

export interface Deadline {
  /** Aborts at the deadline (a `TimeoutError`) or when the caller's signal does (its reason). */
  signal: AbortSignal;
  /** Clears the timer and the caller's listener; call it once the work is over. */
  dispose(): void;
}

/** A signal aborted after `ms`, or when `outer` is, kept alive until `dispose()`. */
export function deadline(ms: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuter, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError')),
    Math.max(1, ms),
  );
  let disposed = false;
  return {
    signal: controller.signal,
    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

const dispatchers = new Map<number, Agent>();

/**
 * The undici dispatcher for requests of at most `timeoutMs`: a socket that sends no headers, or goes
 * quiet in the middle of a body, for that long is closed (undici's defaults are 5 minutes each). One
 * per timeout, shared, so connections are kept alive across clients as the global one does.
 */
export function dispatcherFor(timeoutMs: number): Agent {
  let agent = dispatchers.get(timeoutMs);
  if (!agent) {
    agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    dispatchers.set(timeoutMs, agent);
  }
  return agent;
}

/**
 * `init` with the dispatcher for `stallMs` (Node's fetch takes undici's `dispatcher` beside the
 * standard fields; its type is undici's own, not the one Node's lib types name).
 */
export function withStallGuard(init: RequestInit, stallMs: number): RequestInit {
  const dispatcher: unknown = dispatcherFor(Math.max(1, Math.ceil(stallMs)));
  return { ...init, dispatcher } as RequestInit;
}

/** Statuses whose answer has no body (a Response cannot be built around one). */
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` whose deadline runs from the request to the answer's last byte: the returned Response's
 * body ends the deadline when it has been read; until then a stall in the body aborts it too.
 */
export async function fetchWithDeadline(
  url: URL | string,
  init: Omit<RequestInit, 'signal'>,
  opts: {
    timeoutMs: number;
    /** The dispatcher's header and body timeouts (default `timeoutMs`): a fixed value, one agent. */
    stallMs?: number;
    signal?: AbortSignal | undefined;
    fetch?: typeof fetch | undefined;
  },
): Promise<Response> {
  const limit = deadline(opts.timeoutMs, opts.signal);
  const guarded = withStallGuard({ ...init, signal: limit.signal }, opts.stallMs ?? opts.timeoutMs);
  let response: Response;
  try {
    response = await (opts.fetch ?? fetch)(url, guarded);
  } catch (error) {
    limit.dispose();
    throw error;
  }
  if (!response.body || nullBodyStatus.has(response.status)) {
    limit.dispose();
    return response;
  }
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: () => limit.dispose() }),
  );
  const answer = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperty(answer, 'url', { value: response.url });
  return answer;
}

/** undici's own timeouts (headers, body, connect) surface as a TypeError with this cause. */
const undiciTimeouts = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** True for a deadline's abort and for undici's own timeouts. */
export function isTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError') return true;
  const cause = (error as { cause?: unknown }).cause;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && undiciTimeouts.has(code);
}
