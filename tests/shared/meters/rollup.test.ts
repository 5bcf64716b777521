import { describe, expect, it } from 'vitest';
import { reportingPeriod } from '../../../shared/meters/dates';
import { rollup } from '../../../shared/meters/rollup';
import { meter, reading } from './support';

describe('meter roll-up', () => {
  it('pro-rates a bill straddling the year end by days inside the period (leap year)', () => {
    const m = meter('e1', 'electricity', 'whole_building', { areaServed: 1000 });
    const result = rollup(
      [m],
      [
        // 62 days, 31 of them in 2024: 6200 * 31/62 = 3100.
        reading('e1', '2023-12-01', '2024-01-31', 6200),
        // 2024-02-01..2024-12-31 = 366 - 31 = 335 days, all inside.
        reading('e1', '2024-02-01', '2024-12-31', 33500),
        // Entirely before the period: nothing.
        reading('e1', '2023-11-01', '2023-11-30', 999),
      ],
      reportingPeriod(2024),
    );
    expect(result.fields.en_abs_we).toBeCloseTo(36600, 9);
    expect(result.fields.en_cov_we).toBe(1000);
    expect(result.fields.en_data_from).toBe('2024-01-01');
    expect(result.fields.en_data_to).toBe('2024-12-31');
    expect(result.explanations.en_abs_we?.text).toBe('2 readings from 1 meter, 0 % estimated');
    expect(result.meters).toEqual([{ meterId: 'e1', readingsInPeriod: 2, daysNotCovered: 0, gaps: [] }]);
    // Fields with no meter are left alone.
    expect('en_abs_wf' in result.fields).toBe(false);
    expect('wat_abs_w' in result.fields).toBe(false);
    expect('wat_data_from' in result.fields).toBe(false);
  });

  it('counts the leap day in a fiscal year ending in March', () => {
    const period = reportingPeriod(2024, { reporting_period_month: 3 }); // 2023-04-01..2024-03-31
    const result = rollup(
      [meter('e1', 'electricity', 'common_areas')],
      [
        // 2024-03-01..2024-04-30: 61 days, 31 inside -> 610 MWh * 31/61 = 310 MWh.
        reading('e1', '2024-03-01', '2024-04-30', 610, 'MWh'),
        // 2024-02-01..2024-02-29: 29 days, all inside.
        reading('e1', '2024-02-01', '2024-02-29', 29, 'MWh'),
        // 2023-03-01..2023-04-10: 41 days, 10 inside -> 41 * 10/41 = 10 MWh.
        reading('e1', '2023-03-01', '2023-04-10', 41, 'MWh'),
      ],
      period,
    );
    expect(result.fields.en_abs_lc_bce).toBeCloseTo(349_000, 6);
    expect(result.fields.en_cov_lc_bce).toBe(0); // area not stated
    expect(result.explanations.en_cov_lc_bce?.text).toContain('1 meter without a stated area');
    expect(result.fields.en_data_from).toBe('2023-04-01');
    expect(result.fields.en_data_to).toBe('2024-03-31');
    // 2023-04-11..2024-01-31 uncovered: 20 + 31+30+31+31+30+31+30+31 + 31 = 296 days.
    expect(result.meters[0]?.gaps).toEqual([{ from: '2023-04-11', to: '2024-01-31' }]);
    expect(result.meters[0]?.daysNotCovered).toBe(296);
  });

  it('sums mixed units per utility and space into the dictionary fields', () => {
    const meters = [
      meter('gas', 'fuel', 'tenant_tenant', {
        areaServed: 200,
        unit: 'm3',
        energyContent: { kwh: 10, per: 'm3' },
      }),
      meter('heat', 'district', 'shared_services', { areaServed: 50 }),
      meter('w', 'water', 'whole_building', { areaServed: 700, unit: 'gal' }),
      meter('wo', 'water', 'outdoor_tenant', { areaServed: 70 }),
      meter('haz', 'waste_hazardous', 'whole_building'),
      meter('nhaz', 'waste_non_hazardous', 'whole_building'),
      meter('lamp', 'electricity', 'outdoor_landlord', { areaServed: 10 }),
    ];
    const y = (q: number, unit: string, id: string) => reading(id, '2023-01-01', '2023-12-31', q, unit);
    const result = rollup(
      meters,
      [
        y(100, 'm3', 'gas'), // 1000 kWh
        y(1000, 'L', 'gas'), // 1 m3 -> 10 kWh
        y(1, 'GJ', 'gas'), // 277.777... kWh
        y(10, 'kBtu', 'gas'), // 2.9307107 kWh
        y(1, 'therm', 'gas'), // 29.307107 kWh
        y(3, 'MWh', 'heat'),
        y(1000, 'US gallons', 'w'), // 3.785411784 m3
        y(100, 'cubic feet', 'w'), // 2.8316846592 m3
        y(5, 'm³', 'wo'),
        y(2000, 'lb', 'haz'), // 0.90718474 t
        y(500, 'kg', 'nhaz'), // 0.5 t
        y(1, 'short ton', 'nhaz'), // 0.90718474 t
        y(40, 'kWh', 'lamp'),
      ],
      reportingPeriod(2023),
    );
    expect(result.fields.en_abs_tc_tf).toBeCloseTo(1000 + 10 + 1e6 / 3600 + 2.9307107 + 29.307107, 9);
    expect(result.fields.en_cov_tc_tf).toBe(200);
    expect(result.fields.en_abs_lc_bsd).toBe(3000);
    expect(result.fields.en_cov_lc_bsd).toBe(50);
    expect(result.fields.en_abs_lc_oe).toBe(40);
    expect('en_cov_lc_oe' in result.fields).toBe(false);
    expect(result.fields.wat_abs_w).toBeCloseTo(3.785411784 + 2.8316846592, 12);
    expect(result.fields.wat_cov_w).toBe(700);
    expect(result.fields.wat_abs_tc_o).toBe(5);
    expect('wat_cov_tc_o' in result.fields).toBe(false);
    expect(result.fields.was_abs_haz).toBeCloseTo(0.90718474, 12);
    expect(result.fields.was_abs_nhaz).toBeCloseTo(1.40718474, 12);
    expect(result.fields.was_data_from).toBe('2023-01-01');
    expect(result.fields.was_data_to).toBe('2023-12-31');
    expect(Object.keys(result.fields).some((k) => k.startsWith('was_cov'))).toBe(false);
    expect(result.problems).toEqual([]);
  });

  it('counts coverage only for meters with readings in the period', () => {
    const result = rollup(
      [
        meter('a', 'electricity', 'tenant_landlord', { areaServed: 1000 }),
        meter('b', 'electricity', 'tenant_landlord', { areaServed: 500 }),
        meter('old', 'electricity', 'tenant_landlord', { areaServed: 300 }),
      ],
      [
        reading('a', '2023-01-01', '2023-06-30', 10),
        reading('b', '2023-12-15', '2024-01-15', 32), // 17 of 32 days inside
        reading('old', '2022-01-01', '2022-12-31', 99),
      ],
      reportingPeriod(2023),
    );
    expect(result.fields.en_abs_lc_te).toBe(27);
    expect(result.fields.en_cov_lc_te).toBe(1500);
    expect(result.fields.en_data_from).toBe('2023-01-01');
    expect(result.fields.en_data_to).toBe('2023-12-31');
    expect(result.meters.find((m) => m.meterId === 'old')?.daysNotCovered).toBe(365);
    expect(result.meters.find((m) => m.meterId === 'a')?.gaps).toEqual([
      { from: '2023-07-01', to: '2023-12-31' },
    ]);
  });

  it('reports the estimated share and warns above GRESB 20 % of actual days', () => {
    const m = meter('e1', 'electricity', 'whole_building', { areaServed: 10 });
    // Jan..Oct 2023 = 304 actual days; Nov..Dec = 61 estimated days > 0.2 * 304 = 60.8.
    const result = rollup(
      [m],
      [
        reading('e1', '2023-01-01', '2023-10-31', 8000),
        reading('e1', '2023-11-01', '2023-12-31', 2000, 'kWh', true),
      ],
      reportingPeriod(2023),
    );
    expect(result.explanations.en_abs_we?.estimatedShare).toBeCloseTo(0.2, 12);
    expect(result.explanations.en_abs_we?.text).toBe('2 readings from 1 meter, 20 % estimated');
    expect(result.topics.energy).toMatchObject({
      consumption: 10000,
      estimatedConsumption: 2000,
      estimatedDays: 61,
      actualDays: 304,
    });
    expect(result.topics.energy?.warning).toContain('61 estimated days against 304');
    // One day fewer estimated (Nov 2..Dec 31 = 60 days <= 60.8): no warning.
    const under = rollup(
      [m],
      [
        reading('e1', '2023-01-01', '2023-11-01', 8000),
        reading('e1', '2023-11-02', '2023-12-31', 2000, 'kWh', true),
      ],
      reportingPeriod(2023),
    );
    expect(under.topics.energy?.warning).toBeNull();
  });

  it('leaves out readings it cannot convert and says why', () => {
    const result = rollup(
      [
        meter('w', 'water', 'whole_building'),
        meter('gas', 'fuel', 'whole_building'),
        meter('dh', 'district', 'outdoor_landlord'),
      ],
      [
        reading('w', '2023-01-01', '2023-12-31', 5, 'kWh'),
        reading('w', '2023-01-01', '2023-12-31', 7, 'm3'),
        reading('gas', '2023-01-01', '2023-12-31', 100, 'm3'),
        reading('nope', '2023-01-01', '2023-12-31', 1),
      ],
      reportingPeriod(2023),
    );
    expect(result.fields.wat_abs_w).toBe(7);
    // The gas reading cannot be converted (no energy content): no figure rather than a zero.
    expect(result.fields.en_abs_wf).toBeUndefined();
    expect(result.problems.map((p) => [p.meterId, p.reading])).toEqual([
      ['dh', null],
      ['w', 0],
      ['gas', 2],
      ['nope', 3],
    ]);
    expect(result.problems[2]?.message).toContain('energy content');
  });
  it('writes no figure for a meter without readings in the period (no zero taken as measured)', () => {
    const result = rollup(
      [meter('e', 'electricity', 'whole_building'), meter('g', 'fuel', 'whole_building')],
      [
        reading('e', '2023-01-01', '2023-12-31', 1200, 'kWh'),
        reading('g', '2022-01-01', '2022-12-31', 50, 'kWh'),
      ],
      reportingPeriod(2023),
    );
    expect(Object.keys(result.fields).filter((f) => f.startsWith('en_abs_'))).toEqual(['en_abs_we']);
    expect(result.fields.en_abs_we).toBe(1200);
  });
});
