/**
 * Issue 33: a batch filled from a slice of the plan planned in the batch's own transaction takes
 * the rows as that slice read them (the same snapshot), instead of reading them a second time; rows
 * planned before (a review drains the plan) are read again when their batch is filled, so an edit
 * made since goes out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { makeClient, makeEngine, newAsset } from '../../../support/sync-harness';

/** The batch planner's read of a batch's rows again (`LedgerPort.assetDocs`). */
const readAgain = (text: string) => text.includes('NULL AS server_validations');

function countedWorkspace(): { store: WorkspaceStore; reads: () => number } {
  let reads = 0;
  const file = join(mkdtempSync(join(tmpdir(), 'asset-desk-ws-')), 'workspace.sqlite');
  const store = WorkspaceStore.open(file, {
    onStatement: (text) => {
      if (readAgain(text)) reads++;
    },
  });
  return { store, reads: () => reads };
}

describe('the batch planner', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('reads a row once when its slice is planned with its batch, again when planned before', async () => {
    const { store, reads } = countedWorkspace();
    // In main, where the test sees the statements (the worker runs the same code).
    const { engine } = makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId, {
      localWork: 'inline',
      maxPerField: 2,
    });
    await engine.sync();

    // No review first: each batch's slice is planned as the batch is filled.
    for (let i = 0; i < 6; i++) store.createAsset(newAsset(200 + i));
    let before = reads();
    expect(await engine.push()).toMatchObject({ created: 6, requests: 3 });
    expect(reads() - before).toBe(0);

    // A review drains the plan first: each batch reads its rows again when it is filled, so an edit
    // made while the first batch is out goes out with a later one.
    let edit: (() => void) | undefined;
    const client = makeClient(h.baseUrl, h.token, {
      fetch: (input, init) => {
        if (init?.method === 'POST') edit?.();
        edit = undefined;
        return fetch(input, init);
      },
    });
    const reviewed = makeEngine(store, client, h.entityId, { localWork: 'inline', maxPerField: 2 }).engine;
    const ids = Array.from({ length: 12 }, (_, i) => store.createAsset(newAsset(300 + i)).localId);
    expect((await reviewed.review()).creates).toHaveLength(12);
    edit = () => store.setValue(ids[11] as string, 'city', 'Edited while the first batch is out');
    before = reads();
    expect(await reviewed.push()).toMatchObject({ created: 12, requests: 6 });
    expect(reads() - before).toBe(6);
    const sent = store.asset(ids[11] as string)?.serviceAssetId as number;
    expect((await makeClient(h.baseUrl, h.token).getAsset(h.entityId, sent)).city).toBe(
      'Edited while the first batch is out',
    );
    store.close();
  });
});
