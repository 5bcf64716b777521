/**
 * The app core's sign-in lifecycle: a token revoked mid-work pauses the sync and keeps the edits;
 * signing in again resumes it by itself. A machine without a keychain says so and keeps working.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localSandboxId } from '../../../electron/auth/connections';
import { openSecretStore } from '../../../electron/auth/secret-store';
import { grantableScopes } from '../../../shared/auth/scopes';
import { startAppCore } from '../../../electron/app/app-core';
import { startHarness } from '../../sandbox/helpers';
import { PortalClient, textOf } from '../../sandbox/portal-client';
import { startTestApp, testAssessmentYear, type TestApp } from '../../../support/test-app';

describe('sign-in lifecycle in the app', () => {
  let app: TestApp;
  const events: Array<{ name: string; payload: unknown }> = [];

  beforeAll(async () => {
    app = await startTestApp();
    app.core.events.attach({ emit: (name, payload) => events.push({ name, payload }) });
  });
  afterAll(() => app?.close());

  it('a revoked token pauses the sync with edits kept; signing in again resumes it', async () => {
    const { handlers, sandbox } = app.core;
    // The sandbox runs in its own process: the test acts as its user does, in the portal.
    const portal = new PortalClient(sandbox.baseUrl);
    expect((await portal.signIn(sandbox.demoUser.email, sandbox.demoUser.password)).status).toBe(303);
    const snapshot = await handlers['workspace.snapshot']({});
    const target = snapshot.assets[0];
    if (!target?.serviceAssetId) throw new Error('no synced asset');
    await handlers['workspace.edit']({
      edits: [{ localId: target.localId, path: 'address', value: 'Paused street 1' }],
    });

    // Revoke every token of the partner, the app's one among them.
    let page = await portal.get('/portal/data-partners');
    for (;;) {
      const action = /action="(\/portal\/data-partners\/tokens\/\d+\/delete)"/.exec(page.text)?.[1];
      if (!action) break;
      expect((await portal.submit(page.text, action)).status).toBe(303);
      page = await portal.get('/portal/data-partners');
    }
    const report = await handlers['sync.run']({});
    expect(report.stopped?.reason).toBe('unauthorized');
    expect(events).toContainEqual({
      name: 'auth.signInRequired',
      payload: { connectionId: localSandboxId, reason: 'unauthorized' },
    });
    const paused = await handlers['session.get']({});
    expect(paused.auth.paused).toBe(true);
    expect((await handlers['sync.review']({})).updates.map((u) => u.localId)).toContain(target.localId);

    const generated = await portal.submit(page.text, '/portal/data-partners/tokens', {
      name: 'pasted again',
      expires_on: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      scopes: [...grantableScopes],
    });
    const fresh = { token: textOf(generated.text, 'new-token') ?? '' };
    expect(fresh.token).not.toBe('');
    const before = events.length;
    const session = await handlers['auth.signInWithToken']({
      connectionId: localSandboxId,
      token: fresh.token,
    });
    expect(session.auth).toMatchObject({ signedIn: true, paused: false });
    // The paused sync goes out by itself.
    await expect
      .poll(() => events.slice(before).some((e) => e.name === 'workspace.changed'), { timeout: 15_000 })
      .toBe(true);
    expect((await handlers['sync.review']({})).updates).toEqual([]);
    const remote = await fetch(
      `${sandbox.baseUrl}/api/v1/entities/${snapshot.entity.id}/assets/${target.serviceAssetId}`,
      {
        headers: { Authorization: `Bearer ${fresh.token}` },
      },
    );
    expect(((await remote.json()) as { address: string }).address).toBe('Paused street 1');
  });

  it('a custom connection: added, signed in with a pasted token, and its entity list kept for offline use', async () => {
    const { handlers } = app.core;
    const remote = await startHarness();
    const url = remote.baseUrl.replace('127.0.0.1', 'localhost');
    await expect(
      handlers['connections.add']({
        name: 'Plain http',
        baseUrl: 'http://example.com',
        portalUrl: 'http://example.com',
        authUrl: 'http://example.com',
      }),
    ).rejects.toThrow(/Check the connection/);

    const added = await handlers['connections.add']({
      name: 'Real service (test)',
      baseUrl: url,
      portalUrl: url,
      authUrl: url,
    });
    const custom = added.connections.find((c) => c.name === 'Real service (test)');
    expect(custom?.active).toBe(true);
    expect(added.auth.signedIn).toBe(false);
    await expect(
      handlers['auth.signInWithToken']({ connectionId: custom?.id ?? '', token: 'not-a-real-token-value' }),
    ).rejects.toThrow();

    const signedIn = await handlers['auth.signInWithToken']({
      connectionId: custom?.id ?? '',
      token: remote.token,
    });
    expect(signedIn.auth.signedIn).toBe(true);
    expect(signedIn.entities.map((e) => e.id)).toContain(remote.entityId);

    await remote.close();
    const offline = await handlers['connections.select']({ connectionId: custom?.id ?? '' });
    expect(offline.online).toBe(false);
    expect(offline.entities.map((e) => e.id)).toContain(remote.entityId);

    const back = await handlers['connections.select']({ connectionId: localSandboxId });
    expect(back.online).toBe(true);
    expect(back.activeConnectionId).toBe(localSandboxId);
  });

  it('without a Secret Service the app says so plainly and keeps the sign-in in memory', async () => {
    const failing = {
      getPassword: () => Promise.reject(new Error('org.freedesktop.DBus.Error.ServiceUnknown')),
      setPassword: () => Promise.reject(new Error('org.freedesktop.DBus.Error.ServiceUnknown')),
      deletePassword: () => Promise.reject(new Error('org.freedesktop.DBus.Error.ServiceUnknown')),
    };
    const core = await startAppCore({
      dataDir: mkdtempSync(join(tmpdir(), 'asset-desk-nokeychain-')),
      version: 'test',
      host: 'browser',
      assessmentYear: testAssessmentYear,
      secrets: await openSecretStore({ keychain: failing }),
    });
    try {
      await core.connected;
      const session = await core.handlers['session.get']({});
      expect(session.keychain.available).toBe(false);
      expect(session.keychain.message).toMatch(/keychain is unavailable.*memory for this session only/s);
      expect(session.auth).toMatchObject({ signedIn: true, storage: 'memory' });
      expect((await core.handlers['workspace.snapshot']({})).assets.length).toBeGreaterThan(0);
    } finally {
      await core.close();
    }
  });
});
