/**
 * How one call reaches the service: the address, the token, the body's encoding, a deadline for the
 * whole call, and retries of the safe methods (GET, DELETE) that fail in transit or with a 5xx.
 * The endpoints and their answers' parsing are the client's (service-client.ts).
 */
import { fetchWithDeadline } from '../net/deadline';
import { asTransportError, readJson } from './answer-parse';
import { ApiError, errorForStatus } from './errors';
import type { PacerClock } from './pacer';

export interface TransportOptions {
  /** The service's base address; `/api/v1` and `/api/v0` are appended. */
  baseUrl: string;
  /** Read per request, so a new sign-in takes effect without a new client. */
  getToken: () => string | undefined | Promise<string | undefined>;
  /** Per attempt. */
  timeoutMs?: number;
  /**
   * One deadline for a whole call, retries included: a hung service fails the call once, after
   * this, instead of after every attempt's own timeout in turn.
   */
  deadlineMs?: number;
  /** Told before each retry, so the user sees the app is still trying (and can cancel). */
  onRetry?: (info: { what: string; attempt: number; error: ApiError }) => void;
  /** Attempts for safe calls (GET, DELETE) that fail in transit or with 5xx. */
  retries?: number;
  retryBaseDelayMs?: number;
  /** The transport; the global fetch unless a caller observes traffic (tests count 429s). */
  fetch?: typeof fetch;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface CallOptions {
  body?: unknown;
  /** A JSON body already serialized (the sync's worker builds batch bodies). */
  json?: string | Uint8Array;
  form?: Record<string, string>;
  query?: Record<string, string | number>;
  signal?: AbortSignal | undefined;
  what: string;
  /** Bytes of the answer read at most (`answerLimits.default` unless said). */
  limit?: number;
  /** Set by send(): when the whole call must have ended (epoch ms of the client's clock). */
  deadline?: number;
  /** The answer carries assets: the name their id comes under is learned from it. */
  assets?: true;
}

export class ServiceTransport {
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly retries: number;
  private readonly retryBaseDelayMs: number;

  constructor(
    private readonly opts: TransportOptions,
    private readonly clock: PacerClock,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.deadlineMs = opts.deadlineMs ?? Math.max(this.timeoutMs, 60_000);
    this.retries = opts.retries ?? 4;
    this.retryBaseDelayMs = opts.retryBaseDelayMs ?? 300;
  }

  /** Sends with retries for safe methods; throws ApiError for anything but 2xx. */
  async send(method: Method, path: string, call: CallOptions): Promise<Response> {
    const retryable = method === 'GET' || method === 'DELETE';
    const attempts = retryable ? this.retries + 1 : 1;
    const deadline = this.clock.now() + this.deadlineMs;
    let lastError: ApiError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const delay = this.retryBaseDelayMs * 2 ** (attempt - 1);
        // No retry that could not finish before the call's deadline.
        if (lastError && this.clock.now() + delay >= deadline) break;
        if (lastError) this.opts.onRetry?.({ what: call.what, attempt, error: lastError });
        await this.clock.sleep(delay, call.signal);
      }
      let response: Response;
      try {
        response = await this.request(method, path, { ...call, deadline });
      } catch (error) {
        lastError = asTransportError(error, call.what, method === 'POST' || method === 'PATCH');
        if (lastError.kind === 'cancelled') throw lastError;
        continue;
      }
      if (response.ok) return response;
      const error = errorForStatus(response.status, await readJson(response), call.what);
      if (error.kind !== 'server' || !retryable) throw error;
      lastError = error;
    }
    throw lastError ?? new ApiError('network', `Could not reach the service for ${call.what}`);
  }

  url(path: string, call: CallOptions): URL {
    const url = new URL(path, this.opts.baseUrl);
    for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, String(value));
    return url;
  }

  async request(method: Method, path: string, call: CallOptions): Promise<Response> {
    // The token first: for the embedded sandbox, asking for it is what checks (or moves) its port.
    const token = await this.opts.getToken();
    const url = this.url(path, call);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token) headers['Authorization'] = `Bearer ${token}`;
    let body: string | Uint8Array | undefined;
    if (call.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = call.json;
    } else if (call.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const left = call.deadline === undefined ? this.timeoutMs : call.deadline - this.clock.now();
    // Never follow a redirect: it would carry the token to an address the user did not choose.
    // The deadline holds until the answer's last byte, through a collection (electron/net/deadline.ts).
    return fetchWithDeadline(
      url,
      { method, headers, body, redirect: 'manual' },
      {
        timeoutMs: Math.min(this.timeoutMs, left),
        stallMs: this.timeoutMs,
        signal: call.signal,
        fetch: this.opts.fetch,
      },
    );
  }
}
