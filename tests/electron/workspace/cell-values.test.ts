import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellsOf, changedCells } from '../../../electron/workspace/cell-values';
import type { AssetDoc } from '../../../shared/sync/asset-doc';

/** The cells that differ, found the slow, obvious way: both documents flattened. */
function byFlattening(before: AssetDoc | null, after: AssetDoc | null) {
  const a = cellsOf('asset', before);
  const b = cellsOf('asset', after);
  const out = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    const previous = a.get(path) ?? null;
    const value = b.get(path) ?? null;
    if (previous !== value) out.push({ path, previous, value });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : 1));
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 0, max: 3 }),
  fc.constantFrom('a', 'b'),
  fc.boolean(),
);
const annual = fc.record({ year: fc.constantFrom(2023, 2024), en_abs_wf: scalar, wat_abs_w: scalar });
const cert = fc.record({ id: fc.constantFrom(1, 2), level: scalar, size: scalar });
const doc = fc.option(
  fc.record({
    name: scalar,
    size: scalar,
    annual_data: fc.array(annual, { maxLength: 3 }),
    certifications: fc.array(cert, { maxLength: 2 }),
  }),
  { nil: null },
);

describe("an asset's changed cells", () => {
  it('are the cells whose flattened values differ, with both values', () => {
    fc.assert(
      fc.property(doc, doc, (before, after) => {
        const found = changedCells('asset', before as AssetDoc | null, after as AssetDoc | null).sort(
          (x, y) => (x.path < y.path ? -1 : 1),
        );
        expect(found).toEqual(byFlattening(before as AssetDoc | null, after as AssetDoc | null));
      }),
      { numRuns: 500 },
    );
  });
});
