import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { assetInputSchema } from '../../shared/domain';
import type { AssetInput } from '../../shared/domain';
import { accessRules } from '../../shared/auth/scopes';
import { parseIdParam, routeAccess } from '../auth/guard';
import { singleResourceBodyLimit } from '../http/limits';
import { badRequest, notFound } from '../http/errors';
import { pageLinks, parsePageQuery } from '../http/pagination';
import { assetResource, deletedResource, invalidResource } from '../model/asset-model';
import { openEntitySession } from '../model/asset-service';
import { toNumber } from '../model/values';
import type { SandboxContext } from '../context';

/** A body must be a JSON object; its field values are the rules' business, not the parser's. */
export function parseAssetBody(body: unknown, what = 'The body'): AssetInput {
  const parsed = assetInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    throw badRequest(`${what} must be a JSON object with array fields as arrays of objects${where}`);
  }
  return parsed.data;
}

const listQuery = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** The absolute URL of this request's path, for `link` headers a client can follow as given. */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url.split('?')[0] ?? ''}`;
}

export function registerAssetRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const read = routeAccess(store.admin, accessRules.readAssets);
  const write = { ...routeAccess(store.admin, accessRules.writeAssets), bodyLimit: singleResourceBodyLimit };
  const session = (entityId: number | undefined) =>
    openEntitySession(store, entityId ?? -1, { now: ctx.now, assessmentYear: ctx.settings.assessmentYear() });
  const findAsset = (request: FastifyRequest) => {
    const entityId = request.entityId ?? -1;
    const id = parseIdParam((request.params as Record<string, unknown>)['service_asset_id'], 'Asset');
    const asset = store.assets.get(entityId, id);
    // Another entity's asset is simply not in this pool.
    if (!asset) throw notFound(`Asset ${id} not found in entity ${entityId}`);
    return asset;
  };

  app.get('/api/v1/entities/:entity_id/assets', read, async (request, reply) => {
    const entityId = request.entityId ?? -1;
    const page = parsePageQuery(request.query);
    const total = store.assets.count(entityId);
    const items = store.assets.page(entityId, page.perPage, page.offset);
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(listQuery.parse(request.query ?? {}))) {
      if (k !== 'page' && k !== 'per_page') query[k] = Array.isArray(v) ? (v[0] ?? '') : v;
    }
    const link = pageLinks(requestBaseUrl(request), query, page, total);
    reply.header('per-page', String(page.perPage)).header('total', String(total));
    if (link) reply.header('link', link);
    return items.map((s) => assetResource(s, { validations: true, nestedValidations: true }));
  });

  app.post('/api/v1/entities/:entity_id/assets', write, async (request, reply) => {
    const input = parseAssetBody(request.body);
    const s = session(request.entityId);
    const checked = s.checkCreate(input);
    if (!checked.valid) {
      // Nothing saved: the caller sees a null service_asset_id beside the errors.
      return reply
        .code(422)
        .send(
          invalidResource(checked.merged, checked.result, { id: null, createdAt: null, updatedAt: null }),
        );
    }
    const stored = store.assets.transaction(() => s.insert(checked));
    return reply.code(201).send(assetResource(stored, { validations: true, nestedValidations: true }));
  });

  app.get('/api/v1/entities/:entity_id/assets/:service_asset_id', read, async (request) =>
    assetResource(findAsset(request), { validations: true, nestedValidations: false }),
  );

  app.patch('/api/v1/entities/:entity_id/assets/:service_asset_id', write, async (request, reply) => {
    const existing = findAsset(request);
    const patch = parseAssetBody(request.body);
    if (
      patch.service_asset_id !== undefined &&
      patch.service_asset_id !== null &&
      toNumber(patch.service_asset_id) !== existing.id
    ) {
      throw badRequest('service_asset_id in the body does not match the asset in the path');
    }
    const s = session(request.entityId);
    const checked = s.checkUpdate(existing, patch);
    if (!checked.valid) {
      return reply.code(422).send(
        invalidResource(checked.merged, checked.result, {
          id: existing.id,
          createdAt: existing.createdAt,
          updatedAt: existing.updatedAt,
          outliers: existing.outliers,
        }),
      );
    }
    const stored = store.assets.transaction(() => s.update(existing, checked));
    return assetResource(stored, { validations: true, nestedValidations: true });
  });

  app.delete('/api/v1/entities/:entity_id/assets/:service_asset_id', write, async (request) => {
    const existing = findAsset(request);
    session(request.entityId).remove(existing);
    return deletedResource(existing);
  });
}
