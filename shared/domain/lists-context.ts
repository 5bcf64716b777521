import { areaUnitFromName, type ValidationContext } from './context';
import type { CertificationScheme, EnergyRatingScheme, ListItem } from './types';

/** The lists a workspace holds (see `ReferenceData` in the bridge types), as the rules need them. */
export interface ReferenceLists {
  certifications: readonly CertificationScheme[];
  energyRatings: readonly EnergyRatingScheme[];
  propertyTypes: readonly ListItem[];
  countries: readonly ListItem[];
  sources: Readonly<
    Record<'certifications' | 'energyRatings' | 'propertyTypes' | 'countries', 'service' | 'shipped'>
  >;
}

/**
 * The lists part of the rules' context, built the same way for the grid (renderer) and for push
 * (main), so both check the same. A list still shipped (the service's never loaded) makes
 * list checks warnings; the energy-rating list is not a reason, since the rules do not need it.
 */
export function listsContext(
  lists: ReferenceLists,
): Pick<
  ValidationContext,
  'certifications' | 'energyRatings' | 'propertyTypes' | 'countries' | 'listSource'
> {
  const { sources } = lists;
  const shipped =
    sources.certifications === 'shipped' ||
    sources.propertyTypes === 'shipped' ||
    sources.countries === 'shipped';
  return {
    certifications: lists.certifications,
    energyRatings: lists.energyRatings,
    propertyTypes: lists.propertyTypes.map((item) => item.value),
    countries: lists.countries.map((item) => item.value),
    listSource: shipped ? 'shipped' : 'service',
  };
}

/**
 * The rules' contexts for a workspace, built the same way by the grid and by push: the entity's
 * area unit, the assessment year, the lists, and the names the workspace already uses (the service
 * refuses a second asset of the same name).
 */
export function workspaceContexts(opts: {
  assessmentYear: number;
  areaUnitsName: string | null | undefined;
  /** The month the entity's reporting year ends in (its reporting preferences). */
  reportingPeriodMonth?: number | undefined;
  lists: ReferenceLists;
  /** True when more than one asset of the workspace carries the name. */
  isNameTaken: (name: string) => boolean;
}): { create: ValidationContext; update: ValidationContext } {
  const base = {
    assessmentYear: opts.assessmentYear,
    areaUnit: areaUnitFromName(opts.areaUnitsName),
    ...listsContext(opts.lists),
    isNameTaken: opts.isNameTaken,
    appChecks: true,
    ...(opts.reportingPeriodMonth === undefined ? {} : { reportingPeriodMonth: opts.reportingPeriodMonth }),
  };
  return { create: { ...base, mode: 'create' }, update: { ...base, mode: 'update' } };
}

/** Counts the (trimmed) names of assets, for `isNameTaken`. */
export function countNames(names: Iterable<unknown>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) {
    if (typeof name !== 'string' || name.trim() === '') continue;
    const key = name.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
