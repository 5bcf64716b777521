import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessRules, type AccessRule } from '../../shared/auth/scopes';
import { asJson, startHarness, validAsset, type Harness } from './helpers';

/** Every endpoint x {no token, expired, wrong scope, entity not granted, ok}. */
let h: Harness;
let callbackServer: Server;
let callbackUrl = '';
let seq = 0;

interface Endpoint {
  name: string;
  rule: AccessRule;
  okStatus: number;
  request(
    entityId: number,
  ): Promise<{ method: string; path: string; body?: unknown; form?: Record<string, string> }>;
}

const newAssetId = async (): Promise<number> => {
  const r = await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { body: validAsset(++seq) });
  return asJson(r.body)['service_asset_id'] as number;
};

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/v1/certifications',
    rule: accessRules.certifications,
    okStatus: 200,
    request: async () => ({ method: 'GET', path: '/api/v1/certifications' }),
  },
  {
    name: 'GET /api/v1/energy_ratings',
    rule: accessRules.energyRatings,
    okStatus: 200,
    request: async () => ({ method: 'GET', path: '/api/v1/energy_ratings' }),
  },
  {
    name: 'GET /api/v0/lists',
    rule: accessRules.lists,
    okStatus: 200,
    request: async () => ({ method: 'GET', path: '/api/v0/lists' }),
  },
  {
    name: 'GET /api/v0/lists/:slug',
    rule: accessRules.lists,
    okStatus: 200,
    request: async () => ({ method: 'GET', path: '/api/v0/lists/country' }),
  },
  {
    name: 'GET /api/v1/entities',
    rule: accessRules.listEntities,
    okStatus: 200,
    request: async () => ({ method: 'GET', path: '/api/v1/entities' }),
  },
  {
    name: 'GET /api/v1/entities/{id}',
    rule: accessRules.getEntity,
    okStatus: 200,
    request: async (e) => ({ method: 'GET', path: `/api/v1/entities/${e}` }),
  },
  {
    name: 'GET /api/v1/entities/{id}/assets',
    rule: accessRules.readAssets,
    okStatus: 200,
    request: async (e) => ({ method: 'GET', path: `/api/v1/entities/${e}/assets` }),
  },
  {
    name: 'POST /api/v1/entities/{id}/assets',
    rule: accessRules.writeAssets,
    okStatus: 201,
    request: async (e) => ({ method: 'POST', path: `/api/v1/entities/${e}/assets`, body: validAsset(++seq) }),
  },
  {
    name: 'GET /api/v1/entities/{id}/assets/{id}',
    rule: accessRules.readAssets,
    okStatus: 200,
    request: async (e) => ({ method: 'GET', path: `/api/v1/entities/${e}/assets/${await newAssetId()}` }),
  },
  {
    name: 'PATCH /api/v1/entities/{id}/assets/{id}',
    rule: accessRules.writeAssets,
    okStatus: 200,
    request: async (e) => ({
      method: 'PATCH',
      path: `/api/v1/entities/${e}/assets/${await newAssetId()}`,
      body: { city: 'Zaandam' },
    }),
  },
  {
    name: 'DELETE /api/v1/entities/{id}/assets/{id}',
    rule: accessRules.writeAssets,
    okStatus: 200,
    request: async (e) => ({ method: 'DELETE', path: `/api/v1/entities/${e}/assets/${await newAssetId()}` }),
  },
  {
    name: 'POST /api/v1/entities/{id}/assets/batches',
    rule: accessRules.batches,
    okStatus: 200,
    request: async (e) => ({
      method: 'POST',
      path: `/api/v1/entities/${e}/assets/batches`,
      body: { create: [validAsset(++seq)] },
    }),
  },
  {
    name: 'POST /api/v1/entities/{id}/assets/validation',
    rule: accessRules.validation,
    okStatus: 200,
    request: async (e) => ({
      method: 'POST',
      path: `/api/v1/entities/${e}/assets/validation`,
      body: { create: [validAsset(++seq)] },
    }),
  },
  {
    name: 'POST /api/v1/entities/{id}/asset_spreadsheet_export',
    rule: accessRules.export,
    okStatus: 200,
    request: async (e) => ({
      method: 'POST',
      path: `/api/v1/entities/${e}/asset_spreadsheet_export`,
      form: { callback_url: callbackUrl },
    }),
  },
];

type Case = 'no token' | 'expired' | 'wrong scope' | 'entity not granted' | 'ok';
const cases: Case[] = ['no token', 'expired', 'wrong scope', 'entity not granted', 'ok'];

function expected(ep: Endpoint, c: Case): number {
  switch (c) {
    case 'no token':
    case 'expired':
      return 401;
    case 'wrong scope':
      return ep.rule.scope === null ? ep.okStatus : 403;
    case 'entity not granted':
      return ep.rule.entity ? 403 : ep.okStatus;
    case 'ok':
      return ep.okStatus;
  }
}

beforeAll(async () => {
  h = await startHarness({ rateLimit: { limit: 10_000, windowMs: 60_000 } });
  callbackServer = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/cb`;
});
afterAll(async () => {
  await h.close();
  await new Promise((resolve) => callbackServer.close(resolve));
});

describe('access matrix', () => {
  for (const ep of endpoints) {
    for (const c of cases) {
      it(`${ep.name} x ${c} -> ${expected(ep, c)}`, async () => {
        let token: string | null = h.token;
        let entityId = h.entityId;
        if (c === 'no token') token = null;
        if (c === 'expired') {
          token = h.tokenWith(['entities', 'read:assets', 'write:assets']);
          h.server.store.db
            .prepare('UPDATE access_tokens SET expires_at = ? WHERE name = ?')
            .run(Date.now() - 1000, 't-entities+read:assets+write:assets');
        }
        if (c === 'wrong scope') token = h.tokenWith(['read:responses', 'write:responses']);
        if (c === 'entity not granted') entityId = h.otherEntityId;
        const req = await ep.request(entityId);
        let res: { status: number; body: unknown };
        if (req.form) {
          const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
          if (token !== null) headers['authorization'] = `Bearer ${token}`;
          const r = await fetch(h.baseUrl + req.path, {
            method: req.method,
            headers,
            body: new URLSearchParams(req.form).toString(),
          });
          res = { status: r.status, body: await r.json() };
        } else {
          res = await h.api(req.method, req.path, { token, body: req.body });
        }
        expect(res.status).toBe(expected(ep, c));
        if (res.status >= 400) {
          expect(res.body).toEqual({ error: expect.any(String), message: expect.any(String) });
        }
      });
    }
  }
});
