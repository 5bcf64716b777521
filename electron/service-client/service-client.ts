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
import { AssetIdNaming, idNameIn, specIdName, toWireRequest } from '../../shared/sync/asset-id-name';
import { ApiError, errorForStatus } from './errors';
import { BatchPacer, realClock, type PacerClock } from './pacer';
import { answerLimits } from './bounded-body';
import { asTransportError, parseAnswer, parseBody, readAnswerBytes, readJson } from './answer-parse';

export { answerLimits };
import { boundedPageMeta, lastPageOf } from './page-plan';
import {
  defaultServerBackoff,
  nextServerWait,
  retryAfterMs,
  type ServerBackoff,
  type ServerWait,
} from './server-backoff';
import { ServiceTransport, type CallOptions, type Method, type TransportOptions } from './transport';

export interface ApiClientOptions extends TransportOptions {
  pageConcurrency?: number;
  clock?: PacerClock;
  pacer?: BatchPacer;
  /** Told when the pacer holds a batch back until the given epoch ms. */
  onRateLimitWait?: (until: number) => void;
  /** The waits after a batch the service answered 5xx (see server-backoff.ts). */
  serverBackoff?: ServerBackoff;
  /**
   * The name this connection's service gives the asset id (shared/sync/asset-id-name.ts): requests
   * are written with it, and answers teach it. The real service's name is assumed until then.
   */
  assetIds?: AssetIdNaming;
}

/**
 * The client of both API versions. Every answer is parsed into typed values at this edge; every
 * failure becomes an ApiError with a kind the caller can act on.
 */
export class SubmissionApiClient {
  readonly pacer: BatchPacer;
  /** The time the client waits by (pacing, retries); the sync waits by it too. */
  readonly clock: PacerClock;
  /** Which name the service gives the asset id: the one place requests take it from. */
  readonly assetIds: AssetIdNaming;
  private readonly transport: ServiceTransport;
  private readonly pageConcurrency: number;
  readonly serverBackoff: ServerBackoff;

