import { z } from 'zod';
import {
  batchResponseSchema,
  certificationSchemeSchema,
  energyRatingSchemeSchema,
  entitySchema,
  assetSchema,
  validationResponseSchema,
  codeListSchema,
  codeListSummarySchema,
  pageMetaFromHeaders,
  MAX_PER_PAGE,
  type Asset,
  type BatchRequest,
  type BatchResponse,
  type CertificationScheme,
  type CodeList,
  type CodeListSummary,
  type EnergyRatingScheme,
  type Entity,
  type PageMeta,
  type ValidationRequest,
  type ValidationResponse,
} from '../../shared/domain';
import { ApiError, errorForStatus } from './errors';
import { BatchPacer, realClock, type PacerClock } from './pacer';

export interface ApiClientOptions {
  /** The service's base address; `/api/v1` and `/api/v0` are appended. */
  baseUrl: string;
  /** Read per request, so a new sign-in takes effect without a new client. */
  getToken: () => string | undefined | Promise<string | undefined>;
  timeoutMs?: number;
  /** Attempts for safe calls (GET, DELETE) that fail in transit or with 5xx. */
  retries?: number;
  retryBaseDelayMs?: number;
  pageConcurrency?: number;
  clock?: PacerClock;
  pacer?: BatchPacer;
  /** Told when the pacer holds a batch back until the given epoch ms. */
  onRateLimitWait?: (until: number) => void;
  /** The transport; the global fetch unless a caller observes traffic (tests count 429s). */
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface CallOptions {
  body?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string | number>;
  signal?: AbortSignal | undefined;
  what: string;
}

/**
 * The client of both API versions. Every answer is parsed into typed values at this edge; every
 * failure becomes an ApiError with a kind the caller can act on.
 */
export class SubmissionApiClient {
  readonly pacer: BatchPacer;
  private readonly clock: PacerClock;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryBaseDelayMs: number;
  private readonly pageConcurrency: number;

  constructor(private readonly opts: ApiClientOptions) {
    this.clock = opts.clock ?? realClock;
    this.pacer = opts.pacer ?? new BatchPacer(this.clock);
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.retries = opts.retries ?? 4;
    this.retryBaseDelayMs = opts.retryBaseDelayMs ?? 300;
    this.pageConcurrency = opts.pageConcurrency ?? 4;
  }

  listEntities(signal?: AbortSignal): Promise<Entity[]> {
    return this.json('GET', '/api/v1/entities', z.array(entitySchema), { what: 'the entity list', signal });
  }

  getEntity(entityId: number, signal?: AbortSignal): Promise<Entity> {
    return this.json('GET', `/api/v1/entities/${entityId}`, entitySchema, {
      what: `entity ${entityId}`,
      signal,
    });
  }

  certifications(signal?: AbortSignal): Promise<CertificationScheme[]> {
    return this.json('GET', '/api/v1/certifications', z.array(certificationSchemeSchema), {
      what: 'the certification list',
      signal,
    });
  }

  energyRatings(signal?: AbortSignal): Promise<EnergyRatingScheme[]> {
    return this.json('GET', '/api/v1/energy_ratings', z.array(energyRatingSchemeSchema), {
      what: 'the energy rating list',
      signal,
    });
  }

  lists(signal?: AbortSignal): Promise<CodeListSummary[]> {
    return this.json('GET', '/api/v0/lists', z.array(codeListSummarySchema), { what: 'the lists', signal });
  }

  list(slug: string, signal?: AbortSignal): Promise<CodeList> {
    return this.json('GET', `/api/v0/lists/${encodeURIComponent(slug)}`, codeListSchema, {
      what: `list ${slug}`,
      signal,
    });
  }

  getAsset(entityId: number, assetId: number, signal?: AbortSignal): Promise<Asset> {
    return this.json('GET', `/api/v1/entities/${entityId}/assets/${assetId}`, assetSchema, {
      what: `asset ${assetId}`,
      signal,
    });
  }

  async listAssetsPage(
    entityId: number,
    page: number,
    perPage = MAX_PER_PAGE,
    signal?: AbortSignal,
  ): Promise<{ assets: Asset[]; meta: PageMeta }> {
    const response = await this.send('GET', `/api/v1/entities/${entityId}/assets`, {
      query: { page, per_page: perPage },
      what: `page ${page} of the assets`,
      signal,
    });
    const assets = await parseBody(response, z.array(assetSchema), `page ${page} of the assets`);
    return { assets, meta: pageMetaFromHeaders((name) => response.headers.get(name), page) };
  }

