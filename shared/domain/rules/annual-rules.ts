import type { AnnualDataInput, FieldMessages } from '../types';
import type { CompiledContext } from '../context';
import { annualFieldCatalog, MAX_STRING_LENGTH, measureTriples } from '../catalog';
import { msg } from '../messages';
import { addMessage, isBlank, isIsoDate, nearlyEqual, toNumber } from '../values';
import { reportingPeriod } from '../../meters/dates';

/*
 * Performance note: reading a record by many computed keys (`rec[t.abs]`) is a megamorphic keyed load
 * in V8 and dominated the first profile. Instead one for-in pass copies the record's values into a slot
 * array indexed by catalog position, and every cross-field rule reads slots by precomputed index.
 */

const T_NUMBER = 0;
const T_BOOLEAN = 1;
const T_CODE = 2;
const T_DATE = 3;
const T_STRING = 4;
const typeCode = {
  number: T_NUMBER,
  boolean: T_BOOLEAN,
  code: T_CODE,
  date: T_DATE,
  string: T_STRING,
} as const;

const N = annualFieldCatalog.length;
const names: readonly string[] = annualFieldCatalog.map((d) => d.name);
const indexByName: ReadonlyMap<string, number> = new Map(names.map((n, i) => [n, i]));
const types: Uint8Array = Uint8Array.from(annualFieldCatalog, (d) => typeCode[d.type]);
const percent: Uint8Array = Uint8Array.from(annualFieldCatalog, (d) => (d.unit === '%' ? 1 : 0));
const floorArea: Uint8Array = Uint8Array.from(annualFieldCatalog, (d) => (d.isFloorArea ? 1 : 0));
const codeSets: readonly (ReadonlySet<string> | null)[] = annualFieldCatalog.map((d) =>
  d.codes ? new Set(d.codes) : null,
);

function idx(name: string): number {
  const i = indexByName.get(name);
  if (i === undefined) throw new Error(`annual-rules: ${name} is not in the catalog`);
  return i;
}

/*
 * With the whole building tenant controlled, these whole-building totals must equal `size`, each
 * with the service's own wording (its docs refuse PATCH size 5000 -> 6000 on such an asset so).
 */
const tenantCtrlTotals: readonly (readonly [number, string])[] = [
  [idx('ghg_tot_s3_w'), msg.equalSizeTenantCtrl],
  [idx('wat_tot_w'), msg.equalSize],
];
const I_COMMON = idx('asset_size_common');
const I_SHARED = idx('asset_size_shared');
const I_TENANT = idx('asset_size_tenant');
const I_TENANT_LL = idx('asset_size_tenant_landlord');
const I_TENANT_TT = idx('asset_size_tenant_tenant');
const I_TENANT_CTRL = idx('tenant_ctrl');
const I_OWNED_ENTIRE = idx('owned_entire_period');

/** `_from`/`_to` pairs, found by name so a new pair in the catalog is checked without code. */
const datePairs: readonly (readonly [number, number])[] = annualFieldCatalog.flatMap((d, i) => {
  if (d.type !== 'date' || !d.name.endsWith('_from')) return [];
  const to = indexByName.get(`${d.name.slice(0, -5)}_to`);
  return to === undefined ? [] : [[i, to] as const];
});

const triples: readonly (readonly [number, number, number])[] = measureTriples.map(
  (t) => [idx(t.abs), idx(t.cov), idx(t.tot)] as const,
);

// Reused across calls; validation is synchronous so one buffer is safe.
const slots: unknown[] = new Array<unknown>(N).fill(undefined);
const touched: number[] = [];

function slotNumber(i: number): number {
  const v = slots[i];
  return v === undefined ? NaN : toNumber(v);
}

function validateYear(
  year: unknown,
  cc: CompiledContext,
  seenYears: Set<number>,
  errors: FieldMessages,
): void {
  if (isBlank(year)) {
    addMessage(errors, 'year', msg.blank);
    return;
  }
  const y = toNumber(year);
  if (Number.isNaN(y)) addMessage(errors, 'year', msg.notANumber);
  else if (!Number.isInteger(y)) addMessage(errors, 'year', msg.notAnInteger);
  else if (y < cc.minYear) addMessage(errors, 'year', msg.gte(cc.minYear));
  else if (y > cc.maxYear) addMessage(errors, 'year', msg.lte(cc.maxYear));
  else if (seenYears.has(y)) addMessage(errors, 'year', msg.taken);
  else seenYears.add(y);
}

