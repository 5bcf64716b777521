import type { Meter, MeterSpace, MeterUtility, Reading } from '../../../shared/meters/types';

export function meter(
  id: string,
  utility: MeterUtility,
  space: MeterSpace,
  extra: Partial<Meter> = {},
): Meter {
  return {
    id,
    name: id,
    assetId: 'a1',
    utility,
    space,
    areaServed: null,
    unit: 'kWh',
    energyContent: null,
    ...extra,
  };
}

export function reading(
  meterId: string,
  start: string,
  end: string,
  quantity: number,
  unit = 'kWh',
  estimated = false,
): Reading {
  return { meterId, start, end, quantity, unit, estimated, source: { kind: 'typed' } };
}
