import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { meterFields, meterInput, readingFields, readingInput } from '../../shared/meters/bridge-args';
import { parseQuantity } from '../../shared/meters/import-rows';
import {
  meterSchema,
  meterSpaces,
  meterUtilities,
  readingSchema,
  spaceLabels,
  utilityLabels,
  type Meter,
  type MeterSpace,
  type MeterUtility,
} from '../../shared/meters/types';
import { badRequest } from '../../shared/errors';
import type { StoredReading } from '../workspace/meter-store';

/**
 * A cell of the Meters or Readings grid applied to its document: the value the grid sent (text as
 * typed or pasted, a number, a boolean), read the way the import reads it (codes or labels, numbers
 * as spreadsheets write them), then the whole document checked by its schema. A refusal names the
 * field and says what it takes; nothing is written.
 */

type Value = string | number | boolean | null;

const norm = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

function pick<T extends string>(
  value: Value,
  codes: readonly T[],
  labels: Record<T, string>,
  what: string,
): T {
  const text = typeof value === 'string' ? norm(value) : '';
  const found = codes.find((code) => code === text || norm(labels[code]) === text);
  if (!found) throw badRequest(`"${String(value)}" is not a ${what} (${codes.join(', ')}).`);
  return found;
}

function numberOf(value: Value, what: string, nullable: boolean): number | null {
  if (value === null || value === '') {
    if (nullable) return null;
    throw badRequest(`${what} needs a number.`);
  }
  const n = typeof value === 'number' ? value : typeof value === 'string' ? parseQuantity(value) : null;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw badRequest(`"${String(value)}" is not a number (${what}).`);
  return n;
}

function boolOf(value: Value): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value ?? '')
    .trim()
    .toLowerCase();
  if (['yes', 'y', 'true', '1', 'e', 'estimated'].includes(text)) return true;
  if (['no', 'n', 'false', '0', '', 'a', 'actual'].includes(text)) return false;
  throw badRequest(`"${String(value)}" is not yes or no (estimated).`);
}

function checked<T>(schema: z.ZodType<T>, doc: unknown, what: string): T {
  const result = schema.safeParse(doc);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(`The ${what}'s ${issue?.path.join('.') || 'value'}: ${issue?.message ?? 'not valid'}.`);
  }
  return result.data;
}

export function newMeter(input: z.output<typeof meterInput>): Meter {
  const waste = input.utility === 'waste_hazardous' || input.utility === 'waste_non_hazardous';
  if (waste && input.space !== 'whole_building')
    throw badRequest('Waste meters are whole-asset (space: whole_building).');
  return checked(meterSchema, { ...input, id: input.id ?? `m-${randomUUID()}` }, 'meter');
}

export function newReading(input: z.output<typeof readingInput>): StoredReading {
  const reading = checked(readingSchema, { ...input, source: { kind: 'typed' } }, 'reading');
  return { ...reading, id: `r-${randomUUID()}` };
}

export function applyMeterEdit(meter: Meter, field: (typeof meterFields)[number], value: Value): Meter {
  const next: Meter = { ...meter };
  switch (field) {
    case 'name':
      next.name = String(value ?? '').trim();
      break;
    case 'utility':
      next.utility = pick<MeterUtility>(value, meterUtilities, utilityLabels, 'utility');
      if (next.utility.startsWith('waste')) next.space = 'whole_building';
      break;
    case 'space':
      next.space = pick<MeterSpace>(value, meterSpaces, spaceLabels, 'space');
      if (next.utility.startsWith('waste') && next.space !== 'whole_building')
        throw badRequest('Waste meters are whole-asset (space: whole_building).');
      break;
    case 'areaServed': {
      const area = numberOf(value, 'floor area served', true);
      if (area !== null && area < 0) throw badRequest('A floor area is not negative.');
      next.areaServed = area;
      break;
    }
    case 'unit':
      next.unit = String(value ?? '').trim();
      break;
    case 'energyContentKwh': {
      const kwh = numberOf(value, 'energy content in kWh', true);
      next.energyContent = kwh === null ? null : { kwh, per: next.energyContent?.per ?? next.unit };
      break;
    }
    case 'energyContentPer':
      if (!next.energyContent) throw badRequest('State the energy content in kWh first.');
      next.energyContent = { ...next.energyContent, per: String(value ?? '').trim() };
      break;
  }
  return checked(meterSchema, next, 'meter');
}

export function applyReadingEdit(
  reading: StoredReading,
  field: (typeof readingFields)[number],
  value: Value,
): StoredReading {
  // The source stays where the reading came from; the edit itself is in the history as typed.
  const next: StoredReading = { ...reading };
  switch (field) {
    case 'meterId':
    case 'start':
    case 'end':
    case 'unit':
      next[field] = String(value ?? '').trim();
      break;
    case 'quantity':
      next.quantity = numberOf(value, 'quantity', false) as number;
      break;
    case 'estimated':
      next.estimated = boolOf(value);
      break;
  }
  return { ...checked(readingSchema, next, 'reading'), id: reading.id };
}
