import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonDepthScan, jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../../shared/text/json-depth';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const both = (text: string, max?: number) => [
  jsonNestsDeeperThan(text, max),
  jsonNestsDeeperThan(new TextEncoder().encode(text), max),
];

describe('JSON nesting read before parsing', () => {
  it('counts arrays and objects, not brackets inside strings or after escapes', () => {
    expect(both(nested(MAX_JSON_DEPTH))).toEqual([false, false]);
    expect(both(nested(MAX_JSON_DEPTH + 1))).toEqual([true, true]);
    expect(both('{"a":{"b":[{"c":1}]}}', 3)).toEqual([true, true]);
    expect(both('{"a":{"b":[{"c":1}]}}', 4)).toEqual([false, false]);
    expect(both('["[[[[[", "\\"[[[[", "\\\\", [1]]', 2)).toEqual([false, false]);
    expect(both('["\\\\"', 1)).toEqual([false, false]);
  });

  it('stops at the first level too deep (9.5 MB of "[")', () => {
    expect(jsonNestsDeeperThan('['.repeat(9_500_000))).toBe(true);
    expect(jsonNestsDeeperThan(new Uint8Array(9_500_000).fill(0x5b))).toBe(true);
  });
});

describe('JSON nesting read as the bytes arrive', () => {
  const pieces = ['[', ']', '{', '}', '"', '\\', 'a', ',', ':', '1'];
  it('agrees with the whole reading wherever the chunks are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 60 }),
        fc.array(fc.nat(60), { maxLength: 6 }),
        fc.integer({ min: 1, max: 6 }),
        (chars, cuts, max) => {
          const bytes = new TextEncoder().encode(chars.join(''));
          const scan = new JsonDepthScan(max);
          let over = false;
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b).concat(bytes.length)) {
            const end = Math.min(Math.max(cut, at), bytes.length);
            over = scan.push(bytes.subarray(at, end)) || over;
            at = end;
          }
          expect(over).toBe(jsonNestsDeeperThan(bytes, max));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
