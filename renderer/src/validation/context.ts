/** The shared rules' context for a workspace: the entity's area unit, the assessment year, cached lists. */
import { areaUnitFromName, listsContext, type ValidationContext } from '../../../shared/domain';
import type { WorkspaceMeta } from '../store/workspace';

export function validationContexts(
  meta: WorkspaceMeta,
  isNameTaken: (name: string) => boolean,
): { create: ValidationContext; update: ValidationContext } {
  const base = {
    assessmentYear: meta.assessmentYear,
    areaUnit: areaUnitFromName(meta.entity.reporting_preferences.area_units_name),
    ...listsContext(meta.reference),
    isNameTaken,
  };
  return { create: { ...base, mode: 'create' }, update: { ...base, mode: 'update' } };
}
