/**
 * Units of meter readings and their conversion into the service's units: energy in kWh, water in
 * m³, waste in metric tonnes. Every factor is an exact definition (or the exact ratio of two):
 * 1 kWh = 3.6 MJ, 1 Btu (IT) = 0.29307107 Wh as the issue and GRESB's converter state it,
 * 1 US gallon = 231 in³ = 0.003785411784 m³, 1 ft = 0.3048 m, 1 lb = 0.45359237 kg,
 * 1 short ton = 2000 lb, 1 imperial gallon = 0.00454609 m³.
 */
import type { EnergyContent, MeterUtility } from './types';
import { topicOf } from './types';

export type Dimension = 'energy' | 'volume' | 'mass';

export interface UnitDef {
  /** The canonical name shown back to the analyst. */
  name: string;
  dimension: Dimension;
  /** Multiply by this to get kWh (energy), m³ (volume) or t (mass). */
  factor: number;
}

const BTU_KWH = 0.00029307107;
const US_GAL_M3 = 0.003785411784;
const FT3_M3 = 0.028316846592;

const defs: [UnitDef, string[]][] = [
  [
    { name: 'kWh', dimension: 'energy', factor: 1 },
    [
      'kwh',
      'kilowatt hour',
      'kilowatt hours',
      'kilowatt-hour',
      'kilowatt-hours',
      'kwh (thousand watt-hours)',
    ],
  ],
  [{ name: 'Wh', dimension: 'energy', factor: 0.001 }, ['wh', 'watt hour', 'watt hours', 'watt-hours']],
  [
    { name: 'MWh', dimension: 'energy', factor: 1000 },
    ['mwh', 'megawatt hour', 'megawatt hours', 'megawatt-hours', 'mwh (million watt-hours)'],
  ],
  [{ name: 'GWh', dimension: 'energy', factor: 1_000_000 }, ['gwh', 'gigawatt hours']],
  [{ name: 'MJ', dimension: 'energy', factor: 1 / 3.6 }, ['mj', 'megajoule', 'megajoules']],
  [{ name: 'GJ', dimension: 'energy', factor: 1_000_000 / 3600 }, ['gj', 'gigajoule', 'gigajoules']],
  [{ name: 'TJ', dimension: 'energy', factor: 1_000_000_000 / 3600 }, ['tj', 'terajoule', 'terajoules']],
  [
    { name: 'kBtu', dimension: 'energy', factor: BTU_KWH * 1000 },
    ['kbtu', 'kbtu (thousand btu)', 'thousand btu'],
  ],
  [
    { name: 'MMBtu', dimension: 'energy', factor: BTU_KWH * 1_000_000 },
    ['mmbtu', 'mbtu (million btu)', 'million btu', 'mmbtus'],
  ],
  [{ name: 'therm', dimension: 'energy', factor: BTU_KWH * 100_000 }, ['therm', 'therms', 'thm']],
  [
    { name: 'dekatherm', dimension: 'energy', factor: BTU_KWH * 1_000_000 },
    ['dekatherm', 'dekatherms', 'dth'],
  ],
  [
    { name: 'm³', dimension: 'volume', factor: 1 },
    [
      'm3',
      'm³',
      'm^3',
      'cubic meter',
      'cubic meters',
      'cubic metre',
      'cubic metres',
      'cm (cubic meters)',
      'cbm',
    ],
  ],
  [{ name: 'L', dimension: 'volume', factor: 0.001 }, ['l', 'litre', 'litres', 'liter', 'liters', 'ltr']],
  [
    { name: 'US gal', dimension: 'volume', factor: US_GAL_M3 },
    ['gal', 'gallon', 'gallons', 'us gal', 'us gallon', 'us gallons', 'gallons (us)', 'usg'],
  ],
  [
    { name: 'kgal', dimension: 'volume', factor: US_GAL_M3 * 1000 },
    ['kgal', 'thousand gallons', 'kgal (thousand gallons) (us)', 'k gal'],
  ],
  [
    { name: 'Mgal', dimension: 'volume', factor: US_GAL_M3 * 1_000_000 },
    ['mgal', 'million gallons', 'mgal (million gallons) (us)'],
  ],
  [
    { name: 'imperial gal', dimension: 'volume', factor: 0.00454609 },
    ['imperial gallon', 'imperial gallons', 'uk gallons', 'gallons (uk)', 'imp gal'],
  ],
  [
    { name: 'ft³', dimension: 'volume', factor: FT3_M3 },
    ['ft3', 'ft³', 'ft^3', 'cf', 'cubic foot', 'cubic feet', 'cf (cubic feet)'],
  ],
  [
    { name: 'ccf', dimension: 'volume', factor: FT3_M3 * 100 },
    ['ccf', 'hundred cubic feet', 'ccf (hundred cubic feet)'],
  ],
  [
    { name: 'kcf', dimension: 'volume', factor: FT3_M3 * 1000 },
    ['kcf', 'thousand cubic feet', 'kcf (thousand cubic feet)'],
  ],
  [
    { name: 't', dimension: 'mass', factor: 1 },
    [
      't',
      'tonne',
      'tonnes',
      'metric ton',
      'metric tons',
      'metric tonne',
      'metric tonnes',
      'tonnes (metric)',
      'mt',
    ],
  ],
  [{ name: 'kg', dimension: 'mass', factor: 0.001 }, ['kg', 'kgs', 'kilogram', 'kilograms']],
  [{ name: 'lb', dimension: 'mass', factor: 0.00045359237 }, ['lb', 'lbs', 'pound', 'pounds']],
  [
    { name: 'short ton', dimension: 'mass', factor: 0.90718474 },
    ['short ton', 'short tons', 'us ton', 'us tons', 'ton (us)', 'tons (us)'],
  ],
];

