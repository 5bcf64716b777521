/**
 * A cell's parts read from a worksheet's bytes where they lie (`sheet-bytes.ts`): a number from its
 * digits, a reference's column, a plain inline string, the next tag of a kind within a row.
 */

/** 10^0 to 10^22, each exact as a double. */
const POWERS = Array.from({ length: 23 }, (_, n) => 10 ** n);

/**
 * A number's text at `from` to `to` read from its digits, when that gives what `Number` gives for
 * it exactly: an optional minus, at most 15 digits with an optional point, an optional exponent,
 * and a power of ten of at most 22 either way. The digits then make an exact integer below 2^53 and
 * the power an exact double, so the one multiplication or division rounds once, as `Number` does.
 * Anything else (a plus, spaces, more digits): undefined, for `Number` to read.
 */
export function numberAt(buf: Uint8Array, from: number, to: number): number | undefined {
  let i = from;
  const negative = buf[i] === 45;
  if (negative) i++;
  let digits = 0;
  let fraction = 0;
  let n = 0;
  let point = false;
  for (; i < to; i++) {
    const c = buf[i]!;
    const d = c - 48;
    if (d >= 0 && d <= 9) {
      n = n * 10 + d;
      digits++;
      if (point) fraction++;
    } else if (c === 46 && !point) point = true;
    else break;
  }
  if (digits === 0 || digits > 15) return undefined;
  let exponent = 0;
  if (i < to) {
    if (buf[i] !== 69 && buf[i] !== 101) return undefined;
    i++;
    const minus = buf[i] === 45;
    if (minus || buf[i] === 43) i++;
    const first = i;
    for (; i < to; i++) {
      const d = buf[i]! - 48;
      if (d < 0 || d > 9) return undefined;
      exponent = exponent * 10 + d;
      if (exponent > 400) return undefined;
    }
    if (i === first) return undefined;
    if (minus) exponent = -exponent;
  }
  const power = exponent - fraction;
  let value: number;
  if (power === 0) value = n;
  else if (power > 0 && power <= 22) value = n * POWERS[power]!;
  else if (power < 0 && power >= -22) value = n / POWERS[-power]!;
  else return undefined;
  return negative ? -value : value;
}

/** The first `needle` at or after `from` that ends by `to`; -1 when none. */
export function find(buf: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  const first = needle[0]!;
  const last = to - needle.length;
  outer: for (let i = from; i <= last; i++) {
    if (buf[i] !== first) continue;
    for (let k = 1; k < needle.length; k++) if (buf[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

export const CELL_CLOSE = Buffer.from('</c>');
export const V_CLOSE = Buffer.from('</v>');
const INLINE_OPEN = Buffer.from('<is><t>');
const INLINE_OPEN_SPACE = Buffer.from('<is><t xml:space="preserve">');
const INLINE_CLOSE = Buffer.from('</t></is>');

export const startsWith = (buf: Uint8Array, at: number, bytes: Uint8Array): boolean => {
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false;
  return true;
};

/** The column of the cell reference at `at` ("AB12" -> 28; 0 when it has no letters). */
export function columnAt(buf: Uint8Array, at: number, to: number): number {
  let n = 0;
  for (let i = at; i < to; i++) {
    const c = buf[i]!;
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return n;
}

/** The text from `at` to the next quote before `to`, as a tag's slice to its quote reads it. */
export function quoted(buf: Buffer, at: number, to: number): string {
  const quote = buf.indexOf(34, at);
  return buf.toString('utf8', at, quote >= 0 && quote < to ? quote : to - 1);
}

export const INLINE_STR = Buffer.from('inlineStr"');
/** An inline string of one plain run (`<is><t>text</t></is>`, no markup or escape in it); else undefined. */
export function plainInline(buf: Buffer, inner: number, close: number): string | undefined {
  const open = startsWith(buf, inner, INLINE_OPEN)
    ? INLINE_OPEN.length
    : startsWith(buf, inner, INLINE_OPEN_SPACE)
      ? INLINE_OPEN_SPACE.length
      : -1;
  if (open < 0) return undefined;
  const from = inner + open;
  let i = from;
  for (; i < close; i++) {
    const c = buf[i];
    if (c === 60 || c === 38) break;
  }
  if (i + INLINE_CLOSE.length !== close || !startsWith(buf, i, INLINE_CLOSE)) return undefined;
  return buf.toString('utf8', from, i);
}
