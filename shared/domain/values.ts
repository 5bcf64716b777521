/**
 * Value checks used in the hot loop. Written without regexes and without allocating so that a
 * workspace of 60,000 annual records validates well inside the 0.5 s budget.
 */

/** Empty values are exempt from format rules and count as "not given" (spec: empty string or null). */
export function isBlank(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
    }
    return true;
  }
  return false;
}

function isNumericString(s: string): boolean {
  // Rails numericality accepts decimal strings; mirror that so workbook text like "12.5" passes.
  let i = 0;
  let n = s.length;
  while (i < n && s.charCodeAt(i) === 32) i++;
  while (n > i && s.charCodeAt(n - 1) === 32) n--;
  if (i < n && (s.charCodeAt(i) === 45 || s.charCodeAt(i) === 43)) i++;
  let digits = 0;
  let dot = false;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot) dot = true;
    else return false;
  }
  return digits > 0;
}

/** The numeric value of a number or decimal string, or NaN when it is neither. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string' && isNumericString(v)) return Number(v);
  return NaN;
}

// A top-level function, not a closure: tsx/esbuild's keepNames wraps every closure creation in a
// `__name` call, which cost more than the whole date check when it ran per value.
function digitAt(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/** Strict ISO `YYYY-MM-DD` with a real calendar day. */
export function isIsoDate(v: string): boolean {
  if (v.length !== 10) return false;
  for (let i = 0; i < 10; i++) {
    const c = v.charCodeAt(i);
    if (i === 4 || i === 7) {
      if (c !== 45) return false;
    } else if (c < 48 || c > 57) return false;
  }
  const y = digitAt(v, 0) * 1000 + digitAt(v, 1) * 100 + digitAt(v, 2) * 10 + digitAt(v, 3);
  const m = digitAt(v, 5) * 10 + digitAt(v, 6);
  const d = digitAt(v, 8) * 10 + digitAt(v, 9);
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = m === 2 ? (leap ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return d <= days;
}

export function addMessage(target: Record<string, string[]>, key: string, message: string): void {
  const list = target[key];
  if (list === undefined) target[key] = [message];
  else if (!list.includes(message)) list.push(message);
}

/** Tolerance for "equals size" comparisons: analysts round areas, and decimals arrive as text. */
export function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(0.5, Math.abs(b) * 1e-9);
}
