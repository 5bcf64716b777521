import { describe, expect, it } from 'vitest';
import { bridgeMethods } from '../../../shared/bridge/contract';
import { handCellsBatch } from '../../../shared/history/hand-cells';

describe('workspace.handCells arguments (the grid marks ask for the rows drawn only)', () => {
  const args = bridgeMethods['workspace.handCells'].args;

  it('takes up to a batch of asset ids', () => {
    expect(args.safeParse({ ids: [] }).success).toBe(true);
    expect(args.safeParse({ ids: Array.from({ length: handCellsBatch }, (_, i) => `a${i}`) }).success).toBe(
      true,
    );
  });

  it('refuses the whole workspace: no ids, too many, or anything else', () => {
    expect(args.safeParse({}).success).toBe(false);
    expect(
      args.safeParse({ ids: Array.from({ length: handCellsBatch + 1 }, (_, i) => `a${i}`) }).success,
    ).toBe(false);
    expect(args.safeParse({ ids: [''] }).success).toBe(false);
    expect(args.safeParse({ ids: ['a'], all: true }).success).toBe(false);
  });
});
