import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../sandbox/store';
import { ensureDemoAccess, seedDemo } from '../../sandbox/seed';
import { createSandboxServer } from '../../sandbox/server';

const fixedNow = () => Date.UTC(2025, 5, 1);

describe('seed', () => {
  it('is deterministic and yields two entities over 6 years with some invalid and some outlier assets', () => {
    const dumps: string[] = [];
    for (let run = 0; run < 2; run++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-seed-'));
      const store = openStore(dir, fixedNow);
      try {
        const r = seedDemo(store, { seed: 7, assessmentYear: 2025, now: fixedNow, assetsPerEntity: 20 });
        expect(r.entityIds).toHaveLength(2);
        expect(r.token).toMatch(/^sbx_/);
        const all = r.entityIds.flatMap((id) => store.assets.all(id));
        expect(all).toHaveLength(40);
        expect(all.every((a) => a.doc.annual_data.length === 6)).toBe(true);
        const invalid = all.filter((a) =>
          a.validations.annualData.some((v) => Object.keys(v.errors).length > 0),
        );
        expect(invalid.length).toBeGreaterThan(0);
        expect(all.filter((a) => a.outliers.length > 0).length).toBeGreaterThan(0);
        dumps.push(JSON.stringify(all.map((a) => a.doc)));
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    expect(dumps[0]).toBe(dumps[1]);
  });

  it('ensureDemoAccess seeds once, then issues a fresh working token on each start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-seed-'));
    try {
      const server = createSandboxServer({ dataDir: dir, assessmentYear: 2025 });
      const first = ensureDemoAccess(server.store, { assessmentYear: 2025, assetsPerEntity: 3 });
      const second = ensureDemoAccess(server.store, { assessmentYear: 2025 });
      expect(first.seeded).toBe(true);
      expect(second.seeded).toBe(false);
      expect(second.entityIds).toEqual(first.entityIds);
      const { baseUrl } = await server.listen(0);
      const res = await fetch(`${baseUrl}/api/v1/entities/${first.entityIds[0]}/assets`, {
        headers: { authorization: `Bearer ${second.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('total')).toBe('3');
      await server.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
