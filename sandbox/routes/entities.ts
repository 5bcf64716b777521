import type { FastifyInstance } from 'fastify';
import { accessRules } from '../../shared/auth/scopes';
import { routeAccess } from '../auth/guard';
import { notFound } from '../http/errors';
import type { SandboxContext } from '../context';

export function registerEntityRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin } = ctx.store;
  // Only the entities granted to the token's data partner (and, for OAuth, the user's own).
  app.get('/api/v1/entities', routeAccess(admin, accessRules.listEntities), async (request) =>
    request.principal ? admin.listReachableEntities(request.principal) : [],
  );
  app.get('/api/v1/entities/:entity_id', routeAccess(admin, accessRules.getEntity), async (request) => {
    const entity = admin.getEntity(request.entityId ?? -1);
    if (!entity) throw notFound('Entity not found');
    return entity;
  });
}
