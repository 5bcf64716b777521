import type { AssetInput, FieldMessages } from '../types';
import type { CompiledContext } from '../context';
import { assetFieldCatalog, MAX_STRING_LENGTH } from '../catalog';
import { msg } from '../messages';
import { addMessage, isBlank, isIsoDate, toNumber } from '../values';

export const GAV_WARNING_THRESHOLD = 5500;

/** `size` is reported as `asset_size`; `asset_size` in the body stands in when `size` is absent. */
export function assetSizeValue(asset: AssetInput): unknown {
  return asset.size !== undefined ? asset.size : asset.asset_size;
}

/** The asset's size when it is a usable number, else NaN (size rules are then skipped, not doubled). */
export function usableSize(asset: AssetInput): number {
  const v = assetSizeValue(asset);
  if (isBlank(v)) return NaN;
  const n = toNumber(v);
  return n >= 0 ? n : NaN;
}

/** A value outside a list: an error when the list is the service's, a warning when it is ours. */
export function notInList(
  cc: CompiledContext,
  errors: FieldMessages,
  warnings: FieldMessages,
  key: string,
  what: string,
  message: string = msg.notIncluded,
): void {
  if (cc.listsAuthoritative) addMessage(errors, key, message);
  else addMessage(warnings, key, msg.notInShippedList(what));
}

function checkRange(errors: FieldMessages, key: string, n: number, min: number, max: number): void {
  if (n < min) addMessage(errors, key, msg.gte(min));
  else if (n > max) addMessage(errors, key, msg.lte(max));
}

/** Asset-level field rules. Writes into `errors`/`warnings`; returns nothing so the caller owns allocation. */
export function validateAssetFields(
  asset: AssetInput,
  cc: CompiledContext,
  errors: FieldMessages,
  warnings: FieldMessages,
): void {
  const create = cc.ctx.mode === 'create';
  for (const def of assetFieldCatalog) {
    const key = def.errorKey ?? def.name;
    const v = def.name === 'size' ? assetSizeValue(asset) : asset[def.name];
    if (isBlank(v)) {
      if (create && def.requiredOnCreate) addMessage(errors, key, msg.blank);
      // The service reports an asset without a numeric size this way (its batch example).
      else if (def.name === 'size') addMessage(errors, key, msg.notANumber);
      continue;
    }
    switch (def.type) {
      case 'string':
      case 'code':
        if (typeof v !== 'string') addMessage(errors, key, msg.notAString);
        else if (v.length > (def.maxLength ?? MAX_STRING_LENGTH))
          addMessage(errors, key, msg.tooLong(def.maxLength ?? MAX_STRING_LENGTH));
        break;
      case 'integer': {
        const n = toNumber(v);
        if (Number.isNaN(n)) addMessage(errors, key, msg.notANumber);
        else if (!Number.isInteger(n)) addMessage(errors, key, msg.notAnInteger);
        break;
      }
      case 'number':
        if (Number.isNaN(toNumber(v))) addMessage(errors, key, msg.notANumber);
        break;
      case 'date':
        if (typeof v !== 'string' || !isIsoDate(v)) addMessage(errors, key, msg.invalidDate);
        break;
      case 'boolean':
        if (typeof v !== 'boolean') addMessage(errors, key, msg.notBoolean);
        break;
    }
  }

  const country = asset.country;
  if (typeof country === 'string' && !isBlank(country) && !cc.countries.has(country)) {
    notInList(cc, errors, warnings, 'country', 'country');
  }
  const ptype = asset.property_type_code;
  if (cc.propertyTypes && typeof ptype === 'string' && !isBlank(ptype) && !cc.propertyTypes.has(ptype)) {
    notInList(cc, errors, warnings, 'property_type_code', 'property type');
  }
  const name = asset.name;
  if (cc.ctx.isNameTaken && typeof name === 'string' && !isBlank(name) && cc.ctx.isNameTaken(name)) {
    addMessage(errors, 'name', msg.taken);
  }

  const ownership = toNumber(asset.ownership);
  if (!Number.isNaN(ownership)) checkRange(errors, 'ownership', ownership, 0, 100);
  const lat = toNumber(asset.lat);
  if (!Number.isNaN(lat)) checkRange(errors, 'lat', lat, -90, 90);
  const lng = toNumber(asset.lng);
  if (!Number.isNaN(lng)) checkRange(errors, 'lng', lng, -180, 180);
  const size = toNumber(assetSizeValue(asset));
  if (size < 0) addMessage(errors, 'asset_size', msg.gte(0));
  const gav = toNumber(asset.gav);
  if (gav < 0) addMessage(errors, 'gav', msg.gte(0));
  else if (gav > GAV_WARNING_THRESHOLD) addMessage(warnings, 'gav', msg.gavHigh);
  const cy = toNumber(asset.construction_year);
  if (Number.isInteger(cy) && cy > cc.currentYear) addMessage(errors, 'construction_year', msg.inFuture);

  const from = asset.ownership_from;
  const to = asset.ownership_to;
  // ISO dates compare correctly as strings.
  if (typeof from === 'string' && typeof to === 'string' && isIsoDate(from) && isIsoDate(to) && from > to) {
    addMessage(errors, 'ownership_to', msg.notBefore('ownership_from'));
  }
}
