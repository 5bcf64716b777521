/**
 * A sliced step's log: synced while it grows and checkpointed by a worker thread's connection once
 * committed, so main's COMMIT neither syncs a gigabyte nor copies it into the file itself.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkpointOffMain, WalFlusher } from '../../../electron/workspace/wal-flush';
import { newAsset, tempWorkspace } from '../../../support/sync-harness';

describe('a sliced step and the write-ahead log', () => {
  it('commits without checkpointing on main; the worker copies the log into the file', async () => {
    const { store, file } = tempWorkspace('wal-flush');
    await store.slicedStep('import of 300 assets', async (pause) => {
      for (let i = 0; i < 300; i++) {
        store.createAsset(newAsset(i));
        await pause();
      }
    });
    // Committed and readable from another connection.
    const other = new Database(file, { readonly: true });
    expect((other.prepare('SELECT COUNT(*) AS n FROM assets').get() as { n: number }).n).toBe(300);
    other.close();
    store.close();
  });

  it('checkpoints the log in a worker: the file itself then holds what was committed', async () => {
    const { store, file } = tempWorkspace('wal-checkpoint');
    // Plain steps of a few pages: SQLite's own checkpoint (past 1,000 pages) never runs.
    for (let i = 0; i < 50; i++) store.step('adding an asset', () => store.createAsset(newAsset(i)));
    const before = statSync(file).size;
    await checkpointOffMain(file);
    expect(statSync(file).size).toBeGreaterThan(before);
    const raw = new Database(file);
    const left = raw.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    expect(left[0]?.log).toBe(left[0]?.checkpointed);
    raw.close();
    store.close();
  });

  it('syncs the log without a step, and without a log', async () => {
    const { store, file } = tempWorkspace('wal-flush-sync');
    store.step('adding an asset', () => store.createAsset(newAsset(1)));
    await new WalFlusher(file).settle();
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    await new WalFlusher(`${file}-missing`).settle();
    store.close();
  });
});
