import type { AssetInput, AnnualDataInput } from '../shared/domain';
import { grantableScopes } from '../shared/auth/scopes';
import { maxTokenExpiry } from './auth/tokens';
import { openEntitySession } from './model/asset-service';
import type { SandboxStore } from './store';
import { demoPassword, demoUserEmail, ensureDemoPassword } from './demo-user';
import { seedResponses } from './seed-responses';

export interface SeedOptions {
  /** Same seed, same data: tests and screenshots can rely on exact values. */
  seed?: number;
  assessmentYear: number;
  now?: () => number;
  assetsPerEntity?: number;
}

export interface SeedResult {
  token: string;
  tokenId: number;
  dataPartnerId: number;
  userId: number;
  entityIds: number[];
}

/** mulberry32: tiny, fast, deterministic; quality is irrelevant for demo data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const demoEntities = [
  {
    name: 'Northwind Core Real Estate Fund',
    manager: 'Northwind Investment Management',
    hq_country_code: 'NL',
    hq_country_name: 'Netherlands',
    address: 'Zuidas 12, 1082 Amsterdam',
    currency: 'EUR',
    area_units_name: 'square metres',
    places: [
      ['NL', 'Noord-Holland', 'Amsterdam', 52.37, 4.9],
      ['NL', 'Zuid-Holland', 'Rotterdam', 51.92, 4.48],
      ['DE', 'Berlin', 'Berlin', 52.52, 13.4],
      ['FR', 'Île-de-France', 'Paris', 48.86, 2.35],
      ['GB', 'England', 'London', 51.51, -0.13],
    ],
  },
  {
    name: 'Blue Harbor Logistics REIT',
    manager: 'Blue Harbor Capital',
    hq_country_code: 'US',
    hq_country_name: 'United States of America',
    address: '200 Harbor Drive, Chicago, IL',
    currency: 'USD',
    area_units_name: 'square feet',
    places: [
      ['US', 'Illinois', 'Chicago', 41.88, -87.63],
      ['US', 'Texas', 'Dallas', 32.78, -96.8],
      ['US', 'New Jersey', 'Newark', 40.74, -74.17],
      ['US', 'California', 'Ontario', 34.06, -117.65],
      ['CA', 'Ontario', 'Toronto', 43.65, -79.38],
    ],
  },
] as const;

/** Energy intensity (kWh per m2) typical for the type, and a label for names. */
const propertyProfiles = [
  ['OCHI', 'Office', 160],
  ['RHST', 'Retail', 220],
  ['IDWH', 'Distribution Centre', 70],
  ['RMFA', 'Residences', 120],
  ['HTL', 'Hotel', 260],
] as const;

const sqftPerM2 = 10.7639;

function annualRecord(
  year: number,
  size: number,
  sizeM2: number,
  energyPerM2: number,
  rand: () => number,
  ownershipChange: boolean,
): AnnualDataInput {
  const round = (n: number): number => Math.round(n);
  const energy = energyPerM2 * sizeM2 * (0.92 + rand() * 0.16);
  const fuel = energy * 0.4;
  const elec = energy - fuel;
  const rec: AnnualDataInput = {
    year,
    owned_entire_period: !ownershipChange,
    tenant_ctrl: false,
    whole_building: true,
    asset_vacancy: round(rand() * 12),
    ncmr_status: 'Standing Investment',
    en_abs_wf: round(fuel),
    en_cov_wf: size,
    en_tot_wf: size,
    en_abs_we: round(elec),
    en_cov_we: size,
    en_tot_we: size,
    ghg_abs_s1_w: round(fuel * 0.000184),
    ghg_cov_s1_w: size,
    ghg_tot_s1_w: size,
    ghg_abs_s2_lb_w: round(elec * 0.00028),
    ghg_cov_s2_lb_w: size,
    ghg_tot_s2_lb_w: size,
    wat_abs_w: round(sizeM2 * (0.4 + rand() * 0.4)),
    wat_cov_w: size,
    wat_tot_w: size,
    was_abs_nhaz: round(sizeM2 * 0.008 * (0.8 + rand() * 0.4)),
    was_abs_haz: round(sizeM2 * 0.0002),
    was_pcov: 100,
    was_pabs_rec: 45,
    was_pabs_lf: 25,
    was_pabs_in: 30,
  };
  if (rand() < 0.4) {
    rec['en_ren_ofs_pbl'] = round(elec * 0.5);
    rec['en_ren_ofs_proc_type'] = 'PPA';
    rec['en_ren_ofs_claim'] = 'BUN';
    rec['en_ren_ofs_vin_gen'] = 'PEY';
  }
  return rec;
}

/**
 * A demo data partner with two entities of realistic assets over six years: most valid, about one
 * in nine invalid (stored as an always_create would), about one in seven an energy outlier in
 * the latest year. Goes through the same write path as the API, so outliers and validations are
 * exactly what the API computes.
 */
