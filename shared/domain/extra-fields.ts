import { annualFieldByName, assetFieldByName } from './catalog';

/** Keys the app handles itself on an asset or an annual record, beyond the catalogs' fields. */
const handledAssetKeys = new Set([
  'annual_data',
  'certifications',
  'energy_ratings',
  'asset_size',
  'created_at',
  'updated_at',
  '_validations',
  '_outliers',
  '_key',
]);
const handledAnnualKeys = new Set(['year', '_validations', '_key', 'id']);

/**
 * Fields the service sent that the app's catalog does not know (a newer field, or an older answer's
 * `asset_ownership`): kept in the workspace as they came, shown read-only, sent back unchanged.
 */
export function extraFields(
  record: Readonly<Record<string, unknown>>,
  level: 'asset' | 'annual',
): [string, unknown][] {
  const known = level === 'asset' ? assetFieldByName : annualFieldByName;
  const handled = level === 'asset' ? handledAssetKeys : handledAnnualKeys;
  return Object.entries(record).filter(
    ([key, value]) => value !== undefined && !known.has(key) && !handled.has(key),
  );
}

/** `key: value; ...` for display. */
export function describeExtraFields(fields: readonly [string, unknown][]): string {
  return fields
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}
