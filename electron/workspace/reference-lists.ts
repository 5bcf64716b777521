/**
 * The service's reference lists (certification and energy-rating schemes, property types,
 * countries) as a workspace keeps them: refreshed when a workspace opens, cached for offline work,
 * and replaced by the app's shipped snapshot only while the service's own were never loaded.
 *
 * A failed refresh never blocks opening a workspace nor turns list-bound values into errors: each
 * list that could not be fetched keeps its cached or shipped copy, and `problem` says so.
 */
import { z } from 'zod';
import {
  certificationSchemeSchema,
  defaultCertificationSchemes,
  defaultCountries,
  defaultEnergyRatingSchemes,
  defaultPropertyTypes,
  energyRatingSchemeSchema,
  listSlugs,
  type ListItem,
} from '../../shared/domain';
import type { ReferenceData, ReferenceListName } from '../../shared/bridge/types';
import type { SubmissionApiClient } from '../service-client/service-client';

export const referenceKey = 'reference';

const listNames: readonly ReferenceListName[] = [
  'certifications',
  'energyRatings',
  'propertyTypes',
  'countries',
];
const listLabels: Record<ReferenceListName, string> = {
  certifications: 'certifications',
  energyRatings: 'energy ratings',
  propertyTypes: 'property types',
  countries: 'countries',
};

export function shippedReference(): ReferenceData {
  return {
    certifications: [...defaultCertificationSchemes],
    energyRatings: [...defaultEnergyRatingSchemes],
    propertyTypes: [...defaultPropertyTypes],
    countries: [...defaultCountries],
    sources: {
      certifications: 'shipped',
      energyRatings: 'shipped',
      propertyTypes: 'shipped',
      countries: 'shipped',
    },
    fetchedAt: null,
  };
}

const itemSchema = z.object({ value: z.string(), label: z.string() });
const source = z.enum(['service', 'shipped']);
/** The cache as this version writes it. */
const cachedSchema = z.object({
  certifications: z.array(certificationSchemeSchema),
  energyRatings: z.array(energyRatingSchemeSchema),
  propertyTypes: z.array(itemSchema),
  countries: z.array(itemSchema),
  sources: z.object({
    certifications: source,
    energyRatings: source,
    propertyTypes: source,
    countries: source,
  }),
  fetchedAt: z.string().nullable(),
  problem: z.string().optional(),
});
/**
 * Caches written before the app followed the service's lists: the schemes were the service's, the
 * property types our own invented `{code, label}` list (dropped: the shipped snapshot stands in until
 * the next refresh), and no countries.
 */
const legacySchema = z.object({
  certifications: z.array(certificationSchemeSchema),
  energyRatings: z.array(energyRatingSchemeSchema),
});

/** The workspace's lists: its cache (any version) or the shipped snapshot. Never throws. */
export function readReference(cached: unknown): ReferenceData {
  const current = cachedSchema.safeParse(cached);
  if (current.success) return current.data;
  const shipped = shippedReference();
  const legacy = legacySchema.safeParse(cached);
  if (!legacy.success) return shipped;
  return {
    ...shipped,
    certifications: legacy.data.certifications,
    energyRatings: legacy.data.energyRatings,
    sources: { ...shipped.sources, certifications: 'service', energyRatings: 'service' },
  };
}

/**
 * Fetches every list at once; each one that arrives replaces its copy, each one that fails keeps
 * what the workspace had. Never throws: the failures are in `problem`.
 */
export async function refreshReference(
  client: SubmissionApiClient,
  previous: ReferenceData,
  now: () => Date = () => new Date(),
): Promise<ReferenceData> {
  const results = await Promise.allSettled([
    client.certifications(),
    client.energyRatings(),
    client.list(listSlugs.propertyTypes).then((list) => list.items),
    client.list(listSlugs.countries).then((list) => list.items),
  ]);
  const next: ReferenceData = { ...previous, sources: { ...previous.sources } };
  const failures: string[] = [];
  let fetched = false;
  results.forEach((result, i) => {
    const name = listNames[i] as ReferenceListName;
    if (result.status === 'rejected') {
      const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
      failures.push(`${listLabels[name]} (${reason})`);
      return;
    }
    fetched = true;
    next.sources[name] = 'service';
    if (name === 'certifications') next.certifications = result.value as ReferenceData['certifications'];
    else if (name === 'energyRatings') next.energyRatings = result.value as ReferenceData['energyRatings'];
    else if (name === 'propertyTypes') next.propertyTypes = result.value as ListItem[];
    else next.countries = result.value as ListItem[];
  });
  if (fetched) next.fetchedAt = now().toISOString();
  next.problem = failures.length === 0 ? undefined : describeFailures(failures, next);
  return next;
}

function describeFailures(failures: string[], reference: ReferenceData): string {
  const fallback = listNames.some((name) => reference.sources[name] === 'shipped')
    ? "the app's built-in lists stand in where nothing was cached, and a value outside them is only a warning"
    : 'the lists cached at the last refresh are used';
  return `Could not refresh the service's lists of ${failures.join('; ')}: ${fallback}.`;
}
