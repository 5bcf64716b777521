import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterAll, describe, expect, it } from 'vitest';
import {
  KeytarSecretStore,
  MemorySecretStore,
  keychainService,
  openSecretStore,
  type KeychainApi,
  type StoredToken,
} from '../../../electron/auth/secret-store';
import { randomUrlToken } from '../../../electron/auth/pkce';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/secret-child.ts', import.meta.url));

async function runChild(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown>> {
  const { stdout } = await run('npx', ['tsx', child, ...args], { cwd: repo, env, timeout: 60_000 });
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Record<string, unknown>;
}

function sampleToken(accessToken = `tok_${randomUrlToken(24)}`): StoredToken {
  return {
    accessToken,
    kind: 'oauth',
    scopes: ['entities', 'read:assets'],
    expiresAt: new Date(Date.now() + 7_200_000).toISOString(),
    obtainedAt: new Date().toISOString(),
  };
}

const connectionId = `test-${randomUrlToken(6).toLowerCase().replace(/_/g, '-')}`;
afterAll(async () => {
  await keytar.deletePassword(keychainService(connectionId), 'access-token').catch(() => false);
});

describe('KeytarSecretStore against the real Secret Service', () => {
  it('finds the keychain available (this suite runs inside scripts/with-keyring.sh)', async () => {
    const { store, status } = await openSecretStore();
    expect(status).toEqual({ available: true, backend: 'keychain' });
    expect(store.backend).toBe('keychain');
  });

  it('saves a token that a new process reads back, then deletes it for every process', async () => {
    const { store } = await openSecretStore();
    const token = sampleToken();
    await store.save(connectionId, token);
    expect(await store.read(connectionId)).toEqual(token);

    const seen = await runChild(['read', connectionId]);
    expect(seen['backend']).toBe('keychain');
    expect(seen['token']).toEqual(token);

    expect(await store.delete(connectionId)).toBe(true);
    expect(await store.read(connectionId)).toBeNull();
    expect(await store.delete(connectionId)).toBe(false);
    const after = await runChild(['read', connectionId]);
    expect(after['token']).toBeNull();
  });

  it('stores one secret per connection under its own service name', async () => {
    const { store } = await openSecretStore();
    const other = `${connectionId}-b`;
    await store.save(connectionId, sampleToken('tok_first_connection'));
    await store.save(other, sampleToken('tok_second_connection'));
    await store.delete(other);
    expect((await store.read(connectionId))?.accessToken).toBe('tok_first_connection');
    expect(await keytar.getPassword(keychainService(other), 'access-token')).toBeNull();
    await store.delete(connectionId);
  });

  it('treats an unreadable keychain value as signed out, not as a crash', async () => {
    await keytar.setPassword(keychainService(connectionId), 'access-token', 'not json {');
    const store = new KeytarSecretStore(keytar);
    expect(await store.read(connectionId)).toBeNull();
    await store.delete(connectionId);
  });

  it('refuses connection ids that could collide with other services', async () => {
    const store = new MemorySecretStore();
    await expect(store.save('../evil', sampleToken())).rejects.toThrow(/Invalid connection id/);
  });
});

describe('no Secret Service', () => {
  it('reports "unavailable" plainly, keeps the token in memory only, and writes it nowhere on disk', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'asset-desk-nokeyring-'));
    try {
      const dataDir = join(scratch, 'app-data');
      const token = `tok_nodisk_${randomUrlToken(24)}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
        HOME: scratch,
        XDG_DATA_HOME: join(scratch, 'data'),
        XDG_CONFIG_HOME: join(scratch, 'config'),
        XDG_CACHE_HOME: join(scratch, 'cache'),
        XDG_RUNTIME_DIR: join(scratch, 'runtime'),
      };
      const out = await runChild(['save-session', 'local-sandbox', token, dataDir], env);

      expect(out['backend']).toBe('memory');
      expect(out['readBack']).toBe(true);
      const status = out['status'] as Record<string, unknown>;
      expect(status['available']).toBe(false);
      expect(status['backend']).toBe('memory');
      expect(String(status['message'])).toMatch(/keychain is unavailable/);
      expect(String(status['message'])).toMatch(/in memory for this session only/);
      expect(String(status['reason']).length).toBeGreaterThan(0);

      const files = await listFiles(scratch);
      // The child did write its data dir, so the search below looked at real output.
      expect(files.some((f) => f.endsWith('connections.json'))).toBe(true);
      for (const file of files) {
        expect(await readFile(file, 'latin1'), file).not.toContain(token);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('falls back when the keychain throws, hangs, or loses what it was given', async () => {
    const throwing: KeychainApi = {
      getPassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
      setPassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
      deletePassword: () => Promise.reject(new Error('Could not connect: No such file or directory')),
    };
    const hanging: KeychainApi = {
      getPassword: () => new Promise(() => undefined),
      setPassword: () => new Promise(() => undefined),
      deletePassword: () => new Promise(() => undefined),
    };
    const forgetful: KeychainApi = {
      getPassword: async () => null,
      setPassword: async () => undefined,
      deletePassword: async () => false,
    };
    for (const [keychain, reason] of [
      [throwing, /Could not connect/],
      [hanging, /did not answer within 50 ms/],
      [forgetful, /did not return what was saved/],
    ] as const) {
      const { store, status } = await openSecretStore({ keychain, probeTimeoutMs: 50 });
      expect(store).toBeInstanceOf(MemorySecretStore);
      expect(status.available).toBe(false);
      if (!status.available) expect(status.reason).toMatch(reason);
    }
  });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
