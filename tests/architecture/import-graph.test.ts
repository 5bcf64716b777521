import { describe, expect, it } from 'vitest';
import { importCycles } from './import-graph';

describe('importCycles', () => {
  it('finds a circle of two files and one of three, and nothing in a chain', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
      ['f.ts', ['a.ts']],
    ]);
    expect(importCycles(graph)).toEqual(['a.ts → b.ts → a.ts', 'c.ts → d.ts → e.ts → c.ts']);
  });

  it('finds a file that imports itself', () => {
    expect(importCycles(new Map([['a.ts', ['a.ts']]]))).toEqual(['a.ts → a.ts']);
  });

  it('finds none in a tree', () => {
    expect(
      importCycles(
        new Map([
          ['a.ts', ['b.ts', 'c.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
