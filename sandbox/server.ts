import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyCookie from '@fastify/cookie';
import { speakRealNames } from './http/real-names';
import { openStore, type SandboxStore } from './store';
import { ApiError, codeForStatus, sendError, type ErrorBody } from './http/errors';
import { versionRedirectHook } from './http/versioning';
import { hostCheckHook } from './http/host-check';
import { requestLogFields } from './http/log-redaction';
import { defaultBodyLimit, formBodyLimit, formBodyLimitHook } from './http/limits';
import { createFixedWindowLimiter, defaultBatchRateLimit, type RateLimitSettings } from './http/throttle';
import type { CallbackRetrySettings, SandboxContext } from './context';
import { registerReferenceRoutes } from './routes/reference';
import { registerEntityRoutes } from './routes/entities';
import { registerAssetRoutes } from './routes/assets';
import { registerBatchRoutes } from './routes/batches';
import { registerValidationRoutes } from './routes/validation';
import { registerExportRoutes } from './routes/export';
import { registerResponseRoutes } from './routes/responses';
import { registerOAuthRoutes } from './oauth/routes';
import { registerPortalRoutes } from './portal/routes';

export interface SandboxServerOptions {
  dataDir: string;
  rateLimit?: RateLimitSettings;
  /** How long an export file stays downloadable. The spec: 15 minutes. */
  exportTtlMs?: number;
  callbackRetry?: Partial<CallbackRetrySettings>;
  now?: () => number;
  /** Fixed assessment year; by default the current UTC year of `now`. */
  assessmentYear?: number;
  /** Loopback only: the sandbox has test tokens and no TLS, so it must not be reachable off-host. */
  host?: '127.0.0.1';
  logger?: boolean;
  /** Speak the real service's names on the asset routes (see http/real-names.ts); our spec's by default. */
  realNames?: boolean;
}

export interface SandboxServer {
  app: FastifyInstance;
  store: SandboxStore;
  listen(port?: number): Promise<{ baseUrl: string }>;
  close(): Promise<void>;
}

export const defaultExportTtlMs = 15 * 60_000;

export function createSandboxServer(opts: SandboxServerOptions): SandboxServer {
  const now = opts.now ?? Date.now;
  const store = openStore(opts.dataDir, now);
  // Routes that take more (a batch, an asset) say so themselves (./http/limits).
  const app = Fastify({
    // Credentials may arrive in the query (`?access_token=`): the log shows the URL redacted.
    logger: opts.logger ? { serializers: { req: requestLogFields } } : false,
    bodyLimit: defaultBodyLimit,
    forceCloseConnections: true,
  });
  const shutdown = new AbortController();
  const ctx: SandboxContext = {
    store,
    now,
    settings: {
      exportTtlMs: opts.exportTtlMs ?? defaultExportTtlMs,
      assessmentYear: () => opts.assessmentYear ?? new Date(now()).getUTCFullYear(),
      callbackRetry: { attempts: 4, baseDelayMs: 500, timeoutMs: 10_000, ...opts.callbackRetry },
    },
    batchLimiter: createFixedWindowLimiter(opts.rateLimit ?? defaultBatchRateLimit, now),
    log: app.log,
    background: new Set(),
    shutdown: shutdown.signal,
  };

  // A form may carry its access_token, so it is read before authentication: small on every route
  // (a route's own limit would win over this one in Fastify, hence formBodyLimitHook below too).
  void app.register(fastifyFormbody, { bodyLimit: formBodyLimit });
  void app.register(fastifyCookie);
  // Multipart is read for its form fields only (the export's callback_url): no route takes files.
  void app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: 64 * 1024, files: 0, fields: 16, fieldSize: formBodyLimit, parts: 16 },
  });
  // First, on every route: a Host other than our own loopback name is DNS rebinding.
  app.addHook('onRequest', hostCheckHook);
  app.addHook('onRequest', versionRedirectHook);
  app.addHook('preParsing', formBodyLimitHook);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'sandbox request failed');
    const body: ErrorBody = {
      error: codeForStatus(status),
      message: status >= 500 ? 'Internal server error' : error.message,
    };
    return reply.code(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = {
      error: 'not_found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}`,
    };
    return reply.code(404).send(body);
  });

  void app.register(async (api) => {
    if (opts.realNames) speakRealNames(api);
    registerReferenceRoutes(api, ctx);
    registerEntityRoutes(api, ctx);
    registerAssetRoutes(api, ctx);
    registerBatchRoutes(api, ctx);
    registerValidationRoutes(api, ctx);
    registerExportRoutes(api, ctx);
    registerResponseRoutes(api, ctx);
  });
  registerOAuthRoutes(app, ctx);
  registerPortalRoutes(app, ctx);

  let closed = false;
  return {
    app,
    store,
    async listen(port = 0) {
      const address = await app.listen({ port, host: opts.host ?? '127.0.0.1' });
      return { baseUrl: address.replace('localhost', '127.0.0.1') };
    },
    async close() {
      if (closed) return;
      closed = true;
      shutdown.abort();
      await app.close();
      await Promise.allSettled([...ctx.background]);
      store.close();
    },
  };
}
