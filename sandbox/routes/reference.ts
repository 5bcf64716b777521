import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  defaultCertificationSchemes,
  defaultCodeLists,
  defaultEnergyRatingSchemes,
} from '../../shared/domain';
import type { CodeListSummary } from '../../shared/domain';
import { accessRules } from '../../shared/auth/scopes';
import { routeAccess } from '../auth/guard';
import { notFound } from '../http/errors';
import type { SandboxContext } from '../context';

const slugParams = z.object({ slug: z.string() });
/** When the shipped lists last changed: what the service's `updated_at` reports. */
const listsUpdatedAt = '2026-11-23T00:00:00.000Z';

/**
 * Reference data any valid token may read, in the docs' shapes: certification schemes (`id, name,
 * levels?, country?, status`), energy ratings (`id, name`), lists (`slug, name, updated_at`, and
 * `items: [{label, value}]` for one list).
 */
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
    defaultCodeLists.map((l): CodeListSummary => ({
      slug: l.slug,
      name: l.name,
      updated_at: listsUpdatedAt,
    })),
  );
  app.get('/api/v0/lists/:slug', routeAccess(admin, accessRules.lists), async (request) => {
    const { slug } = slugParams.parse(request.params);
    const list = defaultCodeLists.find((l) => l.slug === slug);
    if (!list) throw notFound(`No list named ${slug}`);
    return { slug: list.slug, name: list.name, updated_at: listsUpdatedAt, items: list.items };
  });
}
