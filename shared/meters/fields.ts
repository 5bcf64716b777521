/**
 * Which field of the service's data dictionary a meter's utility and space report into
 * (shared/domain/catalog.ts): energy `en_abs_` + space + utility, water `wat_abs_` + space, waste
 * `was_abs_haz`/`was_abs_nhaz`; coverage `*_cov_*` only where the dictionary has one (outdoor and
 * waste have none).
 */
import type { MeterSpace, MeterTopic, MeterUtility } from './types';

export const spaceCodes: Record<MeterSpace, string> = {
  whole_building: 'w',
  shared_services: 'lc_bs',
  common_areas: 'lc_bc',
  tenant_landlord: 'lc_t',
  tenant_tenant: 'tc_t',
  outdoor_landlord: 'lc_o',
  outdoor_tenant: 'tc_o',
};

const energyUtilityCodes: Partial<Record<MeterUtility, string>> = {
  fuel: 'f',
  district: 'd',
  electricity: 'e',
};

export interface TargetFields {
  abs: string;
  /** null where the dictionary has no coverage field. */
  cov: string | null;
}

/** The fields a meter feeds, or null when the dictionary has none (outdoor district heating). */
export function targetFields(utility: MeterUtility, space: MeterSpace): TargetFields | null {
  const outdoor = space === 'outdoor_landlord' || space === 'outdoor_tenant';
  const part = spaceCodes[space];
  if (utility === 'waste_hazardous') return { abs: 'was_abs_haz', cov: null };
  if (utility === 'waste_non_hazardous') return { abs: 'was_abs_nhaz', cov: null };
  if (utility === 'water') return { abs: `wat_abs_${part}`, cov: outdoor ? null : `wat_cov_${part}` };
  const u = energyUtilityCodes[utility] as string;
  if (outdoor && utility === 'district') return null;
  return { abs: `en_abs_${part}${u}`, cov: outdoor ? null : `en_cov_${part}${u}` };
}

export const dataPeriodFields: Record<MeterTopic, { from: string; to: string }> = {
  energy: { from: 'en_data_from', to: 'en_data_to' },
  water: { from: 'wat_data_from', to: 'wat_data_to' },
  waste: { from: 'was_data_from', to: 'was_data_to' },
};
