import type { AssetInput } from '../../shared/domain';

/**
 * The Portfolio view's floor: one pass over the same assets' numbers. Every figure the view shows
 * (totals, coverage, like-for-like, intensity, renewable share, the heatmap) is a sum of the assets'
 * numbers by property type, country and year, so no view can be built with less than reading each
 * number once and adding it to the sum it belongs to, which is what this does: for each asset, its
 * size and GAV into its property type's and country's sums, and each number of each annual record
 * into the sum of its (property type, year, field). What the view does beyond that (reading the
 * numbers' meaning, the like-for-like pairs, ranking, the rows' objects) is its own cost.
 * Returns a checksum so the work cannot be left out.
 */
export function onePassOverNumbers(assets: readonly AssetInput[]): number {
  const fields = new Map<string, number>();
  const groups = new Map<string, Map<number, Float64Array>>();
  const byKey = new Map<string, Float64Array>();
  const MAX_FIELDS = 256;
  let checksum = 0;
  for (const asset of assets) {
    const type = typeof asset.property_type_code === 'string' ? asset.property_type_code : '';
    const country = typeof asset.country === 'string' ? asset.country : '';
    const size = typeof asset.size === 'number' ? asset.size : 0;
    const gav = typeof asset.gav === 'number' ? asset.gav : 0;
    for (const key of [`t:${type}`, `c:${country}`]) {
      let sums = byKey.get(key);
      if (!sums) byKey.set(key, (sums = new Float64Array(3)));
      sums[0] = sums[0]! + 1;
      sums[1] = sums[1]! + size;
      sums[2] = sums[2]! + gav;
    }
    let years = groups.get(type);
    if (!years) groups.set(type, (years = new Map()));
    for (const rec of Array.isArray(asset.annual_data) ? asset.annual_data : []) {
      const year = rec.year;
      if (typeof year !== 'number') continue;
      let sums = years.get(year);
      if (!sums) years.set(year, (sums = new Float64Array(MAX_FIELDS)));
      for (const field in rec) {
        const value = (rec as Record<string, unknown>)[field];
        if (typeof value !== 'number') continue;
        let slot = fields.get(field);
        if (slot === undefined) fields.set(field, (slot = fields.size % MAX_FIELDS));
        sums[slot] = sums[slot]! + value;
      }
    }
  }
  for (const sums of byKey.values()) checksum += sums[1]!;
  for (const years of groups.values()) for (const sums of years.values()) checksum += sums[0]!;
  return checksum;
}