  /**
   * All assets of an entity. The first page's `link` header tells how many pages there are; the
   * rest are fetched a few at a time, in order of page number in the result.
   */
  async listAllAssets(
    entityId: number,
    opts: {
      perPage?: number;
      signal?: AbortSignal | undefined;
      onPage?: (done: number, total: number) => void;
      /** Each page's assets as they arrive (any order); the result is then empty, to spare memory. */
      onAssets?: (assets: Asset[]) => void;
    } = {},
  ): Promise<Asset[]> {
    const perPage = opts.perPage ?? MAX_PER_PAGE;
    const first = await this.listAssetsPage(entityId, 1, perPage, opts.signal);
    const lastPage = lastPageOf(first.meta, first.assets.length);
    const pages: Asset[][] = [];
    const take = (page: number, assets: Asset[]) => {
      if (opts.onAssets) opts.onAssets(assets);
      else pages[page - 1] = assets;
    };
    take(1, first.assets);
    opts.onPage?.(1, lastPage);
    let next = 2;
    let done = 1;
    const worker = async () => {
      while (next <= lastPage) {
        const page = next++;
        const { assets } = await this.listAssetsPage(entityId, page, perPage, opts.signal);
        take(page, assets);
        opts.onPage?.(++done, lastPage);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.pageConcurrency, lastPage - 1) }, worker));
    return pages.flat();
  }

  deleteAsset(entityId: number, assetId: number, signal?: AbortSignal): Promise<Asset> {
    return this.json('DELETE', `/api/v1/entities/${entityId}/assets/${assetId}`, assetSchema, {
      what: `deleting asset ${assetId}`,
      signal,
    });
  }

  /**
   * One batch, sent when the pacer allows. A 429 means the service refused it without applying it,
   * so it is resent after the reset; any other failure is returned to the caller, marked ambiguous
   * when the batch may have been applied.
   */
  async postBatch(entityId: number, body: BatchRequest, signal?: AbortSignal): Promise<BatchResponse> {
    const what = 'the batch';
    for (;;) {
      await this.pacer.acquire(this.opts.onRateLimitWait, signal);
      let response: Response;
      try {
        response = await this.request('POST', `/api/v1/entities/${entityId}/assets/batches`, {
          body,
          what,
          signal,
        });
        this.pacer.update(response.headers);
      } catch (error) {
        throw asTransportError(error, what, true);
      } finally {
        this.pacer.release();
      }
      if (response.status === 429) {
        await response.body?.cancel();
        continue;
      }
      if (!response.ok) throw errorForStatus(response.status, await readJson(response), what);
      try {
        return await parseBody(response, batchResponseSchema, what);
      } catch (error) {
        // The service answered 2xx: the batch was applied even if its answer is unreadable.
        if (error instanceof ApiError) error.details.ambiguous = true;
        throw error;
      }
    }
  }

  validate(entityId: number, body: ValidationRequest, signal?: AbortSignal): Promise<ValidationResponse> {
    return this.json('POST', `/api/v1/entities/${entityId}/assets/validation`, validationResponseSchema, {
      body,
      what: 'the validation request',
      signal,
    });
  }

  async requestExport(entityId: number, callbackUrl: string, signal?: AbortSignal): Promise<unknown> {
    const response = await this.send('POST', `/api/v1/entities/${entityId}/asset_spreadsheet_export`, {
      form: { callback_url: callbackUrl },
      what: 'the spreadsheet export',
      signal,
    });
    return readJson(response);
  }

  /**
   * One JSON call, parsed by `schema`, failures as ApiError (GET retried like the rest). The v0
   * portfolio responses are built on it in electron/responses/responses-client.ts.
   */
  callJson<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    call: { body?: unknown; what: string; signal?: AbortSignal | undefined },
  ): Promise<T> {
    return this.json(method, path, schema, call);
  }

  private async json<T>(method: Method, path: string, schema: z.ZodType<T>, call: CallOptions): Promise<T> {
    const response = await this.send(method, path, call);
    return parseBody(response, schema, call.what);
  }

  /** Sends with retries for safe methods; throws ApiError for anything but 2xx. */
  private async send(method: Method, path: string, call: CallOptions): Promise<Response> {
    const retryable = method === 'GET' || method === 'DELETE';
    const attempts = retryable ? this.retries + 1 : 1;
    let lastError: ApiError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await this.clock.sleep(this.retryBaseDelayMs * 2 ** (attempt - 1), call.signal);
      let response: Response;
      try {
        response = await this.request(method, path, call);
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

  private async request(method: Method, path: string, call: CallOptions): Promise<Response> {
    const url = new URL(path, this.opts.baseUrl);
    for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = await this.opts.getToken();
    if (token) headers['Authorization'] = `Bearer ${token}`;
    let body: string | undefined;
    if (call.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    // Never follow a redirect: it would carry the token to an address the user did not choose.
    return (this.opts.fetch ?? fetch)(url, { method, headers, body, signal, redirect: 'manual' });
  }
}

function lastPageOf(meta: PageMeta, firstCount: number): number {
  const fromLink = meta.links.last ? Number(new URL(meta.links.last).searchParams.get('page')) : NaN;
  if (Number.isInteger(fromLink) && fromLink >= 1) return fromLink;
  if (meta.total > 0 && meta.perPage > 0) return Math.ceil(meta.total / meta.perPage);
  return firstCount > 0 && meta.links.next ? 2 : 1;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text.slice(0, 200) };
  }
}

async function parseBody<T>(response: Response, schema: z.ZodType<T>, what: string): Promise<T> {
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    throw new ApiError('bad_response', `The service sent an unreadable answer for ${what}`, {
      status: response.status,
      cause: error,
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'unexpected shape';
    throw new ApiError('bad_response', `The service sent an unexpected answer for ${what} (${where})`, {
      status: response.status,
      body: json,
    });
  }
  return parsed.data;
}

function asTransportError(error: unknown, what: string, mayHaveApplied: boolean): ApiError {
  if (error instanceof ApiError) return error;
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError') {
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