const byAlias = new Map<string, UnitDef>();
for (const [def, aliases] of defs) {
  for (const alias of [def.name.toLowerCase(), ...aliases]) byAlias.set(alias, def);
}

/** Every unit with its factor, for the README's table and the unit pickers. */
export const unitTable: readonly UnitDef[] = defs.map(([def]) => def);

function normalise(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The unit a text names, in its usual spellings, case-insensitive; null when unknown. "tons" alone is
 * not taken (short or metric?), nor is "MCF" (thousand or million cubic feet?).
 */
export function parseUnit(text: string): UnitDef | null {
  // A file of a million readings spells its units a handful of ways: each is normalised once.
  const hit = parsedUnits.get(text);
  if (hit !== undefined) return hit;
  const key = normalise(text);
  const unit = byAlias.get(key) ?? byAlias.get(key.replace(/\.$/, '')) ?? null;
  if (parsedUnits.size > 10_000) parsedUnits.clear();
  parsedUnits.set(text, unit);
  return unit;
}
const parsedUnits = new Map<string, UnitDef | null>();

/** What a utility's readings may be measured in. */
export function dimensionsFor(utility: MeterUtility): readonly Dimension[] {
  switch (topicOf(utility)) {
    case 'energy':
      // Fuels bought by volume or mass, given the meter's energy content; district and
      // electricity only as energy.
      return utility === 'fuel' ? ['energy', 'volume', 'mass'] : ['energy'];
    case 'water':
      return ['volume'];
    case 'waste':
      return ['mass'];
  }
}

/** The service's unit for a utility's figures. */
export function baseUnitFor(utility: MeterUtility): 'kWh' | 'm³' | 't' {
  const topic = topicOf(utility);
  return topic === 'energy' ? 'kWh' : topic === 'water' ? 'm³' : 't';
}

export type Conversion = { ok: true; factor: number } | { ok: false; message: string };

/**
 * The factor turning a quantity in `unitText` into the service's unit for `utility`, or why not:
 * an unknown unit, a unit that doesn't fit the utility, a fuel by volume or mass without the
 * meter's stated energy content (or with one per a unit of another kind).
 */
export function conversionFactor(
  unitText: string,
  utility: MeterUtility,
  energyContent: EnergyContent | null,
): Conversion {
  const unit = parseUnit(unitText);
  if (!unit) return { ok: false, message: `Unknown unit "${unitText}".` };
  if (!dimensionsFor(utility).includes(unit.dimension)) {
    return {
      ok: false,
      message: `The unit "${unitText}" (${unit.dimension}) doesn't fit a ${utility.replace(/_/g, ' ')} meter, measured in ${baseUnitFor(utility)}.`,
    };
  }
  if (topicOf(utility) !== 'energy' || unit.dimension === 'energy') return { ok: true, factor: unit.factor };
  if (!energyContent) {
    return {
      ok: false,
      message: `A fuel in "${unitText}" needs the meter's energy content (kWh per ${unit.name}); it is never guessed.`,
    };
  }
  const per = parseUnit(energyContent.per);
  if (!per || per.dimension !== unit.dimension) {
    return {
      ok: false,
      message: `The meter's energy content is per "${energyContent.per}", which is not a ${unit.dimension} like "${unitText}".`,
    };
  }
  // quantity [unit] -> base volume/mass -> number of `per` units -> kWh.
  return { ok: true, factor: (unit.factor / per.factor) * energyContent.kwh };
}
