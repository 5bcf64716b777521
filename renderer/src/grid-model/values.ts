/**
 * Typed text to document values and back. Pure: the grids, the paste planner and the TSV copy use
 * the same conversions, so a value copied out of a cell pastes back as the same value.
 */
import type { FieldType } from '../../../shared/domain';
import { entryKey, type AssetDoc, type Scalar } from '../../../shared/sync/asset-doc';
import { parseDateText } from '../../../shared/workbook/cells';

export type ColumnType = FieldType | 'integer';

const trueWords = new Set(['true', 'yes', 'y', '1', 'x', 'ja', 'oui', 'wahr', 'vrai']);
const falseWords = new Set(['false', 'no', 'n', '0', 'nee', 'non', 'falsch', 'faux']);

/**
 * What the analyst typed, as the value to store. Blank is null. Numbers accept a thousands
 * separator and a decimal comma from spreadsheets ("1,234.5", "12,5"); text that is not a number
 * stays text, so the rules can say "is not a number" in the cell instead of the input vanishing.
 */
export function parseInput(raw: unknown, type: ColumnType): Scalar {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'boolean') return type === 'boolean' ? raw : String(raw);
  const text = String(raw).trim();
  if (text === '') return null;
  switch (type) {
    case 'number':
    case 'integer': {
      const n = parseNumber(text);
      return n === null ? text : n;
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (trueWords.has(lower)) return true;
      if (falseWords.has(lower)) return false;
      return text;
    }
    case 'date':
      return normaliseDate(text);
    default:
      return text;
  }
}

export function parseNumber(text: string): number | null {
  let t = text.replace(/[\s\u00a0']/g, '');
  if (t.endsWith('%')) t = t.slice(0, -1);
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^[+-]?\d{1,3}(\.\d{3})+,\d+$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
  else if (/^[+-]?\d+,\d+$/.test(t)) t = t.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * ISO stays; a spreadsheet's `31/12/2024`, `2024/12/31` or `31.12.2024` becomes ISO (the workbook
 * import's reading, one place). An ambiguous `01/03/2025` (1 March or 3 January?) or text that is no
 * date stays as typed, so the cell says it is not a valid date instead of a wrong date being kept.
 */
export function normaliseDate(text: string): string {
  const read = parseDateText(text);
  return read.ok && typeof read.value === 'string' ? read.value : text;
}

/** Why typed text cannot be taken as a date ("ambiguous (day/month or month/day?)…"), or null. */
export function dateProblem(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  const read = parseDateText(raw);
  return read.ok ? null : read.reason;
}

/** A value as a cell shows it and as copy writes it. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The value at a document path (`name`, `annual_data/2024/en_abs_wf`, `certifications/id:7/level`). */
export function getPathValue(doc: AssetDoc | null | undefined, path: string): Scalar {
  if (!doc) return null;
  const [head, key, field] = path.split('/');
  if (head === undefined) return null;
  if (key === undefined) return toScalar(doc[head]);
  const list = doc[head];
  if (!Array.isArray(list)) return null;
  const collection = head as 'annual_data' | 'certifications' | 'energy_ratings';
  const entry = (list as Record<string, unknown>[]).find((e) => entryKey(collection, e) === key);
  if (!entry) return null;
  if (field === undefined) return true;
  return toScalar(entry[field]);
}

function toScalar(value: unknown): Scalar {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** Two stored values are the same edit (so a no-op paste or fill sends nothing). */
export function sameValue(a: Scalar, b: Scalar): boolean {
  return (a ?? null) === (b ?? null);
}
