import { goal } from './support/goal';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSandboxServer } from '../sandbox/server';
import { grantableScopes } from '../shared/auth/scopes';

const assetCount = 5000;
const years = 6;
const goalSeconds = 3;
const assessmentYear = 2025;

function asset(i: number): Record<string, unknown> {
  const size = 1000 + (i % 50) * 400;
  return {
    partners_id: i,
    name: `Bench asset ${i}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    address: `${i} Damrak`,
    ownership: 100,
    property_type_code: 'OCHI',
    construction_year: 1990 + (i % 30),
    gav: 10 + (i % 90),
    size,
    certifications: i % 3 === 0 ? [{ certification_id: 3, level: 'Gold', size, year: 2020 }] : [],
    annual_data: Array.from({ length: years }, (_, k) => ({
      year: assessmentYear - years + 1 + k,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      asset_vacancy: 5,
      en_abs_wf: size * 60,
      en_cov_wf: size,
      en_tot_wf: size,
      en_abs_we: size * 110 + k * 100,
      en_cov_we: size,
      en_tot_we: size,
      ghg_abs_s1_w: Math.round(size * 0.01),
      ghg_cov_s1_w: size,
      ghg_tot_s1_w: size,
      wat_abs_w: size * 0.5,
      wat_cov_w: size,
      wat_tot_w: size,
      was_abs_nhaz: Math.round(size * 0.01),
      was_pcov: 100,
    })),
  };
}

/** One 5,000-asset batch (6 years each) over real HTTP, then a 100-page listing of the result. */
export default async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));
  const server = createSandboxServer({ dataDir: dir, assessmentYear });
  try {
    const { baseUrl } = await server.listen(0);
    const { admin } = server.store;
    const partner = admin.createDataPartner({ name: 'Bench' });
    const entity = admin.createEntity({ name: 'Bench entity' });
    admin.grantEntityAccess(entity.id, partner.id);
    const token = admin.createAccessToken({
      dataPartnerId: partner.id,
      name: 'bench',
      scopes: grantableScopes,
      expiresAt: Date.now() + 3600_000,
    }).token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ create: Array.from({ length: assetCount }, (_, i) => asset(i + 1)) });

    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/entities/${entity.id}/assets/batches`, {
      method: 'POST',
      headers,
      body,
    });
    const result = (await res.json()) as { counts?: Record<string, number> };
    const seconds = (performance.now() - t0) / 1000;
    if (res.status !== 200 || result.counts?.['created'] !== assetCount) {
      throw new Error(`batch failed: ${res.status} ${JSON.stringify(result.counts ?? result)}`);
    }

    const perPage = assetCount / 100;
    const t1 = performance.now();
    let listed = 0;
    for (let page = 1; page <= 100; page++) {
      const r = await fetch(
        `${baseUrl}/api/v1/entities/${entity.id}/assets?page=${page}&per_page=${perPage}`,
        { headers },
      );
      listed += ((await r.json()) as unknown[]).length;
    }
    const listSeconds = (performance.now() - t1) / 1000;
    if (listed !== assetCount) throw new Error(`listing returned ${listed} assets`);

    const lines = [
      `sandbox batch: ${assetCount} creates x ${years} years in ${seconds.toFixed(2)} s ` +
        `(${Math.round(assetCount / seconds)} assets/s; request ${(body.length / 1e6).toFixed(1)} MB)`,
      `sandbox listing: 100 pages x ${perPage} in ${listSeconds.toFixed(2)} s (${((listSeconds / 100) * 1000).toFixed(1)} ms/page)`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    goal(`sandbox batch of ${assetCount} creates x ${years} years`, seconds, 's', '<', goalSeconds);
    goal('sandbox listing of 100 pages', listSeconds, 's', '<', goalSeconds);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
