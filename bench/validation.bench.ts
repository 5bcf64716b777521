/**
 * Full validation of a 10,000-asset x 6-year workspace, and one incremental revalidation.
 * Goals (issue 3): whole workspace < 500 ms, one asset < 1 ms.
 */
import { goal } from './support/goal';
import type { AnnualDataInput, AssetInput, ValidationContext } from '../shared/domain';
import {
  defaultCertificationSchemes,
  defaultPropertyTypeCodes,
  ValidationCache,
  validateAsset,
} from '../shared/domain';

const ASSETS = 10_000;
const YEARS = 6;
const ASSESSMENT_YEAR = 2025;
const WORKSPACE_GOAL_MS = 500;
const INCREMENTAL_GOAL_MS = 1;

/** Deterministic PRNG so runs are comparable. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function annual(year: number, size: number, r: () => number): AnnualDataInput {
  const cov = Math.round(size * (0.7 + r() * 0.3));
  const lc = Math.round(size * 0.2);
  const rec: AnnualDataInput = {
    year,
    tenant_ctrl: false,
    whole_building: true,
    owned_entire_period: true,
    asset_vacancy: Math.round(r() * 15),
    ncmr_status: 'Standing Investment',
    en_data_from: `${year}-01-01`,
    en_data_to: `${year}-12-31`,
    en_abs_wf: Math.round(cov * (20 + r() * 60)),
    en_cov_wf: cov,
    en_tot_wf: size,
    en_abs_we: Math.round(cov * (60 + r() * 140)),
    en_cov_we: cov,
    en_tot_we: size,
    en_abs_wd: Math.round(cov * r() * 30),
    en_cov_wd: cov,
    en_tot_wd: size,
    en_abs_lc_bse: Math.round(lc * 50),
    en_cov_lc_bse: lc,
    en_tot_lc_bse: lc,
    en_abs_tc_te: Math.round(cov * 40),
    en_cov_tc_te: cov,
    en_tot_tc_te: size,
    en_ren_ons_con: Math.round(r() * 10000),
    en_ren_ofs_pbl: Math.round(r() * 50000),
    en_ren_ofs_proc_type: 'PPA',
    en_ren_ofs_claim: 'BUN',
    ghg_abs_s1_w: Math.round(cov * 0.01),
    ghg_cov_s1_w: cov,
    ghg_tot_s1_w: size,
    ghg_abs_s2_lb_w: Math.round(cov * 0.03),
    ghg_cov_s2_lb_w: cov,
    ghg_tot_s2_lb_w: size,
    ghg_abs_s2_mb_w: Math.round(cov * 0.02),
    wat_data_from: `${year}-01-01`,
    wat_data_to: `${year}-12-31`,
    wat_abs_w: Math.round(cov * (0.3 + r())),
    wat_cov_w: cov,
    wat_tot_w: size,
    was_abs_haz: Math.round(r() * 5),
    was_abs_nhaz: Math.round(r() * 200),
    was_pcov: 100,
    was_pabs_lf: 20,
    was_pabs_rec: 60,
    was_pabs_in: 20,
    asset_size_common: Math.round(size * 0.1),
    asset_size_shared: Math.round(size * 0.1),
    asset_size_tenant: size - 2 * Math.round(size * 0.1),
    en_emr_ltg: r() > 0.5,
    wat_emr_lds: r() > 0.5,
  };
  return rec;
}

export function generateWorkspace(assets = ASSETS, years = YEARS): AssetInput[] {
  const r = rng(42);
  const out: AssetInput[] = [];
  for (let i = 0; i < assets; i++) {
    const size = Math.round(2000 + r() * 40000);
    const annualData: AnnualDataInput[] = [];
    for (let y = 0; y < years; y++) annualData.push(annual(ASSESSMENT_YEAR - y, size, r));
    out.push({
      partners_id: i + 1,
      name: `Asset ${i + 1}`,
      country: ['NL', 'GB', 'DE', 'FR', 'US'][i % 5],
      state_province: 'Province',
      city: 'City',
      address: `${i + 1} Main Street`,
      construction_year: 1950 + (i % 70),
      ownership: 100,
      property_type_code: defaultPropertyTypeCodes[i % defaultPropertyTypeCodes.length],
      gav: Math.round(r() * 500),
      size,
      certifications: [{ certification_id: 1, level: 'Very Good', size: Math.round(size / 2), year: 2020 }],
      energy_ratings: [{ energy_rating_id: 1, level: 'B', size }],
      annual_data: annualData,
    });
  }
  return out;
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export default async function run(): Promise<void> {
  const ctx: ValidationContext = {
    mode: 'create',
    assessmentYear: ASSESSMENT_YEAR,
    areaUnit: 'm2',
    certifications: defaultCertificationSchemes,
    propertyTypes: defaultPropertyTypeCodes,
  };
  const workspace = generateWorkspace();

  let best = Infinity;
  let errorsSeen = 0;
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    let errs = 0;
    for (const a of workspace) {
      const res = validateAsset(a, ctx);
      for (const _ in res.asset.errors) errs++;
    }
    best = Math.min(best, performance.now() - t0);
    errorsSeen = errs;
  }
  const perSecond = Math.round(ASSETS / (best / 1000));
  console.log(
    `validation: full workspace ${ASSETS} assets x ${YEARS} years: ${best.toFixed(1)} ms (best of 5), ` +
      `${perSecond} assets/s; goal < ${WORKSPACE_GOAL_MS} ms, ratio ${(best / WORKSPACE_GOAL_MS).toFixed(3)}` +
      (errorsSeen ? ` (${errorsSeen} asset-level errors in generated data!)` : ''),
  );
  goal(
    `validation of the whole workspace, ${ASSETS} assets x ${YEARS} years`,
    best,
    'ms',
    '<',
    WORKSPACE_GOAL_MS,
  );

  // Incremental: a warm cache over the workspace, then one asset replaced by an edited copy.
  const cache = new ValidationCache(ctx);
  workspace.forEach((a, i) => cache.get(String(i), a));
  const samples: number[] = [];
  for (let i = 0; i < 500; i++) {
    const idx = (i * 7919) % ASSETS;
    const edited: AssetInput = { ...workspace[idx], gav: i };
    const t0 = performance.now();
    cache.get(String(idx), edited);
    samples.push(performance.now() - t0);
    workspace[idx] = edited;
  }
  const med = median(samples);
  console.log(
    `validation: incremental revalidation of one edited asset: ${med.toFixed(4)} ms (median of 500); ` +
      `goal < ${INCREMENTAL_GOAL_MS} ms, ratio ${(med / INCREMENTAL_GOAL_MS).toFixed(3)}`,
  );
  goal('revalidation of one edited asset, median', med, 'ms', '<', INCREMENTAL_GOAL_MS);
}
