/**
 * ENERGY STAR Portfolio Manager's web-services XML into meters and readings: a `<meter>` (GET
 * /meter/{id}: `id`, `type`, `name`, `unitOfMeasure`) and its `<meterData>` (GET
 * /meter/{id}/consumptionData: `<meterConsumption estimatedValue="…">` with `id`, `startDate`,
 * `endDate`, `usage`), as the published schema (meter.xsd, meterData.xsd) documents them. A file may
 * hold several meters, each followed by its consumption data. Parsed with saxes (the streaming XML
 * parser exceljs already brings), which gives line numbers for the errors.
 */
import { SaxesParser } from 'saxes';
import type { ImportIssue, ImportedMeter, ImportedReading } from '../../shared/meters/import-rows';
import type { MeterSpace, MeterUtility } from '../../shared/meters/types';
import { parseUnit } from '../../shared/meters/units';

/** Portfolio Manager's meter types by prefix (meter.xsd `type`); anything else named is a fuel. */
export function utilityOfPmType(type: string): { utility: MeterUtility; space: MeterSpace } | null {
  const t = type.trim();
  if (/^electric/i.test(t)) return { utility: 'electricity', space: 'whole_building' };
  if (/^district/i.test(t)) return { utility: 'district', space: 'whole_building' };
  if (/water/i.test(t)) {
    // "… - Outdoor" is outdoor use; "… - Mixed Indoor/Outdoor" and "… - Indoor" are the building's.
    return { utility: 'water', space: /- outdoor$/i.test(t) ? 'outdoor_landlord' : 'whole_building' };
  }
  if (
    /^(natural gas|fuel oil|diesel|kerosene|propane|coal|coke|wood|other \(energy\)|liquid propane)/i.test(t)
  ) {
    return { utility: 'fuel', space: 'whole_building' };
  }
  return null;
}

/**
 * Portfolio Manager's own unit names (meter.xsd `unitOfMeasure`) where the plain word would be
 * ambiguous: its "Tons" are short tons. (Its "MBtu (million Btu)" and "MCF(million cubic feet)" are
 * recognised by units.ts in their full spelling.)
 */
const pmUnits: Record<string, string> = { tons: 'short ton' };

function unitOf(text: string): string {
  const mapped = pmUnits[text.trim().toLowerCase()];
  return mapped ?? text.trim();
}

export interface PmImport {
  meters: ImportedMeter[];
  readings: ImportedReading[];
  errors: ImportIssue[];
}

export interface PmOptions {
  file: string;
  /** The asset the analyst picked for these meters (Portfolio Manager's meters don't name it). */
  asset: { partnersId: string | null; name: string | null };
  /** Refused above this many characters, before parsing (the workbook limits apply in main too). */
  maxChars?: number;
}

interface Open {
  meter: Partial<Record<'id' | 'type' | 'name' | 'unitOfMeasure', string>> & { line: number };
  consumption:
    | (Partial<Record<'id' | 'startDate' | 'endDate' | 'usage', string>> & {
        line: number;
        /** The line of each child, so an error points at the value itself. */
        lines: Record<string, number>;
        estimated: string | undefined;
      })
    | null;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

export function parsePortfolioManagerXml(xml: string, options: PmOptions): PmImport {
  const { file } = options;
  const result: PmImport = { meters: [], readings: [], errors: [] };
  const max = options.maxChars ?? 64 * 1024 * 1024;
  if (xml.length > max) {
    result.errors.push({ file, row: 1, column: null, message: `The file is larger than ${max} characters.` });
    return result;
  }
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  let text = '';
  let meter: (Open['meter'] & { key: string | null; unit: string; utility: MeterUtility }) | null = null;
  const state: Open = { meter: { line: 0 }, consumption: null };
  let inMeter = false;

  const fail = (line: number, column: string | null, message: string): void => {
    result.errors.push({ file, row: line, column, message });
  };

  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    text = '';
    if (tag.name === 'meter') {
      inMeter = true;
      state.meter = { line: parser.line };
    } else if (tag.name === 'meterConsumption') {
      const estimated = tag.attributes.estimatedValue;
      state.consumption = {
        line: parser.line,
        lines: {},
        estimated: typeof estimated === 'string' ? estimated : undefined,
      };
    }
  });
  parser.on('text', (t) => {
    text += t;
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    const parent = stack[stack.length - 1];
    const value = text.trim();
    text = '';
    if (
      inMeter &&
      parent === 'meter' &&
      (tag.name === 'id' || tag.name === 'type' || tag.name === 'name' || tag.name === 'unitOfMeasure')
    ) {
      state.meter[tag.name] = value;
    } else if (tag.name === 'meter') {
      inMeter = false;
      meter = closeMeter(state.meter);
    } else if (
      state.consumption &&
      parent === 'meterConsumption' &&
      (tag.name === 'id' || tag.name === 'startDate' || tag.name === 'endDate' || tag.name === 'usage')
    ) {
      state.consumption[tag.name] = value;
      state.consumption.lines[tag.name] = parser.line;
    } else if (tag.name === 'meterConsumption' && state.consumption) {
      closeConsumption(state.consumption);
      state.consumption = null;
    }
  });

  function closeMeter(
    m: Open['meter'],
  ): (Open['meter'] & { key: string | null; unit: string; utility: MeterUtility }) | null {
    if (!m.id) {
      fail(m.line, 'id', 'A meter without an id.');
      return null;
    }
    const kind = utilityOfPmType(m.type ?? '');
    if (!kind) {
      fail(
        m.line,
        'type',
        `Meter ${m.id}: the type "${m.type ?? ''}" is not one Asset Desk reports (energy or water).`,
      );
      return null;
    }
    const unit = unitOf(m.unitOfMeasure ?? '');
    if (!parseUnit(unit)) {
      fail(m.line, 'unitOfMeasure', `Meter ${m.id}: unknown unit "${m.unitOfMeasure ?? ''}".`);
      return null;
    }
    const key = `pm:${m.id}`;
    result.meters.push({
      key,
      meterId: key,
      name: m.name ?? m.id,
      asset: options.asset,
      utility: kind.utility,
      space: kind.space,
      areaServed: null,
      unit,
      row: m.line,
    });
    return { ...m, key, unit, utility: kind.utility };
  }

  function closeConsumption(c: NonNullable<Open['consumption']>): void {
    if (!meter) {
      fail(c.line, 'meterConsumption', 'Consumption data without a readable meter before it.');
      return;
    }
    for (const name of ['startDate', 'endDate'] as const) {
      if (!isoDate.test(c[name] ?? '')) {
        fail(c.lines[name] ?? c.line, name, `"${c[name] ?? ''}" is not a date (YYYY-MM-DD).`);
        return;
      }
    }
    const usage = Number(c.usage);
    if (c.usage === undefined || c.usage === '' || !Number.isFinite(usage)) {
      fail(c.lines.usage ?? c.line, 'usage', `"${c.usage ?? ''}" is not a number.`);
      return;
    }
    if (c.estimated !== undefined && c.estimated !== 'true' && c.estimated !== 'false') {
      fail(c.line, 'estimatedValue', `"${c.estimated}" is not true or false.`);
      return;
    }
    result.readings.push({
      meterKey: meter.key as string,
      start: c.startDate as string,
      end: c.endDate as string,
      quantity: usage,
      unit: meter.unit,
      estimated: c.estimated === 'true',
      source: { kind: 'file', file, row: c.line },
    });
  }

  try {
    parser.write(xml).close();
  } catch (error) {
    fail(parser.line, null, `Not readable XML: ${(error as Error).message}`);
  }
  return result;
}
