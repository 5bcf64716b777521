/**
 * The sandbox's real-names mode (`npm run sandbox -- --real-names`): its asset routes speak as the
 * real service's docs do (`gresb_asset_id`; no `lat`/`lng` since 2.07, no annual
 * `owned_entire_period` since 2.08), while its default mode keeps our spec's names and fields.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asJson, asList, startHarness, validAsset, type Harness, type Json } from './helpers';

const removed = /"lat"|"lng"|owned_entire_period/;

describe.each([
  { mode: "the real service's names", realNames: true, id: 'gresb_asset_id', other: 'service_asset_id' },
  {
    mode: "our spec's names (the default)",
    realNames: false,
    id: 'service_asset_id',
    other: 'gresb_asset_id',
  },
])('the sandbox speaking $mode', ({ realNames, id, other }) => {
  let h: Harness;
  const assets = () => `/api/v1/entities/${h.entityId}/assets`;
  beforeAll(async () => {
    h = await startHarness({ realNames, rateLimit: { limit: 1_000, windowMs: 60_000 } });
  });
  afterAll(() => h?.close());

  it('answers every asset with its id under its name, and takes the id under that name alone', async () => {
    const created = await h.api('POST', assets(), { body: validAsset(1, { lat: 52.37, lng: 4.89 }) });
    expect(created.status).toBe(201);
    const asset = asJson(created.body);
    const assetId = asset[id] as number;
    expect(assetId).toEqual(expect.any(Number));
    expect(asset).not.toHaveProperty(other);
    const listed = asList((await h.api('GET', assets())).body);
    expect(listed.map((a) => a[id])).toEqual([assetId]);
    expect(asJson((await h.api('GET', `${assets()}/${assetId}`)).body)[id]).toBe(assetId);
    if (realNames) {
      for (const body of [created.body, listed]) expect(JSON.stringify(body)).not.toMatch(removed);
    } else {
      expect(asset).toMatchObject({ lat: 52.37, lng: 4.89 });
      expect(asList(asset['annual_data'])[0]).toHaveProperty('owned_entire_period', true);
    }

    const batch = await h.api('POST', `${assets()}/batches`, {
      body: {
        update: [
          { [id]: assetId, city: 'Haarlem' },
          { [other]: assetId, city: 'Leiden' },
        ],
      },
    });
    const answer = asJson(batch.body);
    expect(asList(answer['updated']).map((a) => [a[id], a['city']])).toEqual([[assetId, 'Haarlem']]);
    // The other name is nothing to this service: that update names no asset.
    expect(asJson(answer['counts'])).toMatchObject({ updated: 1, not_found: 1 });

    const validation = asJson(
      (
        await h.api('POST', `${assets()}/validation`, {
          body: { update: [{ [id]: assetId, city: 'Delft' }] },
        })
      ).body,
    );
    expect(asList(validation['valid']).map((a) => a[id])).toEqual([assetId]);
    const deleted = asJson(
      (await h.api('POST', `${assets()}/batches`, { body: { delete: [{ [id]: assetId }] } })).body,
    );
    expect(asList(deleted['deleted']).map((a: Json) => a[id])).toEqual([assetId]);
  });
});

describe('npm run sandbox -- --real-names', () => {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-real-names-'));
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "says which names it speaks, and lists its demo assets under the real service's",
    { timeout: 60_000 },
    async () => {
      child = spawn(
        process.execPath,
        ['--import', 'tsx', 'sandbox/cli.ts', '--real-names', '--quiet', '--port', '0', '--data-dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
        for (let i = 0; i < 600; i++) {
          const m = pattern.exec(out);
          if (m) return m;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`not printed: ${String(pattern)}\n${out}`);
      };
      const baseUrl = (await waitFor(/base URL : (\S+)/))[1] ?? '';
      const token = (await waitFor(/token {4}: (\S+)/))[1] ?? '';
      const entity = (await waitFor(/entities : (\d+)/))[1] ?? '';
      expect(out).toMatch(/names {4}: the real service's \(gresb_asset_id/);
      const res = await fetch(`${baseUrl}/api/v1/entities/${entity}/assets?per_page=5`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const page = (await res.json()) as Json[];
      expect(page.length).toBeGreaterThan(0);
      for (const asset of page) expect(asset['gresb_asset_id']).toEqual(expect.any(Number));
      expect(JSON.stringify(page)).not.toMatch(/service_asset_id|"lat"|"lng"|owned_entire_period/);
    },
  );
});
