import { describe, expect, it } from 'vitest';
import { conversionFactor, parseUnit } from '../../../shared/meters/units';

describe('meter units', () => {
  it('converts energy into kWh by exact definition', () => {
    const kwh = (unit: string): number => {
      const c = conversionFactor(unit, 'electricity', null);
      if (!c.ok) throw new Error(c.message);
      return c.factor;
    };
    expect(kwh('kWh')).toBe(1);
    expect(kwh('MWh')).toBe(1000);
    expect(kwh('GJ')).toBeCloseTo(277.7777777777778, 12);
    expect(kwh('MJ')).toBeCloseTo(0.2777777777777778, 14);
    expect(kwh('kBtu')).toBeCloseTo(0.29307107, 12);
    expect(kwh('MMBtu')).toBeCloseTo(293.07107, 9);
    expect(kwh('therms')).toBeCloseTo(29.307107, 10);
  });

  it('converts water into m³ and waste into metric tonnes', () => {
    const f = (unit: string, utility: 'water' | 'waste_hazardous'): number => {
      const c = conversionFactor(unit, utility, null);
      if (!c.ok) throw new Error(c.message);
      return c.factor;
    };
    expect(f('m³', 'water')).toBe(1);
    expect(f('m3', 'water')).toBe(1);
    expect(f('Litres', 'water')).toBe(0.001);
    expect(f('liters', 'water')).toBe(0.001);
    expect(f('US gallons', 'water')).toBe(0.003785411784);
    expect(f('gal', 'water')).toBe(0.003785411784);
    expect(f('kgal', 'water')).toBeCloseTo(3.785411784, 12);
    expect(f('cubic feet', 'water')).toBe(0.028316846592);
    expect(f('ft3', 'water')).toBe(0.028316846592);
    expect(f('CF', 'water')).toBe(0.028316846592);
    expect(f('kg', 'waste_hazardous')).toBe(0.001);
    expect(f('tonnes', 'waste_hazardous')).toBe(1);
    expect(f('t', 'waste_hazardous')).toBe(1);
    expect(f('lbs', 'waste_hazardous')).toBe(0.00045359237);
    expect(f('short tons', 'waste_hazardous')).toBe(0.90718474);
  });

  it('recognises spellings case-insensitively and refuses ambiguous ones', () => {
    expect(parseUnit('KWH')?.name).toBe('kWh');
    expect(parseUnit('  mwh ')?.name).toBe('MWh');
    expect(parseUnit('kWh (thousand Watt-hours)')?.name).toBe('kWh');
    expect(parseUnit('Gallons (UK)')?.name).toBe('imperial gal');
    expect(parseUnit('tons')).toBeNull();
    expect(parseUnit('furlongs')).toBeNull();
  });

  it('names a unit that does not fit the utility', () => {
    const c = conversionFactor('kWh', 'water', null);
    expect(c).toEqual({ ok: false, message: expect.stringContaining('"kWh"') as string });
    expect(conversionFactor('m3', 'electricity', null).ok).toBe(false);
    expect(conversionFactor('kg', 'water', null).ok).toBe(false);
    const unknown = conversionFactor('bananas', 'fuel', null);
    expect(unknown.ok || unknown.message).toBe('Unknown unit "bananas".');
  });

  it('takes a fuel by volume or mass only with the meter energy content', () => {
    const none = conversionFactor('m3', 'fuel', null);
    expect(none.ok).toBe(false);
    expect(none.ok || none.message).toContain('energy content');
    // 10.55 kWh per m³: 1 L = 0.001 m³ -> 0.01055 kWh; 1 ft³ -> 0.028316846592 * 10.55.
    const perM3 = { kwh: 10.55, per: 'm3' };
    const litre = conversionFactor('L', 'fuel', perM3);
    expect(litre.ok && litre.factor).toBeCloseTo(0.01055, 14);
    const ft3 = conversionFactor('cf', 'fuel', perM3);
    expect(ft3.ok && ft3.factor).toBeCloseTo(0.028316846592 * 10.55, 12);
    // Heating oil by mass: 11.86 kWh per kg, a reading in tonnes -> 11860 kWh per t.
    const t = conversionFactor('t', 'fuel', { kwh: 11.86, per: 'kg' });
    expect(t.ok && t.factor).toBeCloseTo(11860, 9);
    // Energy content per a volume for a reading by mass: refused, not guessed.
    expect(conversionFactor('kg', 'fuel', perM3).ok).toBe(false);
  });
});