export function seedDemo(store: SandboxStore, opts: SeedOptions): SeedResult {
  const rand = prng(opts.seed ?? 20240601);
  const now = opts.now ?? Date.now;
  const perEntity = opts.assetsPerEntity ?? 36;
  const { admin } = store;
  const years = Array.from({ length: 6 }, (_, i) => opts.assessmentYear - 5 + i);

  return store.db.transaction(() => {
    const partner = admin.createDataPartner({ name: 'Demo Data Partner' });
    const user = admin.createUser({
      email: demoUserEmail,
      name: 'Demo Analyst',
      dataPartnerId: partner.id,
    });
    store.accounts.setPassword(user.id, demoPassword(store.dataDir).password);
    const entityIds: number[] = [];
    for (const e of demoEntities) {
      const entity = admin.createEntity({
        name: e.name,
        manager: e.manager,
        hq_country_code: e.hq_country_code,
        hq_country_name: e.hq_country_name,
        address: e.address,
        currency: e.currency,
        area_units_name: e.area_units_name,
        owner_user_id: user.id,
      });
      admin.grantEntityAccess(entity.id, partner.id);
      entityIds.push(entity.id);
      seedResponses(store, entity.id, opts.assessmentYear);
      const sqft = e.area_units_name === 'square feet';
      const session = openEntitySession(store, entity.id, { now, assessmentYear: opts.assessmentYear });
      for (let i = 1; i <= perEntity; i++) {
        const place = e.places[i % e.places.length] ?? e.places[0];
        const profile = propertyProfiles[(i * 7) % propertyProfiles.length] ?? propertyProfiles[0];
        const sizeM2 = Math.round(2_000 + rand() * 38_000);
        const size = sqft ? Math.round(sizeM2 * sqftPerM2) : sizeM2;
        const acquired = i % 11 === 0;
        const annual = years.map((y) =>
          annualRecord(y, size, sizeM2, profile[2], rand, acquired && y === years[years.length - 1]),
        );
        const latest = annual[annual.length - 1];
        if (i % 7 === 0 && latest) {
          // An energy spike in the latest year: an intensity and a like-for-like outlier.
          latest['en_abs_we'] = Math.round(Number(latest['en_abs_we']) * 4);
        }
        if (i % 9 === 0 && latest) {
          // A covered area larger than the building: the classic rejected submission.
          latest['en_cov_wf'] = Math.round(size * 1.25);
          latest['en_tot_wf'] = Math.round(size * 1.25);
        }
        const input: AssetInput = {
          partners_id: 1000 * entity.id + i,
          name: `${place[2]} ${profile[1]} ${i}`,
          country: place[0],
          state_province: place[1],
          city: place[2],
          address: `${10 + i} ${['Main', 'Harbour', 'Station', 'Park', 'Market'][i % 5]} Street`,
          lat: Math.round((place[3] + (rand() - 0.5) * 0.1) * 1e5) / 1e5,
          lng: Math.round((place[4] + (rand() - 0.5) * 0.1) * 1e5) / 1e5,
          construction_year: 1965 + Math.floor(rand() * 55),
          ownership: i % 4 === 0 ? 50 : 100,
          ownership_from: acquired ? `${opts.assessmentYear}-03-01` : null,
          property_type_code: profile[0],
          gav: Math.round(sizeM2 * (2 + rand() * 6)) / 1000,
          size,
          certifications:
            i % 3 === 0
              ? [{ certification_id: 2, level: 'Very Good', size, year: opts.assessmentYear - 2 }]
              : [],
          energy_ratings: i % 2 === 0 ? [{ energy_rating_id: 1, level: ['A', 'B', 'C'][i % 3], size }] : [],
          annual_data: annual,
        };
        session.insert(session.checkCreate(input));
      }
    }
    const token = admin.createAccessToken({
      dataPartnerId: partner.id,
      name: 'Demo token (all scopes)',
      scopes: grantableScopes,
      expiresAt: maxTokenExpiry(now()) - 60_000,
    });
    return { token: token.token, tokenId: token.id, dataPartnerId: partner.id, userId: user.id, entityIds };
  })();
}

export const startupTokenName = 'Sandbox session token';

/**
 * What the app and `npm run sandbox` call at start: seed an empty sandbox, else issue a fresh
 * all-scope token for the first data partner (tokens are stored hashed, so an old one cannot be
 * shown again). The previous session token is deleted so they do not pile up.
 */
export function ensureDemoAccess(
  store: SandboxStore,
  opts: SeedOptions,
): { token: string; entityIds: number[]; seeded: boolean; demoUser: { email: string; password: string } } {
  if (store.admin.entityCount() === 0) {
    const r = seedDemo(store, opts);
    const demoUser = { email: demoUserEmail, password: demoPassword(store.dataDir).password };
    return { token: r.token, entityIds: r.entityIds, seeded: true, demoUser };
  }
  // Sandboxes seeded before the portal existed (or before passwords were per install): give them
  // a sign-in and portfolio responses.
  const demoUser = { email: demoUserEmail, password: ensureDemoPassword(store) };
  const now = opts.now ?? Date.now;
  const partner =
    store.admin.listDataPartners()[0] ?? store.admin.createDataPartner({ name: 'Demo Data Partner' });
  for (const t of store.admin.listAccessTokens(partner.id)) {
    if (t.name === startupTokenName) store.admin.deleteAccessToken(t.id);
  }
  const token = store.admin.createAccessToken({
    dataPartnerId: partner.id,
    name: startupTokenName,
    scopes: grantableScopes,
    expiresAt: now() + 30 * 24 * 3600_000,
  });
  const entityIds = store.admin.listGrantedEntities(partner.id).map((e) => e.id);
  for (const id of entityIds) {
    if (store.responses.count(id) === 0) seedResponses(store, id, opts.assessmentYear);
  }
  return { token: token.token, entityIds, seeded: false, demoUser };
}
