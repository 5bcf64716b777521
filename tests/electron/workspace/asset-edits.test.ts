/**
 * The partners id a new asset is given: short enough to read and type (issue 30, item 13: ids of
 * 14–15 digits such as 53788525108062 were generated), yet random, so two laptops rarely meet.
 */
import { describe, expect, it } from 'vitest';
import { newPartnersId } from '../../../electron/workspace/asset-edits';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('partners ids of new assets', () => {
  it('are positive integers of at most 9 digits', () => {
    for (let i = 0; i < 2_000; i++) {
      const id = newPartnersId();
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(100_000_000);
      expect(id).toBeLessThanOrEqual(999_999_999);
    }
  });

  it('are given to an asset created without one, and kept when it has one', () => {
    const { store } = tempWorkspace('partners-ids');
    const { partners_id: _none, ...doc } = newAsset(1) as Record<string, unknown>;
    const created = store.createAsset(doc);
    expect(String(created.partnersId)).toMatch(/^[1-9]\d{8}$/);
    expect(store.createAsset({ ...newAsset(2), partners_id: 42 }).partnersId).toBe(42);
    store.close();
  });
});
