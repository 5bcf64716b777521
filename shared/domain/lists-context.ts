import type { ValidationContext } from './context';
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
