/**
 * Adapter: the shared domain keeps its value readers (`toNumber`, `isIsoDate`) internal. These
 * follow the same rules (Rails-style decimal strings, strict calendar dates) so typed storage
 * agrees with what the rules accepted. Replace with the domain's once its index exports them.
 */
const decimalPattern = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : NaN;
  if (typeof v === 'string' && decimalPattern.test(v)) return Number(v);
  return NaN;
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(v: string): boolean {
  const m = datePattern.exec(v);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}
