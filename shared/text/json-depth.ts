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
