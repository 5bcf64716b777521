/**
 * The sync's fast parse of assets (electron/service-client/fast-asset.ts) against zod's: on the
 * service docs' answers, on the sandbox's, and on thousands of variations of them (decimals as
 * strings, older names, missing and unknown fields, values zod refuses), it either gives what zod
 * gives, key order included, or leaves the asset to zod. And it does read the usual answers itself.
 */
import { describe, expect, it } from 'vitest';
import { assetSchema, batchResponseSchema, type Asset } from '../../../shared/domain';
import { fastAsset, fastBatchResponse, fastListed } from '../../../electron/service-client/fast-asset';
import { listedOf } from '../../../shared/sync/listed-asset';
import {
  assetDeleteText,
  assetsListText,
  batchResponse,
  historicalAssetGetText,
  historicalAssetsListText,
  outliersAssetsListText,
} from '../../fixtures/service-docs/assets';

type Json = Record<string, unknown>;

/** An asset as the sandbox answers a batch or a page. */
function sandboxAsset(i: number): Json {
  return {
    service_asset_id: i,
    partners_id: 47_366_346_592_641 + i,
    name: `Bench ${i}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    address: `Street ${i}`,
    lat: null,
    lng: null,
    construction_year: null,
    ownership: 100,
    ownership_from: null,
    ownership_to: null,
    property_type_code: 'OCHI',
    gav: null,
    size: 1000 + i,
    certifications: [
      {
        id: 7,
        certification_id: 598,
        name: 'BREEAM',
        level: 'Good',
        size: 200,
        year: 2020,
        _validations: { errors: {} },
      },
    ],
    energy_ratings: [{ id: 3, energy_rating_id: 12, name: 'EPC', level: 'A', size: 100 }],
    annual_data: [2024, 2023].map((year, k) => ({
      year,
      owned_entire_period: true,
      tenant_ctrl: false,
      whole_building: true,
      en_abs_we: 110_000 + k,
      en_cov_we: 1000,
      en_tot_we: 1000,
      _validations: { errors: {} },
    })),
    asset_size: '1000.0',
    _outliers: [{ kpi: 'en', type: 'intensity', accepted: false, value: '1.5' }],
    created_at: '2026-11-23T22:35:27.278Z',
    updated_at: '2026-11-23T22:35:32.257Z',
    _validations: { errors: {}, warnings: { gav: ['is missing'] } },
  };
}

const docsAssets: unknown[] = [
  ...(JSON.parse(assetsListText) as unknown[]),
  ...(JSON.parse(historicalAssetsListText) as unknown[]),
  JSON.parse(historicalAssetGetText),
  ...(JSON.parse(outliersAssetsListText) as unknown[]),
  JSON.parse(assetDeleteText),
];

/**
 * Same result as zod, key order included; or left to zod. The pull's reading too: the document, the
 * outliers, the verdict's kind and `updated_at` that `listedOf` takes from zod's asset, read straight from the
 * answer, or left to zod with the rest.
 */
function expectAsZod(input: unknown): boolean {
  const fast = fastAsset(input);
  const listed = fastListed([input])?.[0];
  const zod = assetSchema.safeParse(input);
  if (fast === undefined) {
    expect(listed).toBeUndefined();
    return false;
  }
  expect(zod.success).toBe(true);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
  expect(fast).toEqual(zod.data);

  const slow = listedOf(zod.data as Asset);
  expect(listed).toBeDefined();
  expect(JSON.stringify(listed?.doc)).toBe(JSON.stringify(slow.doc));
  expect(listed?.doc).toEqual(slow.doc);
  expect([listed?.id, listed?.partnersId, listed?.verdict]).toEqual([slow.id, slow.partnersId, slow.verdict]);
  expect(listed?.outliers).toEqual(slow.outliers);
  expect(listed?.updatedAt).toBe(slow.updatedAt);
  expect(listed?.asset()).toEqual(zod.data);
  return true;
}

/** A small deterministic generator, so a failure is reproducible. */
function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

const oddValues = [
  null,
  undefined,
  0,
  2.5,
  -1,
  1e21,
  'x',
  '6000.0',
  ' 12 ',
  '',
  true,
  {},
  [],
  [1],
  { a: 1 },
  2 ** 60,
];

function vary(base: Json, g: ReturnType<typeof generator>): Json {
  const out = structuredClone(base) as Json;
  const fields = [...Object.keys(out), 'asset_ownership', 'unknown_field', 'energy_ratings'];
  for (let n = Math.floor(g.next() * 4); n > 0; n--) {
    const roll = g.next();
    if (roll < 0.35) out[g.pick(fields)] = g.pick(oddValues);
    else if (roll < 0.45) delete out[g.pick(fields)];
    else if (roll < 0.65 && Array.isArray(out['annual_data']) && out['annual_data'].length > 0) {
      const entry = g.pick(out['annual_data'] as Json[]);
      entry[g.pick(['year', 'en_abs_we', 'asset_name', 'property_type_code', '_validations', 'x'])] = g.pick([
        ...oddValues,
        'Old name',
        { errors: { a: ['b'] } },
        { errors: 'no' },
      ]);
    } else if (roll < 0.75) {
      out['_outliers'] = [
        {
          kpi: g.pick(['en', 'ghg', 'zz']),
          type: g.pick(['lfl', 'intensity']),
          accepted: g.pick([true, 1]),
          value: g.pick([1.5, '2', null]),
          extra: 1,
        },
      ];
    } else if (roll < 0.85) {
      out['_validations'] = g.pick([
        { errors: {} },
        { errors: { size: ['x'] }, warnings: null },
        { errors: { a: [1] } },
        null,
        { errors: {}, other: 1 },
      ]);
    } else {
      out['certifications'] = g.pick([
        null,
        [],
        [{ id: '7', level: null }],
        [{ id: 7.5 }],
        [{ certification_id: 1, year: 2020, extra: 'kept' }],
      ]);
    }
  }
  return out;
}

describe('the fast parse of assets', () => {
  it('reads the service docs answers as zod does, or leaves them to zod', () => {
    for (const asset of docsAssets) expectAsZod(asset);
  });

  it("reads the sandbox's answers itself, as zod does", () => {
    for (let i = 1; i <= 50; i++) expect(expectAsZod(sandboxAsset(i))).toBe(true);
  });

  it('reads the verdict as verdictOf does: a record’s message counts, a rating’s does not', () => {
    const silent = { ...sandboxAsset(1), _validations: { errors: {} } };
    const rated = {
      ...silent,
      energy_ratings: [{ id: 3, energy_rating_id: 12, _validations: { errors: { level: ['x'] } } }],
    };
    const recorded = {
      ...silent,
      annual_data: [
        { year: 2024, en_abs_we: 1, _validations: { errors: {}, warnings: { en_abs_we: ['high'] } } },
      ],
    };
    const kinds = [silent, rated, recorded, { ...recorded, _validations: undefined }].map((input) => {
      expect(expectAsZod(input)).toBe(true);
      return fastListed([input])?.[0]?.verdict;
    });
    expect(kinds).toEqual(['silent', 'silent', 'loud', 'none']);
  });

  it('gives what zod gives on thousands of variations, or leaves them to zod', () => {
    const g = generator(18);
    const bases = [
      ...docsAssets.filter((a): a is Json => typeof a === 'object' && a !== null),
      sandboxAsset(1),
    ];
    let fast = 0;
    for (let i = 0; i < 5_000; i++) {
      const varied = vary(g.pick(bases), g);
      // As JSON carries it (no undefined), and also as built, undefined values and all.
      if (expectAsZod(JSON.parse(JSON.stringify(varied)))) fast++;
      expectAsZod(varied);
    }
    // Most variations keep the usual form: the fast path is exercised, not only the fallback.
    expect(fast).toBeGreaterThan(1_000);
  });

  it('reads a batch answer as zod does, refusals and counts by zod', () => {
    const answers = [
      batchResponse,
      {
        updated: [sandboxAsset(1), sandboxAsset(2)],
        created: [],
        invalid: [{ name: 'x', _validations: { errors: { size: ['must be given'] } } }],
        not_found: [{ service_asset_id: 9 }],
        counts: {
          created: 0,
          always_created: 0,
          updated: 2,
          always_updated: 0,
          deleted: 0,
          invalid: 1,
          not_found: 1,
        },
        extra: true,
      },
    ];
    for (const answer of answers) {
      const fast = fastBatchResponse(JSON.parse(JSON.stringify(answer)));
      expect(fast).toBeDefined();
      expect(fast).toEqual(batchResponseSchema.parse(answer));
    }
    expect(fastBatchResponse({ updated: [sandboxAsset(1)] })).toBeUndefined();
    expect(fastBatchResponse({ ...answers[1], updated: null })).toBeUndefined();
  });
});
