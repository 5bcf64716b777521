import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  defaultCertificationSchemes,
  defaultCodeLists,
  defaultEnergyRatingSchemes,
} from '../../../shared/domain';
import type { CodeListSummary } from '../../../shared/domain';
import { accessRules } from '../auth/scopes';
import { routeAccess } from '../auth/guard';
import { notFound } from '../http/errors';
import type { SandboxContext } from '../context';

const slugParams = z.object({ slug: z.string() });

/** Reference data any valid token may read: certification and rating schemes, code lists. */
export function registerReferenceRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { admin } = ctx.store;
  app.get(
    '/api/v1/certifications',
    routeAccess(admin, accessRules.certifications),
    async () => defaultCertificationSchemes,
  );
  app.get(
    '/api/v1/energy_ratings',
    routeAccess(admin, accessRules.energyRatings),
    async () => defaultEnergyRatingSchemes,
  );
  app.get('/api/v0/lists', routeAccess(admin, accessRules.lists), async () =>
    defaultCodeLists.map((l): CodeListSummary => ({ slug: l.slug, name: l.name })),
  );
  app.get('/api/v0/lists/:slug', routeAccess(admin, accessRules.lists), async (request) => {
    const { slug } = slugParams.parse(request.params);
    const list = defaultCodeLists.find((l) => l.slug === slug);
    if (!list) throw notFound(`No list named ${slug}`);
    return list;
  });
}
