/**
 * Costly imports under the limits (issue 29): a workbook whose 5,000 tabs point at one worksheet
 * part (30.7 s and 2.2 GB before it was refused), and a CSV of 39 million commas that was never held
 * to the 4,096-column limit (28 s, then "Map maximum size exceeded"). Each is refused through the
 * app's import (its worker thread) by the rule it breaks, leaving the workspace as it was; how fast:
 * `npm run bench hostile-inputs`.
 */
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbookError } from '../../../electron/workbook/workbook-limits';
import { previewImportFile } from '../../../electron/workbook/workspace-workbook';
import type { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { seededWorkspace, snapshot, tmpDir } from '../../../support/workbook-fixtures';
import { commasCsv, hostile } from '../../../support/hostile-books';

const stores: WorkspaceStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

async function refusal(file: string): Promise<WorkbookError> {
  const { store } = seededWorkspace(2, 0);
  stores.push(store);
  const before = snapshot(store);
  const error = await previewImportFile(store, file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkbookError);
  expect(snapshot(store)).toEqual(before);
  return error as WorkbookError;
}

describe('imports that cost far more than their size', () => {
  it('tabs that share one worksheet part are refused before any is read', async () => {
    const file = hostile.sharedParts(tmpDir());
    expect(statSync(file).size).toBeLessThan(2 * 1024 * 1024);
    const error = await refusal(file);
    expect(error.kind).toBe('corrupt');
    expect(error.message).toMatch(/tabs "T0" and "T1" of this workbook point at the same worksheet/);
  });

  it("a CSV is held to the workbook's column limit", async () => {
    const error = await refusal(commasCsv(tmpDir()));
    expect(error.kind).toBe('too_many_columns');
    expect(error.message).toMatch(/beyond column 4,096/);
  });
});
