import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { alwaysCreateRequiredFields, BATCH_MAX_PER_FIELD, batchRequestSchema } from '../../shared/domain';
import type {
  Asset,
  AssetInput,
  BatchCounts,
  BatchRequest,
  BatchResponse,
  InvalidAsset,
} from '../../shared/domain';
import { accessRules } from '../../shared/auth/scopes';
import { routeAccess } from '../auth/guard';
import { batchBodyLimit } from '../http/limits';
import { ApiError, badRequest } from '../http/errors';
import { assetResource, deletedResource, invalidResource } from '../model/asset-model';
import { openEntitySession, type Checked } from '../model/asset-service';
import { toNumber } from '../model/values';
import type { SandboxContext } from '../context';

export const batchFields = ['create', 'always_create', 'update', 'always_update', 'delete'] as const;

/**
 * A clear 400 for oversized fields before the structural parse: the limit is per field, and the
 * client needs to know which field to split.
 */
export function parseBatchBody(body: unknown, fields: readonly string[]): BatchRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('The body must be a JSON object');
  const record = body as Record<string, unknown>;
  for (const f of fields) {
    const v = record[f];
    if (v === undefined) continue;
    if (!Array.isArray(v)) throw badRequest(`${f} must be an array`);
    if (v.length > BATCH_MAX_PER_FIELD) {
      throw badRequest(
        `${f} has ${v.length} items; at most ${BATCH_MAX_PER_FIELD} are allowed per field per request`,
      );
    }
  }
  const parsed = batchRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`Invalid batch body at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Reads a `service_asset_id` as an integer id, or undefined when it is missing or malformed. */
export function assetIdOf(item: { service_asset_id?: unknown }): number | undefined {
  const n = toNumber(item.service_asset_id);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

const counts = (r: Omit<BatchResponse, 'counts'>): BatchCounts => ({
  created: r.created.length,
  always_created: r.always_created.length,
  updated: r.updated.length,
  always_updated: r.always_updated.length,
  deleted: r.deleted.length,
  invalid: r.invalid.length,
  not_found: r.not_found.length,
});

/** always_create keeps invalid assets, but not ones missing (or failing) these fields. */
function mandatoryFailures(checked: Checked): string[] {
  const errors = checked.result.asset.errors;
  return alwaysCreateRequiredFields.filter((f) => {
    const v = checked.merged[f];
    const blank = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    return blank || (errors[f]?.length ?? 0) > 0;
  });
}

/** Aborts the batch transaction; carries the offending items to the 422 answer. */
class BatchRejected extends Error {
  constructor(
    readonly items: InvalidAsset[],
    message: string,
  ) {
    super(message);
  }
}

/** Throttle per access token; headers on every answer of the batch endpoint, 429 beyond the limit. */
function throttle(ctx: SandboxContext) {
  const done = new WeakSet<FastifyRequest>();
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const principal = request.principal;
    // Before authentication (a form body's token) there is no key yet; preHandler retries.
    if (!principal || done.has(request)) return;
    done.add(request);
    const decision = ctx.batchLimiter.take(principal.tokenHash);
    for (const [k, v] of Object.entries(decision.headers)) reply.header(k, v);
    if (!decision.allowed) {
      throw new ApiError(
        429,
        'too_many_requests',
        `At most ${ctx.batchLimiter.settings.limit} batch requests per ${Math.round(ctx.batchLimiter.settings.windowMs / 1000)} s per access token; retry after the reset`,
        { 'retry-after': String(decision.retryAfterSeconds) },
      );
    }
  };
}

export function registerBatchRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const access = routeAccess(store.admin, accessRules.batches);
  const limit = throttle(ctx);

  app.post(
    '/api/v1/entities/:entity_id/assets/batches',
    {
      onRequest: [access.onRequest, limit],
      preHandler: [access.preHandler, limit],
      bodyLimit: batchBodyLimit,
    },
    async (request, reply) => {
      const body = parseBatchBody(request.body, batchFields);
      const entityId = request.entityId ?? -1;
      const s = openEntitySession(store, entityId, {
        now: ctx.now,
        assessmentYear: ctx.settings.assessmentYear(),
      });
      const out = emptyLists();
      const resource = (stored: Parameters<typeof assetResource>[0]): Asset =>
        assetResource(stored, { validations: true, nestedValidations: true });

      try {
        store.assets.transaction(() => {
          for (const item of body.create ?? []) {
            const checked = s.checkCreate(item);
            if (checked.valid) out.created.push(resource(s.insert(checked)));
            else
              out.invalid.push(
                invalidResource(checked.merged, checked.result, {
                  id: null,
                  createdAt: null,
                  updatedAt: null,
                }),
              );
          }
          const rejected: InvalidAsset[] = [];
          const reasons: string[] = [];
          (body.always_create ?? []).forEach((item, i) => {
            const checked = s.checkCreate(item);
            const failing = mandatoryFailures(checked);
            if (failing.length > 0) {
              rejected.push(
                invalidResource(checked.merged, checked.result, {
                  id: null,
                  createdAt: null,
                  updatedAt: null,
                }),
              );
              reasons.push(`always_create[${i}]: ${failing.join(', ')}`);
              return;
            }
            if (rejected.length === 0) out.always_created.push(resource(s.insert(checked)));
          });
          if (rejected.length > 0) {
            throw new BatchRejected(
              rejected,
              `The batch was not processed; mandatory attributes missing or invalid in ${reasons.join('; ')}`,
            );
          }
          const update = (item: AssetInput, always: boolean): void => {
            const id = assetIdOf(item);
            const existing = id === undefined ? undefined : store.assets.get(entityId, id);
            if (!existing) {
              out.not_found.push(item);
              return;
            }
            const checked = s.checkUpdate(existing, item);
            if (checked.valid || always) {
              (always ? out.always_updated : out.updated).push(resource(s.update(existing, checked)));
            } else {
              out.invalid.push(
                invalidResource(checked.merged, checked.result, {
                  id: existing.id,
                  createdAt: existing.createdAt,
                  updatedAt: existing.updatedAt,
                  outliers: existing.outliers,
                }),
              );
            }
          };
          for (const item of body.update ?? []) update(item, false);
          for (const item of body.always_update ?? []) update(item, true);
          for (const item of body.delete ?? []) {
            const id = assetIdOf(item);
            const existing = id === undefined ? undefined : store.assets.get(entityId, id);
            if (!existing) {
              out.not_found.push(item);
              continue;
            }
            s.remove(existing);
            out.deleted.push(deletedResource(existing, { validations: true }));
          }
        });
      } catch (err) {
        if (!(err instanceof BatchRejected)) throw err;
        // The whole batch rolled back: every list is empty but the offending items.
        const failed = { ...emptyLists(), invalid: err.items };
        return reply
          .code(422)
          .send({ error: 'unprocessable_entity', message: err.message, ...failed, counts: counts(failed) });
      }
      return { ...out, counts: counts(out) } satisfies BatchResponse;
    },
  );
}

function emptyLists(): Omit<BatchResponse, 'counts'> {
  return {
    created: [],
    always_created: [],
    updated: [],
    always_updated: [],
    deleted: [],
    invalid: [],
    not_found: [],
  };
}
