/** The shared rules' context for a workspace: the entity's area unit, the assessment year, cached lists. */
import { areaUnitFromName, type ValidationContext } from '../../../shared/domain';
import type { WorkspaceMeta } from '../store/workspace';

export function validationContexts(
  meta: WorkspaceMeta,
  isNameTaken: (name: string) => boolean,
): { create: ValidationContext; update: ValidationContext } {
  const base = {
    assessmentYear: meta.assessmentYear,
    areaUnit: areaUnitFromName(meta.entity.reporting_preferences.area_units_name),
    certifications: meta.reference.certifications,
    energyRatings: meta.reference.energyRatings,
    propertyTypes: meta.reference.propertyTypes.map((item) => item.code),
    isNameTaken,
  };
  return { create: { ...base, mode: 'create' }, update: { ...base, mode: 'update' } };
}
