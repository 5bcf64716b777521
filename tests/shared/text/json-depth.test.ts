import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../../shared/text/json-depth';

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
