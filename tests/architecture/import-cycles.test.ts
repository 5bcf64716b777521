import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph';

/**
 * No import circle anywhere in the source (issue 35). A circle makes two modules one in all but
 * name: neither can be read, tested or moved without the other, and the order in which their
 * top-level code runs depends on who imported first. Type-only imports count too: they do not run,
 * but they tie the same two modules together for the reader and for every refactoring, and a type
 * that two modules both need belongs to a third.
 */
const sourceFolders = ['electron', 'shared', 'renderer', 'sandbox', 'bench'] as const;

describe('the import graph of the source', () => {
  it('has no circle', () => {
    const cycles = importCycles(importGraph(sourceFolders));
    expect(cycles, `import circles:\n${cycles.join('\n')}`).toEqual([]);
  });
});
