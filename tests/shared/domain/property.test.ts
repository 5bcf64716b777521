import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AssetInput } from '../../../shared/domain';
import {
  annualFieldCatalog,
  computeOutliers,
  parseAsset,
  parseAssetInput,
  parseBatchRequest,
  parseBatchResponse,
  parseEntity,
  parseValidationResponse,
  validateAsset,
  withValidations,
} from '../../../shared/domain';
import { createCtx, updateCtx } from './fixtures';

const fieldNames = [
  ...annualFieldCatalog.map((d) => d.name),
  'year',
  '_destroy',
  'id',
  'size',
  'level',
  'certification_id',
];
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('', ' ', '2024-01-01', '12.5', 'abc', true, false, null, -1, 1e308),
);
const recordLike = fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string()), anyValue, {
  maxKeys: 12,
});
const assetLike = fc.record(
  {
    name: anyValue,
    country: anyValue,
    size: anyValue,
    ownership: anyValue,
    ownership_from: anyValue,
    ownership_to: anyValue,
    gav: anyValue,
    annual_data: fc.oneof(fc.array(recordLike, { maxLength: 4 }), anyValue),
    certifications: fc.oneof(fc.array(recordLike, { maxLength: 3 }), anyValue),
    energy_ratings: fc.oneof(fc.array(recordLike, { maxLength: 2 }), anyValue),
  },
  { requiredKeys: [] },
);
const anyInput = fc.oneof(fc.jsonValue(), assetLike);

describe('arbitrary JSON never throws', () => {
  it('parsers', () => {
    fc.assert(
      fc.property(anyInput, (json) => {
        for (const parse of [
          parseAssetInput,
          parseAsset,
          parseBatchRequest,
          parseBatchResponse,
          parseEntity,
          parseValidationResponse,
        ]) {
          const r = parse(json);
          expect(typeof r.ok).toBe('boolean');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('rules and outliers on anything that parses as an asset input', () => {
    fc.assert(
      fc.property(anyInput, (json) => {
        // Direct callers (the store) may skip the parser: the rules must cope with raw objects too.
        if (json !== null && typeof json === 'object' && !Array.isArray(json)) {
          validateAsset(json as AssetInput, createCtx);
        }
        const parsed = parseAssetInput(json);
        if (!parsed.ok) return;
        for (const ctx of [createCtx, updateCtx]) {
          const result = validateAsset(parsed.value, ctx);
          expect(typeof result.asset.errors).toBe('object');
          withValidations(parsed.value, result);
        }
        computeOutliers(parsed.value, { areaUnit: 'm2' });
        computeOutliers(parsed.value, { areaUnit: 'sqft', year: 2024 });
      }),
      { numRuns: 1000 },
    );
  });
});
