import type { CertificationInput, EnergyRatingInput, FieldMessages } from '../types';
import type { CompiledContext } from '../context';
import { MAX_STRING_LENGTH } from '../catalog';
import { msg } from '../messages';
import { addMessage, isBlank, toNumber } from '../values';
import { notInList } from './asset-rules';

export function isDestroyed(rec: CertificationInput | EnergyRatingInput): boolean {
  const d = rec._destroy;
  return d === true || d === '1' || d === 1 || d === 'true';
}

type Scheme = { readonly levels: readonly string[] };

/**
 * Shared by certifications and energy ratings: both carry a scheme id, an optional level that is
 * required when the scheme has levels, and a covered floor area.
 */
function validateSchemeRecord(
  rec: CertificationInput,
  idKey: 'certification_id' | 'energy_rating_id',
  schemes: ReadonlyMap<number, Scheme> | null,
  cc: CompiledContext,
  size: number,
  errors: FieldMessages,
  warnings: FieldMessages,
): number {
  let schemeId = NaN;
  const idValue = rec[idKey];
  let scheme: Scheme | undefined;
  if (isBlank(idValue)) addMessage(errors, idKey, msg.blank);
  else {
    schemeId = toNumber(idValue);
    if (Number.isNaN(schemeId)) addMessage(errors, idKey, msg.notANumber);
    else if (!Number.isInteger(schemeId)) addMessage(errors, idKey, msg.notAnInteger);
    else if (schemes) {
      scheme = schemes.get(schemeId);
      // The service names the record, not the id field: `certification: ["must exist"]`.
      if (!scheme) notInList(cc, errors, warnings, idKey.replace(/_id$/, ''), idKey, msg.mustExist);
    }
  }

  const sz = rec.size;
  if (isBlank(sz)) addMessage(errors, 'size', msg.blank);
  else {
    const n = toNumber(sz);
    if (Number.isNaN(n)) addMessage(errors, 'size', msg.notANumber);
    else if (n < 0) addMessage(errors, 'size', msg.gte(0));
    else if (!Number.isNaN(size) && n > size) addMessage(errors, 'size', msg.lteSize);
  }

  const level = rec.level;
  if (isBlank(level)) {
    if (scheme && scheme.levels.length > 0) addMessage(errors, 'level', msg.blank);
  } else if (typeof level !== 'string') addMessage(errors, 'level', msg.notAString);
  else if (level.length > MAX_STRING_LENGTH) addMessage(errors, 'level', msg.tooLong(MAX_STRING_LENGTH));
  else if (scheme) {
    // The service's energy-rating list publishes no levels, so there a level is never refused.
    if (scheme.levels.length > 0) {
      if (!scheme.levels.includes(level)) addMessage(errors, 'level', msg.notIncluded);
    } else if (idKey === 'certification_id') addMessage(errors, 'level', msg.mustBeBlank);
  }
  return schemeId;
}

/** `seen` holds certification_id|level|year keys already used on this asset. */
export function validateCertification(
  rec: CertificationInput,
  cc: CompiledContext,
  size: number,
  seen: Set<string>,
  errors: FieldMessages,
  warnings: FieldMessages,
): void {
  const schemeId = validateSchemeRecord(
    rec,
    'certification_id',
    cc.certifications,
    cc,
    size,
    errors,
    warnings,
  );
  const year = rec.year;
  let y = NaN;
  // Since v2.04 of the service a building certification needs a year.
  if (isBlank(year)) addMessage(errors, 'year', msg.blank);
  else {
    y = toNumber(year);
    if (Number.isNaN(y)) addMessage(errors, 'year', msg.notANumber);
    else if (!Number.isInteger(y)) addMessage(errors, 'year', msg.notAnInteger);
    else if (y > cc.currentYear) addMessage(errors, 'year', msg.inFuture);
  }
  const er = rec.energy_rating_id;
  if (!isBlank(er) && !Number.isInteger(toNumber(er))) addMessage(errors, 'energy_rating_id', msg.notANumber);

  if (!Number.isNaN(schemeId)) {
    const level = typeof rec.level === 'string' ? rec.level : '';
    const key = `${schemeId}|${level}|${Number.isNaN(y) ? '' : y}`;
    if (seen.has(key)) addMessage(errors, 'certification_id', msg.taken);
    else seen.add(key);
  }
}

export function validateEnergyRating(
  rec: EnergyRatingInput,
  cc: CompiledContext,
  size: number,
  errors: FieldMessages,
  warnings: FieldMessages,
): void {
  validateSchemeRecord(rec, 'energy_rating_id', cc.energyRatings, cc, size, errors, warnings);
}
