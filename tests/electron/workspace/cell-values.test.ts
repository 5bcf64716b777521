import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellsOf, changedCells } from '../../../electron/workspace/cell-values';
import { AssetPathError, setPathValue, type AssetDoc } from '../../../shared/sync/asset-doc';

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

  it('are found among the paths a cell edit set as the walk of both finds them, whatever the paths', () => {
    const path = fc.constantFrom(
      'name',
      'size',
      'partners_id',
      'annual_data',
      'annual_data/2023/en_abs_wf',
      'annual_data/2024/wat_abs_w',
      'annual_data/2024/year',
      'annual_data/2022/en_abs_wf',
      'certifications/id:1/level',
    );
    const edits = fc.array(fc.record({ path, value: scalar }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(doc, edits, (start, list) => {
        const before = (start ?? { name: 'x' }) as AssetDoc;
        let after = before;
        try {
          for (const edit of list) after = setPathValue(after, edit.path, edit.value);
        } catch (error) {
          // An edit of an entry the asset does not have is refused before anything is recorded.
          if (error instanceof AssetPathError) return;
          throw error;
        }
        const among = list.map((edit) => edit.path);
        expect(changedCells('asset', before, after, among)).toEqual(byFlattening(before, after));
      }),
      { numRuns: 1_000 },
    );
  });
});
