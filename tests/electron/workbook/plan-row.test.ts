import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AssetInput } from '../../../shared/domain';
import { planImport } from '../../../electron/workbook/import-plan';
import { nativeDeflate } from '../../../electron/workbook/native-deflate';
import { readWorkbook } from '../../../electron/workbook/read-workbook';
import type { AssetRecord } from '../../../electron/workspace/asset-record';
import { writeAssetWorkbook } from '../../../shared/workbook/write-workbook';
import { inStepRecord } from '../../../support/workbook-fixtures';

/**
 * An asset's certifications and energy ratings read back from a book are checked for change with no
 * record copied: held here to what laying the rows over the workspace's copy gives, record by
 * record (the same, a field changed, one more, an ID not on the asset, unsent ones in order or not).
 */

const dir = mkdtempSync(join(tmpdir(), 'plan-row-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Records = Array<Record<string, unknown>>;
const cert = (fields: Record<string, unknown>): Record<string, unknown> => ({
  certification_id: 1,
  level: 'Very Good',
  size: 500,
  year: 2020,
  ...fields,
});

const asset = (n: number, certifications: Records, energyRatings: Records = []): AssetInput =>
  ({
    service_asset_id: 1000 + n,
    name: `Asset ${n}`,
    certifications,
    energy_ratings: energyRatings,
  }) as unknown as AssetInput;

const record = (doc: AssetInput): AssetRecord =>
  inStepRecord(`local-${String(doc.service_asset_id)}`, doc.service_asset_id as number, doc);

async function statuses(book: AssetInput[], workspace: AssetInput[]): Promise<string[]> {
  const file = join(dir, `book-${Math.random().toString(36).slice(2)}.xlsx`);
  const handle = await open(file, 'w');
  try {
    await writeAssetWorkbook(handle, book, { years: [2024] }, nativeDeflate);
  } finally {
    await handle.close();
  }
  const plan = planImport(await readWorkbook(file), workspace.map(record));
  return workspace.map((doc) => plan.rows.find((r) => r.serviceAssetId === doc.service_asset_id)!.status);
}

describe("the preview's unchanged check of nested records", () => {
  it('finds unchanged only what the rows would leave as they are', async () => {
    const book = [
      asset(
        1,
        [cert({ id: 7 }), cert({ id: 8, level: 'Good' })],
        [{ id: 3, energy_rating_id: 1, level: 'B' }],
      ),
      asset(2, [cert({ id: 7 })]),
      asset(3, [cert({ id: 7 })]),
      asset(4, [cert({ id: 7 })]),
      asset(5, [cert({}), cert({ level: 'Good' })]),
      asset(6, [cert({}), cert({ level: 'Good' })]),
      asset(7, []),
      asset(8, [cert({ id: 7, size: 400 })]),
    ];
    const workspace = [
      book[0]!, // the same
      asset(2, [cert({ id: 7, level: 'Good' })]), // a level changed
      asset(3, [cert({ id: 7 }), cert({ id: 9 })]), // one more in the workspace
      asset(4, []), // none in the workspace: record 7 is not on the asset
      book[4]!, // unsent, in the same order
      asset(6, [cert({ level: 'Good' }), cert({})]), // unsent, the other order
      asset(7, []), // none either side
      asset(8, [cert({ id: 7, size: undefined })]), // a field the workspace has not
    ];
    expect(await statuses(book, workspace)).toEqual([
      'unchanged',
      'changed',
      'changed',
      'rejected',
      'unchanged',
      'changed',
      'unchanged',
      'changed',
    ]);
  });
});
