/**
 * Crash safety: a child process works on a workspace and is killed with SIGKILL at random points.
 * Reopened, the workspace holds every edit that was acknowledged, and the journal is consistent.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, makeEngine, newAsset, tempWorkspace } from '../../../support/sync-harness';
import { historyOp, historyState } from './fixtures/history-ops';
import { pendingOf } from '../../../electron/sync/pending-work';

const child = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

/** Runs the child until `killWhen` says so (or it exits), then SIGKILLs it; returns its stdout lines. */
function runAndKill(
  args: string[],
  killWhen: (lines: string[]) => boolean,
  maxMs = 20_000,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => proc.kill('SIGKILL'), maxMs);
    proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      lines.push(...parts);
      if (killWhen(lines)) proc.kill('SIGKILL');
    });
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child failed (${code}): ${stderr}`));
      else resolve(lines);
    });
  });
}

/** A deterministic "random" so a failure can be replayed. */
function sequence(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('crash safety', () => {
  it(
    'every acknowledged edit survives SIGKILL, and the journal matches the data',
    { timeout: 120_000 },
    async () => {
      const next = sequence(42);
      for (let round = 0; round < 5; round++) {
        const { store, file } = tempWorkspace(`crash-${round}`);
        for (let i = 0; i < 10; i++) store.createAsset(newAsset(i));
        const ids = store.listAssets().map((record) => record.localId);
        store.close();

        const killAfter = 20 + Math.floor(next() * 400);
        const lines = await runAndKill(['edit', file], (out) => out.length >= killAfter);
        const acked = Math.max(
          0,
          ...lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4))),
        );
        expect(acked).toBeGreaterThanOrEqual(killAfter);

        const db = new Database(file, { readonly: true });
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const journalled = (
          db.prepare("SELECT payload FROM journal WHERE kind = 'set'").all() as Array<{ payload: string }>
        )
          .flatMap(
            (row) => (JSON.parse(row.payload) as { edits: Array<{ path: string; value: string }> }).edits,
          )
          .filter((entry) => entry.path === 'address')
          .map((entry) => Number(entry.value.slice('edit '.length)));
        db.close();
        // Each edit is journalled with its data in one transaction: the journal holds every acked edit
        // in order, and at most the one in flight when the kill came.
        const edits = Math.max(0, ...journalled);
        expect(journalled).toEqual(Array.from({ length: edits }, (_, i) => i + 1));
        expect(edits).toBeGreaterThanOrEqual(acked);
        expect(edits).toBeLessThanOrEqual(acked + 1);
        const reopened = WorkspaceStore.open(file);
        // The data agrees with the journal: each asset holds the last edit the journal gives it.
        for (const [index, localId] of ids.entries()) {
          let last = 0;
          for (let i = 1; i <= edits; i++) if (i % ids.length === index) last = i;
          const address = reopened.asset(localId)?.current?.['address'];
          expect(address ?? null).toBe(last === 0 ? null : `edit ${last}`);
        }
        reopened.close();
      }
    },
  );

  it(
    'undo and redo killed at random points lose no acknowledged step and leave the history whole',
    { timeout: 120_000 },
    async () => {
      const next = sequence(11);
      for (let round = 0; round < 4; round++) {
        const { store, file } = tempWorkspace(`crash-history-${round}`);
        for (let i = 0; i < 6; i++) store.createAsset(newAsset(i));
        const ids = store.listAssets().map((record) => record.localId);
        store.close();
        // The same run, in this process, on a copy made the same way: the state after each op.
        const { store: replay } = tempWorkspace(`crash-history-replay-${round}`);
        for (let i = 0; i < 6; i++) replay.createAsset(newAsset(i));
        const replayIds = replay.listAssets().map((record) => record.localId);

        const killAfter = 20 + Math.floor(next() * 300);
        const lines = await runAndKill(['history', file], (out) => out.length >= killAfter);
        const acked = Math.max(
          0,
          ...lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4))),
        );
        expect(acked).toBeGreaterThanOrEqual(killAfter);
        for (let i = 1; i <= acked; i++) historyOp(replay, replayIds, i);
        const atAck = historyState(replay, replayIds);
        historyOp(replay, replayIds, acked + 1);
        const oneMore = historyState(replay, replayIds);
        replay.close();

        const reopened = WorkspaceStore.open(file);
        // Every acknowledged op is there, and at most the one in flight; never half of one.
        expect([atAck, oneMore]).toContain(historyState(reopened, ids));
        reopened.close();
      }
    },
  );

  describe('killed mid-sync', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ rateLimit: { limit: 1_000, windowMs: 60_000 } });
    });
    afterAll(() => h?.close());

    it(
      'a sync killed at random points and restarted puts each asset on the service exactly once',
      { timeout: 120_000 },
      async () => {
        const next = sequence(7);
        const { store, file } = tempWorkspace('crash-sync');
        const prefix = `Crash sync ${Date.now()}`;
        for (let i = 0; i < 60; i++) store.createAsset({ ...newAsset(70_000 + i), name: `${prefix} #${i}` });
        store.close();

        for (let round = 0; round < 3; round++) {
          const killAt = 1 + Math.floor(next() * 6);
          await runAndKill(['sync', file, h.baseUrl, h.token, String(h.entityId)], (out) =>
            out.some((line) => line.startsWith(`progress push ${killAt}/`)),
          );
        }
        const reopened = WorkspaceStore.open(file);
        const { engine } = makeEngine(reopened, makeClient(h.baseUrl, h.token), h.entityId, {
          maxPerField: 5,
        });
        const report = await engine.sync();
        expect(report.stopped).toBeUndefined();
        const names = (await makeClient(h.baseUrl, h.token).listAllAssets(h.entityId))
          .map((asset) => asset.name)
          .filter((name) => name?.startsWith(prefix));
        expect(names).toHaveLength(60);
        expect(new Set(names).size).toBe(60);
        expect(pendingOf(reopened).creates).toEqual([]);
        expect(reopened.unsettledBatches()).toEqual([]);
        reopened.close();
      },
    );

    it(
      'a pull killed between pages keeps every pending delete and edit, and the next sync sends them',
      { timeout: 120_000 },
      async () => {
        const { store, file } = tempWorkspace('crash-pull');
        const prefix = `Crash pull ${Date.now()}`;
        for (let i = 0; i < 150; i++) store.createAsset({ ...newAsset(80_000 + i), name: `${prefix} #${i}` });
        await makeEngine(store, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
        const mine = store
          .listAssets()
          .filter((record) => record.current?.['name']?.toString().startsWith(prefix));
        const doomed = mine[120]?.localId as string;
        const edited = mine[121]?.localId as string;
        store.deleteAsset(doomed);
        store.setValue(edited, 'address', 'Kept through a kill');
        const doomedId = store.asset(doomed)?.serviceAssetId;
        store.close();

        for (const page of [1, 2]) {
          await runAndKill(['sync', file, h.baseUrl, h.token, String(h.entityId)], (out) =>
            out.some((line) => line.startsWith(`progress pull ${page}/`)),
          );
          const reopened = WorkspaceStore.open(file);
          const pending = pendingOf(reopened);
          // Killed mid-pull, before anything was pushed: both changes are still pending.
          expect(pending.deletes.map((r) => r.localId)).toContain(doomed);
          expect(pending.updates.map((u) => u.record.localId)).toContain(edited);
          reopened.close();
        }
        const reopened = WorkspaceStore.open(file);
        const report = await makeEngine(reopened, makeClient(h.baseUrl, h.token), h.entityId).engine.sync();
        expect(report.stopped).toBeUndefined();
        const remote = await makeClient(h.baseUrl, h.token).listAllAssets(h.entityId);
        expect(remote.map((a) => a.service_asset_id)).not.toContain(doomedId);
        const editedId = reopened.asset(edited)?.serviceAssetId;
        expect(remote.find((a) => a.service_asset_id === editedId)?.address).toBe('Kept through a kill');
        reopened.close();
      },
    );
  });
});
