/**
 * The values of a readings file's cells: dates (ISO, or day/month in either order), quantities as
 * spreadsheets write them, the estimated flag. Read once per row of a file of a million rows, so
 * the common spellings take a short way (no regex, no Date) and repeated texts are memoised; the
 * texts kept for the whole import are copies of their own (`own`, `shared`).
 */

const isoPattern = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
export const localPattern = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;

export function isoOf(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** An ISO date's text read once per distinct text (a file repeats its bill dates); undefined: not ISO. */
const isoDates = new Map<string, string | null>();
export function isoDate(text: string): string | null | undefined {
  const hit = isoDates.get(text);
  if (hit !== undefined) return hit;
  const iso = isoPattern.exec(text);
  if (!iso) return undefined;
  const value = isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (isoDates.size > 100_000) isoDates.clear();
  isoDates.set(text, value);
  return value;
}

/** A number as spreadsheets write it; "1,234" alone is refused (thousands or a decimal comma?). */
export function parseQuantity(text: string): number | 'ambiguous' | null {
  // Most quantities are plain digits with a point: read without a regex (a million rows, a million
  // quantities). Anything else goes the way below.
  if (plainDecimal(text)) return Number(text);
  const t = text.trim().replace(/\s/g, '');
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (/^-?\d{1,3}(,\d{3})+\.\d+$/.test(t) || /^-?\d{1,3}(,\d{3}){2,}$/.test(t))
    return Number(t.replace(/,/g, ''));
  if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(t)) return Number(t.replace(/\./g, '').replace(',', '.'));
  if (/^-?\d{1,3},\d{3}$/.test(t)) return 'ambiguous';
  if (/^-?\d+,\d+$/.test(t)) return Number(t.replace(',', '.'));
  return null;
}

const estimatedWords = new Map<string, boolean>([
  ...['', 'no', 'n', 'false', '0', 'a', 'actual'].map((w) => [w, false] as const),
  ...['yes', 'y', 'true', '1', 'e', 'est', 'estimated', 'estimate'].map((w) => [w, true] as const),
]);

/** A row's estimated flag: yes/no in their usual spellings; null when it is neither. */
export function parseEstimated(text: string): boolean | null {
  return estimatedWords.get(text) ?? estimatedWords.get(text.trim().toLowerCase()) ?? null;
}

/** Digits, at most one point between digits, an optional leading minus: what Number() reads alike. */
function plainDecimal(text: string): boolean {
  const n = text.length;
  const i = n > 0 && text.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= n || n > 20) return false;
  let point = -1;
  for (let k = i; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === 46 && point < 0 && k > i && k < n - 1) point = k;
    else if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * A text of its own: a value read from a large file is a view into the slice of text it came from
 * (V8 keeps substrings of 13 characters or more as views), which would keep that whole megabyte.
 */
export function own(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/** One string per distinct short text (dates, units) instead of one per row; bounded. */
const sharedTexts = new Map<string, string>();
export function shared(text: string): string {
  const hit = sharedTexts.get(text);
  if (hit !== undefined) return hit;
  if (sharedTexts.size > 100_000) sharedTexts.clear();
  const copy = own(text);
  sharedTexts.set(copy, copy);
  return copy;
}
