/**
 * The token never reaches the renderer: no bridge result or event carries it, and the built renderer
 * holds no token-handling code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeMethodNames } from '../../../shared/bridge/contract';
import { builtRendererDir } from '../../../support/built-renderer';
import { startTestApp, type TestApp } from '../../../support/test-app';

describe('no token crosses the bridge', () => {
  let app: TestApp;
  const events: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    app.core.events.attach({ emit: (name, payload) => events.push(JSON.stringify({ name, payload })) });
  });
  afterAll(() => app?.close());

  it('results and events of a whole working session never contain the token or the OAuth secret', async () => {
    const { handlers, sandbox } = app.core;
    const results: unknown[] = [];
    const call = async <T>(promise: Promise<T> | T): Promise<T> => {
      const value = await promise;
      results.push(value);
      return value;
    };
    const session = await call(handlers['session.get']({}));
    expect(session.auth.signedIn).toBe(true);
    const snapshot = await call(handlers['workspace.snapshot']({}));
    const first = snapshot.assets[0];
    if (!first) throw new Error('the demo workspace is empty');
    await call(
      handlers['workspace.edit']({ edits: [{ localId: first.localId, path: 'city', value: 'Haarlem' }] }),
    );
    const created = await call(handlers['workspace.createAsset']({ fields: { name: 'No token asset' } }));
    await call(handlers['sync.review']({}));
    await call(handlers['sync.dryRun']({}));
    await call(handlers['sync.run']({}));
    await call(handlers['workspace.deleteAssets']({ localIds: [created.localId] }));
    await call(handlers['app.info']({}));
    await call(handlers['session.selectEntity']({ entityId: session.activeEntityId ?? 0 }));

    const everything = JSON.stringify(results) + events.join('\n');
    expect(events.length).toBeGreaterThan(0);
    expect(everything).not.toContain(sandbox.token);
    expect(everything).not.toContain(sandbox.oauthClient.clientSecret);
    expect(everything).not.toMatch(/"(access_?token|accessToken|client_secret|clientSecret)"/i);
  });

  it('only sign-in methods take a token in, and none of them is a read', () => {
    const takingSecrets = bridgeMethodNames.filter((name) => name.startsWith('auth.'));
    expect(takingSecrets).toEqual([
      'auth.signInWithToken',
      'auth.signOut',
      'auth.startOAuth',
      'auth.submitOAuthCode',
      'auth.cancelOAuth',
    ]);
  });

  it('the built renderer bundle holds no token-handling code', () => {
    const dir = join(builtRendererDir(), 'assets');
    const scripts = readdirSync(dir).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const marker of [
        'access_token',
        'accessToken',
        'Authorization',
        'Bearer ',
        'keytar',
        'client_secret',
      ]) {
        expect(text.includes(marker), `${file} contains ${marker}`).toBe(false);
      }
    }
  });
});
