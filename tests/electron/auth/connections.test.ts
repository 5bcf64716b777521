import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  apiUrl,
  connectionsFileName,
  localSandboxId,
  localSandboxRealNamesId,
  openConnectionRegistry,
} from '../../../electron/auth/connections';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'asset-desk-connections-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const production = {
  name: 'Production',
  baseUrl: 'https://api.example.test/',
  portalUrl: 'https://portal.example.test',
  authUrl: 'https://auth.example.test',
};

describe('connections', () => {
  it('starts on the local sandbox, at the embedded service’s runtime address', async () => {
    const registry = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:43210/' });
    expect(registry.active()).toEqual({
      id: localSandboxId,
      name: 'Local sandbox',
      kind: 'local-sandbox',
      baseUrl: 'http://127.0.0.1:43210',
      portalUrl: 'http://127.0.0.1:43210',
      authUrl: 'http://127.0.0.1:43210',
      assetIds: { name: 'service_asset_id', source: 'stated' },
    });
    expect(apiUrl(registry.active(), 'v0', '/lists')).toBe('http://127.0.0.1:43210/api/v0/lists');
  });

  it('persists custom connections and the active choice across restarts, with no secret fields', async () => {
    const first = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:1' });
    const added = await first.addCustom(production);
    expect(added.baseUrl).toBe('https://api.example.test');
    expect(added.id).toMatch(/^custom-[a-z0-9-]+$/);
    await first.setActive(added.id);

    const second = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:2' });
    expect(second.active()).toEqual(added);
    expect(second.list().map((c) => c.id)).toEqual([localSandboxId, localSandboxRealNamesId, added.id]);

    const file = JSON.parse(await readFile(join(dataDir, connectionsFileName), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(file).sort()).toEqual(['activeId', 'custom', 'version']);
    expect(JSON.stringify(file)).not.toMatch(/token|secret/i);

    await second.removeCustom(added.id);
    expect(second.active().id).toBe(localSandboxId);
  });

  it('refuses plain http to another machine, and URLs with credentials or queries', async () => {
    const registry = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:1' });
    await expect(registry.addCustom({ ...production, baseUrl: 'http://api.example.test' })).rejects.toThrow(
      /https/,
    );
    await expect(
      registry.addCustom({ ...production, authUrl: 'https://u:p@auth.example.test' }),
    ).rejects.toThrow(/credentials/);
    await expect(
      registry.addCustom({ ...production, portalUrl: 'https://p.example.test/?x=1' }),
    ).rejects.toThrow(/query/);
    await expect(registry.addCustom({ ...production, name: ' ' })).rejects.toThrow();
    const local = await registry.addCustom({ ...production, baseUrl: 'http://localhost:3000' });
    expect(local.baseUrl).toBe('http://localhost:3000');
  });

  it('starts fresh from a corrupt or foreign file instead of failing', async () => {
    await writeFile(
      join(dataDir, connectionsFileName),
      '{"version":1,"activeId":null,"custom":[{"id":"custom-x","accessToken":"t"}]}',
    );
    const registry = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:1' });
    // Only the two built-in sandboxes.
    expect(registry.list()).toHaveLength(2);
    await writeFile(join(dataDir, connectionsFileName), 'not json');
    expect(
      (await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:1' })).list(),
    ).toHaveLength(2);
  });

  it("keeps each connection's asset id name: stated by the real service's preset and the built-in sandboxes, learned from answers, assumed for a file written before", async () => {
    // A connections file from before the name was kept opens unchanged: the real name assumed.
    await writeFile(
      join(dataDir, connectionsFileName),
      JSON.stringify({
        version: 1,
        activeId: null,
        custom: [{ id: 'custom-old', ...production, baseUrl: 'https://api.example.test' }],
      }),
    );
    const first = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:1' });
    expect(first.get('custom-old')?.assetIds).toEqual({ name: 'gresb_asset_id', source: 'assumed' });
    expect(first.get(localSandboxId)?.assetIds).toEqual({ name: 'service_asset_id', source: 'stated' });
    expect(first.get(localSandboxRealNamesId)).toMatchObject({
      name: "Local sandbox (real service's names)",
      kind: 'local-sandbox',
      assetIds: { name: 'gresb_asset_id', source: 'stated' },
    });
    const preset = await first.addCustom({ ...production, name: 'GRESB', assetIdName: 'gresb_asset_id' });
    expect(preset.assetIds).toEqual({ name: 'gresb_asset_id', source: 'stated' });
    await first.learnAssetIdName('custom-old', { name: 'service_asset_id', source: 'learned' });
    // An edit of the addresses keeps what was learned.
    await first.updateCustom('custom-old', { ...production, name: 'Renamed' });

    const second = await openConnectionRegistry({ dataDir, sandboxOrigin: 'http://127.0.0.1:2' });
    expect(second.get('custom-old')).toMatchObject({
      name: 'Renamed',
      assetIds: { name: 'service_asset_id', source: 'learned' },
    });
    expect(second.get(preset.id)?.assetIds).toEqual({ name: 'gresb_asset_id', source: 'stated' });
    // The sandbox's address changes per run; its stated name stays.
    expect(second.setSandboxOrigin('http://127.0.0.1:9', localSandboxRealNamesId)).toMatchObject({
      baseUrl: 'http://127.0.0.1:9',
      assetIds: { name: 'gresb_asset_id', source: 'stated' },
    });
  });
});