  constructor(private readonly opts: ApiClientOptions) {
    this.clock = opts.clock ?? realClock;
    this.pacer = opts.pacer ?? new BatchPacer(this.clock);
    this.transport = new ServiceTransport(opts, this.clock);
    this.pageConcurrency = opts.pageConcurrency ?? 4;
    this.serverBackoff = opts.serverBackoff ?? defaultServerBackoff;
    // Without a connection's naming (tools, tests): our spec's name until an answer shows another.
    this.assetIds = opts.assetIds ?? new AssetIdNaming({ name: specIdName, source: 'assumed' });
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
      assets: true,
    });
  }

  async listAssetsPage(
    entityId: number,
    page: number,
    perPage = MAX_PER_PAGE,
    signal?: AbortSignal,
  ): Promise<{ assets: Asset[]; meta: PageMeta }> {
    const { bytes, meta, status } = await this.listAssetsPageBytes(entityId, page, perPage, signal);
    return { assets: parseAssetPage(bytes, page, status, this.learnFrom), meta };
  }

  /**
   * One page of the listing, its body unparsed (`parseAssetPage` reads it): the
   * sync parses and merges pages in its worker thread.
   */
  async listAssetsPageBytes(
    entityId: number,
    page: number,
    perPage = MAX_PER_PAGE,
    signal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; meta: PageMeta; status: number }> {
    const what = pageWhat(page);
    const call = { query: { page, per_page: perPage }, what, signal, limit: answerLimits.page };
    const response = await this.transport.send('GET', `/api/v1/entities/${entityId}/assets`, call);
    const bytes = await readAnswerBytes(response, what, answerLimits.page, { json: true });
    const meta = pageMetaFromHeaders((name) => response.headers.get(name), page);
    // Links may be relative (resolved against this request) and may claim more pages than exist.
    const requestUrl = response.url || this.transport.url(`/api/v1/entities/${entityId}/assets`, call).href;
    return { bytes, meta: boundedPageMeta(meta, requestUrl), status: response.status };
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
      assets: true,
    });
  }

  /**
   * One batch, sent when the pacer allows. A 429 means the service refused it without applying it,
   * so it is resent after the reset; any other failure is returned to the caller, marked ambiguous
   * when the batch may have been applied.
   */
  async postBatch(entityId: number, body: BatchRequest, signal?: AbortSignal): Promise<BatchResponse> {
    const request = toWireRequest(body, this.assetIds.name);
    const { bytes, status } = await this.postBatchBytes(entityId, JSON.stringify(request), signal);
    return parseBatchAnswer(bytes, status, this.learnFrom);
  }

  /**
   * `postBatch` with the body already serialized and the answer's bytes unparsed (`parseBatchAnswer`
   * reads them): the sync builds and parses batches in its worker thread. Paced and retried on 429
   * the same way; an answer that cannot be read after a 2xx is ambiguous (the batch was applied).
   *
   * A 503 says the service did not take the request (RFC 9110 §15.6.4: unable to handle it now), so
   * the same batch goes again once the service's Retry-After, else a doubling wait of minutes, is
   * over (`onServerWait` is told when); after the backoff's attempts it fails, not ambiguous. Any
   * other 5xx may come after the work was done: it fails at once, ambiguous, with its Retry-After.
   */
  async postBatchBytes(
    entityId: number,
    json: string | Uint8Array,
    signal?: AbortSignal,
    onServerWait?: (wait: ServerWait) => void,
  ): Promise<{ bytes: Uint8Array; status: number }> {
    const what = batchWhat;
    let waits = 0;
    for (;;) {
      await this.pacer.acquire(this.opts.onRateLimitWait, signal);
      let response: Response;
      try {
        response = await this.transport.request('POST', `/api/v1/entities/${entityId}/assets/batches`, {
          json,
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
      if (!response.ok) {
        const error = errorForStatus(response.status, await readJson(response), what);
        const retryAfter = retryAfterMs(response.headers.get('retry-after'), this.clock.now());
        if (retryAfter !== undefined) error.details.retryAfterMs = retryAfter;
        if (response.status !== 503) throw error;
        error.details.ambiguous = false;
        const wait = nextServerWait(waits++, error, this.serverBackoff, this.clock.now());
        if (!wait) throw error;
        onServerWait?.(wait);
        await this.clock.sleep(wait.until - this.clock.now(), signal);
        continue;
      }
      try {
        return {
          bytes: await readAnswerBytes(response, what, answerLimits.batch, { json: true }),
          status: response.status,
        };
      } catch (error) {
        // The service answered 2xx: the batch was applied even if its answer is unreadable.
        if (error instanceof ApiError) error.details.ambiguous = true;
        throw error;
      }
    }
  }

  validate(entityId: number, body: ValidationRequest, signal?: AbortSignal): Promise<ValidationResponse> {
    return this.json('POST', `/api/v1/entities/${entityId}/assets/validation`, validationResponseSchema, {
      body: toWireRequest(body, this.assetIds.name),
      what: 'the validation request',
      signal,
      limit: answerLimits.batch,
      assets: true,
    });
  }

  async requestExport(entityId: number, callbackUrl: string, signal?: AbortSignal): Promise<unknown> {
    const response = await this.transport.send(
      'POST',
      `/api/v1/entities/${entityId}/asset_spreadsheet_export`,
      {
        form: { callback_url: callbackUrl },
        what: 'the spreadsheet export',
        signal,
      },
    );
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
    const response = await this.transport.send(method, path, call);
    const seen = call.assets ? this.learnFrom : undefined;
    return parseBody(response, schema, call.what, call.limit ?? answerLimits.default, seen);
  }

  /** An answer's assets teach the name this service gives their id. */
  private readonly learnFrom = (json: unknown): void => this.assetIds.learn(idNameIn(json));
}

const batchWhat = 'the batch';
const pageWhat = (page: number) => `page ${page} of the assets`;

const assetPageSchema = z.array(assetSchema);

/** A listing page's bytes as `listAssetsPage` parses them. */
export function parseAssetPage(
  bytes: Uint8Array,
  page: number,
  status: number,
  seen?: (json: unknown) => void,
): Asset[] {
  return parseAnswer(bytes, assetPageSchema, pageWhat(page), status, seen);
}

/** A batch answer's bytes as `postBatch` parses them; unreadable after a 2xx is ambiguous. */
export function parseBatchAnswer(
  bytes: Uint8Array,
  status: number,
  seen?: (json: unknown) => void,
): BatchResponse {
  try {
    return parseAnswer(bytes, batchResponseSchema, batchWhat, status, seen);
  } catch (error) {
    if (error instanceof ApiError) error.details.ambiguous = true;
    throw error;
  }
}
