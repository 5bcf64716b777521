import type { SampleAssetRow } from '../../shared/bridge/contract';

/**
 * A deterministic fixture of assets for the first grid, until the workspace serves real ones.
 * Deterministic so the UI tests can assert on exact rows.
 */
const cities = [
  ['NL', 'Amsterdam'],
  ['NL', 'Rotterdam'],
  ['GB', 'London'],
  ['DE', 'Berlin'],
  ['FR', 'Paris'],
  ['US', 'Chicago'],
] as const;
const propertyTypes = ['OFF', 'RET', 'IND', 'RES', 'HOT'] as const;

export function sampleAssets(limit = 50): SampleAssetRow[] {
  const rows: SampleAssetRow[] = [];
  for (let i = 1; i <= limit; i++) {
    const [country, city] = cities[i % cities.length] ?? cities[0];
    rows.push({
      id: `sample-${i}`,
      name: `${city} ${propertyTypes[i % propertyTypes.length] ?? 'OFF'} ${i}`,
      country,
      city,
      propertyType: propertyTypes[i % propertyTypes.length] ?? 'OFF',
      size: 1_000 + ((i * 7_919) % 40_000),
      ownership: i % 4 === 0 ? 50 : 100,
    });
  }
  return rows;
}
