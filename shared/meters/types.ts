/**
 * Meters and their readings (issue 32): local to Asset Desk — the service has no meters, only the
 * annual figures the roll-up (`rollup.ts`) derives from them. Dates are ISO `YYYY-MM-DD`, end
 * inclusive. What comes from outside (workspace file, workbook, import) is parsed with the schemas
 * here.
 */
import { z } from 'zod';

export const meterUtilities = [
  'fuel',
  'district',
  'electricity',
  'water',
  'waste_hazardous',
  'waste_non_hazardous',
] as const;
export type MeterUtility = (typeof meterUtilities)[number];

export const meterSpaces = [
  'whole_building',
  'shared_services',
  'common_areas',
  'tenant_landlord',
  'tenant_tenant',
  'outdoor_landlord',
  'outdoor_tenant',
] as const;
export type MeterSpace = (typeof meterSpaces)[number];

export const utilityLabels: Record<MeterUtility, string> = {
  fuel: 'Fuel',
  district: 'District heating and cooling',
  electricity: 'Electricity',
  water: 'Water',
  waste_hazardous: 'Hazardous waste',
  waste_non_hazardous: 'Non-hazardous waste',
};

export const spaceLabels: Record<MeterSpace, string> = {
  whole_building: 'Whole building',
  shared_services: 'Shared services',
  common_areas: 'Common areas',
  tenant_landlord: 'Tenant space, landlord controlled',
  tenant_tenant: 'Tenant space, tenant controlled',
  outdoor_landlord: 'Outdoor, landlord controlled',
  outdoor_tenant: 'Outdoor, tenant controlled',
};

/** The service's topic a utility reports into. */
export type MeterTopic = 'energy' | 'water' | 'waste';
export function topicOf(utility: MeterUtility): MeterTopic {
  if (utility === 'water') return 'water';
  if (utility === 'waste_hazardous' || utility === 'waste_non_hazardous') return 'waste';
  return 'energy';
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a calendar date');

/**
 * The analyst's stated energy content of a fuel measured by volume or mass: `kwh` per one `per`
 * (a volume or mass unit, e.g. 10.55 kWh per m³ of natural gas). Never guessed.
 */
export const energyContentSchema = z.object({
  kwh: z.number().positive().finite(),
  per: z.string().min(1),
});
export type EnergyContent = z.infer<typeof energyContentSchema>;

export const meterSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  /** The asset's local id in the workspace. */
  assetId: z.string().min(1),
  utility: z.enum(meterUtilities),
  /** Waste meters are whole-asset: their space is `whole_building`. */
  space: z.enum(meterSpaces),
  /** Floor area the meter serves, in the entity's area unit; null when not stated. */
  areaServed: z.number().nonnegative().finite().nullable(),
  /** The unit its readings are usually in (a reading may state another that fits). */
  unit: z.string().min(1),
  energyContent: energyContentSchema.nullable(),
});
export type Meter = z.infer<typeof meterSchema>;

export const readingSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('typed') }),
  z.object({ kind: z.literal('file'), file: z.string(), row: z.number().int().positive() }),
  z.object({ kind: z.literal('portfolio_manager'), consumptionId: z.string().nullable() }),
]);
export type ReadingSource = z.infer<typeof readingSourceSchema>;

export const readingSchema = z.object({
  meterId: z.string().min(1),
  start: isoDate,
  /** Inclusive. */
  end: isoDate,
  quantity: z.number().finite(),
  unit: z.string().min(1),
  estimated: z.boolean(),
  source: readingSourceSchema,
});
export type Reading = z.infer<typeof readingSchema>;

/** A reporting period, both ends inclusive. */
export interface Period {
  from: string;
  to: string;
}
