import type { FastifyInstance } from 'fastify';
import type { Asset, AssetInput, InvalidAsset, ValidationResponse } from '../../shared/domain';
import { accessRules } from '../../shared/auth/scopes';
import { routeAccess } from '../auth/guard';
import { batchBodyLimit } from '../http/limits';
import { invalidResource } from '../model/asset-model';
import { openEntitySession } from '../model/asset-service';
import { assetIdOf, parseBatchBody } from './batches';
import type { SandboxContext } from '../context';

/**
 * POST .../assets/validation: the same checks as a batch, nothing saved. Valid records come back
 * as they would be stored; new ones with null `service_asset_id`, `created_at` and `updated_at`.
 */
export function registerValidationRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  app.post(
    '/api/v1/entities/:entity_id/assets/validation',
    { ...routeAccess(store.admin, accessRules.validation), bodyLimit: batchBodyLimit },
    async (request) => {
      const body = parseBatchBody(request.body, ['create', 'update']);
      const entityId = request.entityId ?? -1;
      const s = openEntitySession(store, entityId, {
        now: ctx.now,
        assessmentYear: ctx.settings.assessmentYear(),
      });
      const valid: Asset[] = [];
      const invalid: InvalidAsset[] = [];
      const notFound: AssetInput[] = [];

      for (const item of body.create ?? []) {
        const checked = s.checkCreate(item);
        const meta = { id: null, createdAt: null, updatedAt: null, outliers: s.previewOutliers(checked) };
        const shaped = invalidResource(checked.merged, checked.result, meta);
        if (checked.valid) valid.push(shaped as Asset);
        else invalid.push(shaped);
      }
      for (const item of body.update ?? []) {
        const id = assetIdOf(item);
        const existing = id === undefined ? undefined : store.assets.get(entityId, id);
        if (!existing) {
          notFound.push(item);
          continue;
        }
        const checked = s.checkUpdate(existing, item);
        const shaped = invalidResource(checked.merged, checked.result, {
          id: existing.id,
          createdAt: existing.createdAt,
          updatedAt: existing.updatedAt,
          outliers: s.previewOutliers(checked, existing),
        });
        if (checked.valid) valid.push(shaped as Asset);
        else invalid.push(shaped);
      }
      const response: ValidationResponse = {
        valid,
        invalid,
        not_found: notFound,
        counts: { valid: valid.length, invalid: invalid.length, not_found: notFound.length },
      };
      return response;
    },
  );
}
