/**
 * How deep JSON nests, read before it is parsed. A size limit is not enough: 9.5 MB of `[` held
 * main for 8.5 s in `JSON.parse`, and a 30 MB page of nested arrays cost 59 s and 3.4 GB before a
 * reader overflowed its stack (issue 29). A byte scan that stops at the first level too deep costs
 * a few milliseconds on the largest answer the app reads, and nothing it legitimately reads (an
 * asset, a batch answer, a bridge call) nests past a dozen levels.
 */

/** Far above anything the service or the page sends (an asset nests 4 levels deep). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `json` (bytes or text) opens more than `max` arrays or objects inside each other,
 * counting only brackets outside strings. Invalid JSON that stays shallow passes: the parser that
 * follows says what is wrong with it. Strings are skipped with `indexOf` (native), so the cost is in
 * the structure, not in the text. (Two copies of one loop: a shared one through closures ran at a
 * tenth of the speed.)
 */
export function jsonNestsDeeperThan(json: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  return typeof json === 'string' ? textNestsDeeper(json, max) : bytesNestDeeper(json, max);
}

function bytesNestDeeper(json: Uint8Array, max: number): boolean {
  const n = json.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = json[i] as number;
    if (c === QUOTE) {
      // To the string's closing quote: one not escaped by an odd run of backslashes.
      for (;;) {
        const end = json.indexOf(QUOTE, i + 1);
        if (end < 0) return false;
        let slashes = 0;
        while (json[end - 1 - slashes] === BACKSLASH) slashes++;
        i = end;
        if ((slashes & 1) === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

function textNestsDeeper(json: string, max: number): boolean {
  const n = json.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      for (;;) {
        const end = json.indexOf('"', i + 1);
        if (end < 0) return false;
        let slashes = 0;
        while (json.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if ((slashes & 1) === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

/**
 * The same reading over bytes as they arrive, chunk by chunk (an answer refused at its first 64 KB
 * instead of after 30 MB): `push` is true once the nesting has gone past `max`.
 */
export class JsonDepthScan {
  private depth = 0;
  private inString = false;
  /** The next byte is escaped (a chunk ended on an odd run of backslashes inside a string). */
  private escaped = false;
  private over = false;

  constructor(private readonly max = MAX_JSON_DEPTH) {}

  push(chunk: Uint8Array): boolean {
    if (this.over) return true;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const c = chunk[i] as number;
      i++;
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++this.depth > this.max) return (this.over = true);
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) this.depth--;
    }
    return false;
  }

  /** From `from` inside a string: past its closing quote, or to the chunk's end. */
  private skipString(chunk: Uint8Array, from: number): number {
    let p = from;
    if (this.escaped) {
      this.escaped = false;
      p++;
    }
    const n = chunk.length;
    for (;;) {
      if (p >= n) return n;
      const q = chunk.indexOf(QUOTE, p);
      // Backslashes are counted back to `p` only: what lies before it was read already.
      let slashes = 0;
      for (let k = (q < 0 ? n : q) - 1; k >= p && chunk[k] === BACKSLASH; k--) slashes++;
      if (q < 0) {
        this.escaped = (slashes & 1) === 1;
        return n;
      }
      if ((slashes & 1) === 0) {
        this.inString = false;
        return q + 1;
      }
      p = q + 1;
    }
  }
}