/** Checks one annual record. `size` is NaN when the asset has no usable size. */
export function validateAnnualRecord(
  rec: AnnualDataInput,
  cc: CompiledContext,
  size: number,
  ownershipDatesGiven: boolean,
  seenYears: Set<number>,
  errors: FieldMessages,
  warnings: FieldMessages,
): void {
  validateYear(rec.year, cc, seenYears, errors);
  const sizeKnown = !Number.isNaN(size);
  // The service stores an absent tenant_ctrl as null and refuses it (its batch example).
  if (isBlank(rec['tenant_ctrl'])) addMessage(errors, 'tenant_ctrl', msg.notBoolean);

  try {
    // Single pass over the record; unknown keys (id, _validations, ...) are ignored like the service does.
    for (const key in rec) {
      const i = indexByName.get(key);
      if (i === undefined) continue;
      const v = rec[key];
      if (isBlank(v)) continue;
      slots[i] = v;
      touched.push(i);
      switch (types[i]) {
        case T_NUMBER: {
          const n = toNumber(v);
          if (Number.isNaN(n)) addMessage(errors, key, msg.notANumber);
          else if (n < 0) addMessage(errors, key, msg.gte(0));
          else {
            if (percent[i] === 1 && n > 100) addMessage(errors, key, msg.lte(100));
            if (floorArea[i] === 1 && sizeKnown && n > size) addMessage(errors, key, msg.lteSize);
          }
          break;
        }
        case T_BOOLEAN:
          if (typeof v !== 'boolean') addMessage(errors, key, msg.notBoolean);
          break;
        case T_CODE: {
          const codes = codeSets[i];
          if (typeof v !== 'string' || !codes || !codes.has(v)) addMessage(errors, key, msg.notIncluded);
          break;
        }
        case T_DATE:
          if (typeof v !== 'string' || !isIsoDate(v)) addMessage(errors, key, msg.invalidDate);
          break;
        case T_STRING:
          if (typeof v !== 'string') addMessage(errors, key, msg.notAString);
          else if (v.length > MAX_STRING_LENGTH) addMessage(errors, key, msg.tooLong(MAX_STRING_LENGTH));
          break;
      }
    }
    if (touched.length > 0) crossFieldRules(cc, size, sizeKnown, ownershipDatesGiven, errors, warnings);
    if (touched.length > 0 && cc.ctx.appChecks)
      periodInYear(Number(rec.year), cc.ctx.reportingPeriodMonth, warnings);
  } finally {
    for (let k = 0; k < touched.length; k++) slots[touched[k] as number] = undefined;
    touched.length = 0;
  }
}

/**
 * A data period's dates outside the row's reporting year: a 2025 period on a 2021 row is a slip.
 * The row's year is the calendar year, or the entity's fiscal year ending in its reporting month.
 */
function periodInYear(year: number, month: number | undefined, warnings: FieldMessages): void {
  if (!Number.isInteger(year)) return;
  const fiscal = month !== undefined && month !== 12 && Number.isInteger(month) && month >= 1 && month < 12;
  const { from, to } = fiscal ? reportingPeriod(year, { reporting_period_month: month }) : calendar(year);
  for (const pair of datePairs) {
    for (const i of pair) {
      const v = slots[i];
      if (typeof v === 'string' && isIsoDate(v) && (v < from || v > to))
        addMessage(
          warnings,
          names[i] ?? '',
          fiscal ? msg.outsidePeriod(year, from, to) : msg.outsideYear(year),
        );
    }
  }
}

const calendar = (year: number) => ({ from: `${year}-01-01`, to: `${year}-12-31` });

function crossFieldRules(
  _cc: CompiledContext,
  size: number,
  sizeKnown: boolean,
  ownershipDatesGiven: boolean,
  errors: FieldMessages,
  warnings: FieldMessages,
): void {
  for (const [ia, ic, io] of triples) {
    const hasA = slots[ia] !== undefined;
    // A total floor area alone is valid (the docs' create example sends only totals); consumption
    // without its floor areas cannot be normalised, which is worth a warning, not a refusal.
    if (hasA && (slots[ic] === undefined || slots[io] === undefined))
      addMessage(warnings, names[ia] ?? '', msg.withoutFloorAreas);
    const cn = slotNumber(ic);
    if (cn > slotNumber(io)) addMessage(errors, names[ic] ?? '', msg.lteField(names[io] ?? ''));
    if (cn === 0 && slotNumber(ia) > 0) addMessage(warnings, names[ia] ?? '', msg.noCoveredArea);
  }

  if (slots[I_TENANT_CTRL] === true && sizeKnown) {
    for (const [i, message] of tenantCtrlTotals) {
      const n = slotNumber(i);
      if (!Number.isNaN(n) && !nearlyEqual(n, size)) addMessage(errors, names[i] ?? '', message);
    }
  }

  const common = slotNumber(I_COMMON);
  const shared = slotNumber(I_SHARED);
  const tenant = slotNumber(I_TENANT);
  if (
    sizeKnown &&
    common >= 0 &&
    shared >= 0 &&
    tenant >= 0 &&
    !nearlyEqual(common + shared + tenant, size)
  ) {
    addMessage(errors, 'asset_size_common', msg.splitsAddUp);
  }
  const tl = slotNumber(I_TENANT_LL);
  const tt = slotNumber(I_TENANT_TT);
  if (tenant >= 0 && tl >= 0 && tt >= 0 && !nearlyEqual(tl + tt, tenant)) {
    addMessage(errors, 'asset_size_tenant', msg.tenantSplitAddsUp);
  }

  for (const [fi, ti] of datePairs) {
    const from = slots[fi];
    const to = slots[ti];
    // ISO dates order correctly as strings.
    if (typeof from === 'string' && typeof to === 'string' && from > to && isIsoDate(from) && isIsoDate(to)) {
      addMessage(errors, names[ti] ?? '', msg.notBefore(names[fi] ?? ''));
    }
  }

  if (slots[I_OWNED_ENTIRE] === false && !ownershipDatesGiven) {
    addMessage(errors, 'owned_entire_period', msg.ownershipDatesRequired);
  }
}
