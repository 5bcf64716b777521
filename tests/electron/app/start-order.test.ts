/**
 * Issue 18's start order: the workspace last worked on opens from disk and answers the window (its
 * snapshot, edits) while the local sandbox's process is still starting; calls that need the service
 * wait for it, and the window hears when the session is up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BridgeEventName } from '../../../shared/bridge/contract';
import { startAppCore } from '../../../electron/app/app-core';
import { nodeSandboxSpawner, type SpawnSandbox } from '../../../electron/app/embedded-sandbox';
import { MemorySecretStore } from '../../../electron/auth/secret-store';
import { testAssessmentYear } from '../../../support/test-app';

/** The real sandbox, whose "started" message reaches the app only once `open()` is called. */
function heldSandbox(): { spawn: SpawnSandbox; open(): void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const real = nodeSandboxSpawner();
  return {
    open: () => open(),
    spawn: (env) => {
      const child = real(env);
      return {
        ...child,
        onMessage: (listener) => child.onMessage((message) => void gate.then(() => listener(message))),
      };
    },
  };
}

const options = (dataDir: string) => ({
  dataDir,
  version: 'test',
  host: 'browser' as const,
  assessmentYear: testAssessmentYear,
  secrets: {
    store: new MemorySecretStore(),
    status: { available: true as const, backend: 'keychain' as const },
  },
});

const pendingAfter = async (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  (await Promise.race([
    promise.then(() => 'settled'),
    new Promise((r) => setTimeout(() => r('pending'), ms)),
  ])) === 'pending';

describe('start order', () => {
  it('draws the workspace from disk before the sandbox is up, and says when the session is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-start-'));
    // A first run fills the workspace from the sandbox (and caches the entities).
    const first = await startAppCore(options(dataDir));
    await first.connected;
    const before = await first.handlers['workspace.snapshot']({});
    await first.close();
    expect(before.assets.length).toBeGreaterThan(0);

    const held = heldSandbox();
    const core = await startAppCore({ ...options(dataDir), spawnSandbox: held.spawn });
    const heard: BridgeEventName[] = [];
    core.events.attach({ emit: (name) => void heard.push(name) });
    try {
      await core.ready;
      const session = await core.handlers['session.get']({});
      expect(session).toMatchObject({ connecting: true, activeEntityId: before.entity.id });
      expect(session.auth.signedIn).toBe(false);
      const snapshot = await core.handlers['workspace.snapshot']({});
      expect(snapshot.assets.map((a) => a.localId)).toEqual(before.assets.map((a) => a.localId));

      // The analyst can type meanwhile; what needs the service waits for it.
      const target = snapshot.assets[0]!;
      await core.handlers['workspace.edit']({
        edits: [{ localId: target.localId, path: 'city', value: 'Utrecht' }],
      });
      const review = Promise.resolve(core.handlers['sync.dryRun']({}));
      expect(await pendingAfter(review, 300)).toBe(true);
      expect(heard).not.toContain('session.changed');

      held.open();
      await core.connected;
      await review;
      expect(heard).toContain('session.changed');
      const up = await core.handlers['session.get']({});
      expect(up).toMatchObject({ connecting: false, activeEntityId: before.entity.id });
      expect(up.auth.signedIn).toBe(true);
      // The same file stayed open: the edit typed while connecting is there, and nothing reloaded.
      const after = await core.handlers['workspace.snapshot']({});
      expect(after.assets.find((a) => a.localId === target.localId)?.doc['city']).toBe('Utrecht');
      expect(heard).not.toContain('workspace.changed');
    } finally {
      held.open();
      await core.close();
    }
  }, 60_000);
  it('holds the session back until the window shows every row, and no longer than that', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-start-'));
    const first = await startAppCore(options(dataDir));
    await first.connected;
    expect((await first.handlers['workspace.snapshot']({})).assets.length).toBeGreaterThan(1);
    await first.close();

    const core = await startAppCore(options(dataDir));
    try {
      await core.ready;
      // The window drew its first page and reads the rest: past the wait for a window that never
      // asks (2 s), the session still waits for it.
      const snapshot = await core.handlers['workspace.snapshot']({ limit: 1 });
      expect(snapshot.next).not.toBeNull();
      await core.handlers['workspace.assets']({ after: snapshot.next!, limit: 1_000 });
      expect(await pendingAfter(core.connected, 2_500)).toBe(true);
      expect((await core.handlers['session.get']({})).connecting).toBe(true);
      // Said at once (it does not wait for the session it lets go), and the session follows.
      const shown = Promise.resolve(core.handlers['app.workspaceShown']({}));
      expect(await pendingAfter(shown, 1_000)).toBe(false);
      expect(await shown).toBe(true);
      await core.connected;
      expect((await core.handlers['session.get']({})).connecting).toBe(false);
    } finally {
      await core.close();
    }
  }, 60_000);
});
