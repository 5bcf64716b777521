import { describe, expect, it } from 'vitest';
import {
  BATCH_MAX_PER_FIELD,
  parseAsset,
  parseAssetInput,
  parseBatchRequest,
  parseBatchResponse,
  parseEntity,
  parseValidationRequest,
  validateAsset,
} from '../../../shared/domain';
import { parseOAuthTokenResponse, parseTokenInfoResponse } from '../../../electron/auth/oauth-schemas';
import { createCtx } from './fixtures';

describe('request body parsers', () => {
  it('let wrongly typed fields through to the rules', () => {
    const parsed = parseAssetInput({ size: 'abc', annual_data: [{ year: 2024, tenant_ctrl: 'yes' }] });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const result = validateAsset(parsed.value, { ...createCtx, mode: 'update' });
    expect(result.asset).toEqual({ errors: { asset_size: ['is not a number'] } });
    expect(result.annualData).toEqual([{ errors: { tenant_ctrl: ['must be true or false'] } }]);
  });

  it('reject structurally broken bodies with a path in the message', () => {
    expect(parseAssetInput('hello')).toEqual({
      ok: false,
      errors: ['Invalid input: expected object, received string'],
    });
    expect(parseAssetInput({ annual_data: 5 })).toEqual({
      ok: false,
      errors: ['annual_data: Invalid input: expected array, received number'],
    });
    expect(parseAssetInput({ certifications: [1] })).toEqual({
      ok: false,
      errors: ['certifications.[0]: Invalid input: expected object, received number'],
    });
  });

  it('accept null nested arrays (PATCH clears with null)', () => {
    expect(parseAssetInput({ certifications: null })).toEqual({ ok: true, value: { certifications: null } });
  });

  it('batch body: arrays of objects, at most 5000 per field', () => {
    expect(parseBatchRequest({ create: [{ name: 'A' }], delete: [{ service_asset_id: 3 }] })).toEqual({
      ok: true,
      value: { create: [{ name: 'A' }], delete: [{ service_asset_id: 3 }] },
    });
    expect(parseBatchRequest({}).ok).toBe(true);
    expect(parseBatchRequest({ update: {} }).ok).toBe(false);
    const tooMany = Array.from({ length: BATCH_MAX_PER_FIELD + 1 }, () => ({}));
    expect(parseBatchRequest({ create: tooMany }).ok).toBe(false);
    expect(parseValidationRequest({ create: [], update: [{ service_asset_id: 1 }] }).ok).toBe(true);
  });
});

describe('response body parsers', () => {
  it('asset: decimals as strings become numbers, missing arrays default to []', () => {
    const r = parseAsset({
      service_asset_id: 5,
      name: 'A',
      country: 'NL',
      state_province: 'X',
      city: 'Y',
      ownership: '100.0',
      size: '2500.5',
    });
    expect(r).toEqual({
      ok: true,
      value: {
        service_asset_id: 5,
        name: 'A',
        country: 'NL',
        state_province: 'X',
        city: 'Y',
        ownership: 100,
        size: 2500.5,
        certifications: [],
        annual_data: [],
        _outliers: [],
        created_at: null,
        updated_at: null,
      },
    });
  });

  it('asset: rejects a non-numeric size with the path', () => {
    const r = parseAsset({ service_asset_id: 5, size: 'big' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.some((e) => e.startsWith('size:'))).toBe(true);
  });

  it('entity with reporting preferences', () => {
    const entity = {
      id: 12,
      name: 'Fund I',
      manager: 'ACME',
      hq_country_code: 'NL',
      hq_country_name: 'Netherlands',
      address: 'Main 1',
      reporting_preferences: {
        currency: 'EUR',
        area_units_name: 'square_metres',
        reporting_period: 'calendar_year',
        reporting_period_month: 12,
        reporting_period_month_name: 'December',
      },
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
    };
    expect(parseEntity(entity)).toEqual({ ok: true, value: entity });
    expect(parseEntity({ ...entity, reporting_preferences: undefined }).ok).toBe(false);
  });

  it('batch response with counts', () => {
    const body = {
      created: [],
      always_created: [],
      updated: [],
      always_updated: [],
      deleted: [],
      invalid: [{ name: '', _validations: { errors: { name: ["can't be blank"] } } }],
      not_found: [{ service_asset_id: 9 }],
      counts: {
        created: 0,
        always_created: 0,
        updated: 0,
        always_updated: 0,
        deleted: 0,
        invalid: 1,
        not_found: 1,
      },
    };
    expect(parseBatchResponse(body)).toEqual({ ok: true, value: body });
    expect(parseBatchResponse({ ...body, counts: {} }).ok).toBe(false);
  });

  it('OAuth token and token info', () => {
    const token = {
      access_token: 'abc',
      token_type: 'bearer',
      expires_in: 7200,
      scope: 'entities read:assets',
    };
    expect(parseOAuthTokenResponse(token)).toEqual({ ok: true, value: token });
    expect(parseOAuthTokenResponse({ ...token, access_token: '' }).ok).toBe(false);
    const info = {
      resource_owner_id: 1,
      scope: ['public', 'entities'],
      expires_in: 7000,
      application: { uid: 'u' },
      created_at: 1700000000,
    };
    expect(parseTokenInfoResponse(info)).toEqual({ ok: true, value: info });
    expect(parseTokenInfoResponse({ ...info, scope: 'public' }).ok).toBe(false);
  });
});
