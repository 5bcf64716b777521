import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSandboxServer, type SandboxServerOptions, type SandboxServer } from '../../sandbox/server';
import { grantableScopes } from '../../shared/auth/scopes';
import type { Admin } from '../../sandbox/store';

// One year for the tests and the benches (support/ is shared by both).
import { assessmentYear } from '../../support/assessment-year';
export { assessmentYear };
const day = 24 * 3600_000;

export interface Harness {
  server: SandboxServer;
  baseUrl: string;
  admin: Admin;
  dataDir: string;
  partnerId: number;
  entityId: number;
  otherEntityId: number;
  /** A token with every scope, granted entityId (not otherEntityId). */
  token: string;
  tokenWith(scopes: readonly string[], expiresInMs?: number): string;
  api(
    method: string,
    pathname: string,
    init?: { body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
  json<T = Record<string, unknown>>(): T;
}

export async function startHarness(
  opts: Partial<SandboxServerOptions> = {},
  dataDir?: string,
): Promise<Harness> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
  const server = createSandboxServer({ dataDir: dir, assessmentYear, ...opts });
  const { baseUrl } = await server.listen(0);
  const admin = server.store.admin;
  const partner = admin.listDataPartners()[0] ?? admin.createDataPartner({ name: 'Test Partner' });
  const granted = admin.listGrantedEntities(partner.id);
  let entityId: number;
  let otherEntityId: number;
  if (granted.length > 0 && granted[0]) {
    entityId = granted[0].id;
    otherEntityId = entityId + 1;
  } else {
    entityId = admin.createEntity({ name: 'Entity A', area_units_name: 'square metres' }).id;
    otherEntityId = admin.createEntity({ name: 'Entity B (not granted)' }).id;
    admin.grantEntityAccess(entityId, partner.id);
  }
  const tokenWith = (scopes: readonly string[], expiresInMs = 30 * day): string =>
    admin.createAccessToken({
      dataPartnerId: partner.id,
      name: `t-${scopes.join('+')}`,
      scopes,
      expiresAt: Date.now() + expiresInMs,
    }).token;
  const token = tokenWith(grantableScopes);

  const api: Harness['api'] = async (method, pathname, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    const t = init.token === undefined ? token : init.token;
    if (t !== null) headers['authorization'] = `Bearer ${t}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      if (typeof init.body === 'string') body = init.body;
      else {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(baseUrl + pathname, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed, json: <T>() => parsed as T };
  };

  return {
    server,
    baseUrl,
    admin,
    dataDir: dir,
    partnerId: partner.id,
    entityId,
    otherEntityId,
    token,
    tokenWith,
    api,
    async close() {
      await server.close();
      if (dataDir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A valid asset body; `n` makes the name unique. */
export function validAsset(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    partners_id: 5000 + n,
    name: `Test Asset ${n}`,
    country: 'NL',
    state_province: 'Noord-Holland',
    city: 'Amsterdam',
    address: `${n} Dam`,
    ownership: 100,
    property_type_code: 'OCHI',
    construction_year: 2001,
    gav: 12.5,
    size: 1000,
    annual_data: [
      {
        year: assessmentYear - 1,
        en_abs_we: 150_000,
        en_cov_we: 1000,
        en_tot_we: 1000,
        tenant_ctrl: false,
        owned_entire_period: true,
      },
      {
        year: assessmentYear,
        en_abs_we: 155_000,
        en_cov_we: 1000,
        en_tot_we: 1000,
        tenant_ctrl: false,
        owned_entire_period: true,
      },
    ],
    ...extra,
  };
}

export type Json = Record<string, unknown>;
export const asJson = (v: unknown): Json => v as Json;
export const asList = (v: unknown): Json[] => v as Json[];
