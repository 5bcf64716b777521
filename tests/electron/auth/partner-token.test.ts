import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkPastedToken, parseExpiryDate } from '../../../electron/auth/partner-token';
import { AuthError } from '../../../electron/auth/errors';
import { entityFixture, startFakeApi } from './fake-api';

let api: Awaited<ReturnType<typeof startFakeApi>>;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

const connection = () => ({ baseUrl: api.origin, authUrl: `${api.origin}/auth` });
const goodToken = 'partner_token_0123456789';

describe('checkPastedToken', () => {
  it('lists the entities a partner token reaches and the scopes safe GETs prove', async () => {
    api.setRoute(({ method, path, token }) => {
      if (token !== goodToken) return { status: 401, body: { error: 'unauthorized' } };
      if (method === 'GET' && path === '/api/v1/entities')
        return { status: 200, body: [entityFixture(7), entityFixture(9)] };
      if (method === 'GET' && path === '/api/v1/entities/7/assets?per_page=1')
        return { status: 200, body: [] };
      return undefined;
    });
    const check = await checkPastedToken({
      connection: connection(),
      accessToken: ` ${goodToken}\n`,
      partnerExpiresOn: '2026-01-31',
    });
    expect(check.kind).toBe('partner');
    expect(check.entities.map((e) => e.id)).toEqual([7, 9]);
    expect(check.entities[0]?.reporting_preferences.currency).toBe('EUR');
    expect(check.scopes).toEqual(['entities', 'read:assets']);
    expect(check.scopesComplete).toBe(false);
    expect(check.expiresAt).toEqual(new Date('2026-01-31T00:00:00Z'));
    // The token went as a Bearer header, and the pasted whitespace was trimmed.
    expect(api.requests[0]).toEqual({ method: 'GET', path: '/api/v1/entities', token: goodToken });
  });

  it('leaves read:assets out when reading assets is refused', async () => {
    api.setRoute(({ path }) =>
      path === '/api/v1/entities' ? { status: 200, body: [entityFixture(7)] } : { status: 403, body: {} },
    );
    const check = await checkPastedToken({ connection: connection(), accessToken: goodToken });
    expect(check.scopes).toEqual(['entities']);
    expect(check.expiresAt).toBeNull();
  });

  it('recognises an OAuth token through token info: its scopes and remaining life', async () => {
    const now = new Date('2025-03-01T10:00:00Z');
    api.setRoute(({ method, path, body }) => {
      if (path === '/api/v1/entities') return { status: 200, body: [entityFixture(3)] };
      if (
        method === 'POST' &&
        path === '/auth/oauth/token/info' &&
        new URLSearchParams(body).get('access_token') === goodToken
      ) {
        return {
          status: 200,
          body: {
            resource_owner_id: 1,
            scope: ['public', 'entities'],
            expires_in: 3600,
            application: { uid: 'app' },
            created_at: 1,
          },
        };
      }
      return undefined;
    });
    const check = await checkPastedToken({
      connection: connection(),
      accessToken: goodToken,
      now: () => now,
    });
    expect(check).toMatchObject({ kind: 'oauth', scopes: ['public', 'entities'], scopesComplete: true });
    expect(check.expiresAt).toEqual(new Date(now.getTime() + 3_600_000));
  });

  it.each([
    [401, 'invalid_token', /refused this token \(401\)/],
    [403, 'missing_scope', /lacks the "entities" scope/],
    [503, 'server_error', /failed \(503\)/],
    [302, 'bad_response', /answered 302/],
  ] as const)('maps %i on GET /entities to %s', async (status, code, message) => {
    api.setRoute(() => ({ status, body: { error: 'x' } }));
    const error = await checkPastedToken({ connection: connection(), accessToken: goodToken }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(goodToken);
  });

  it('maps an unparseable entity list to bad_response', async () => {
    api.setRoute(() => ({ status: 200, body: [{ id: 'seven' }] }));
    await expect(
      checkPastedToken({ connection: connection(), accessToken: goodToken }),
    ).rejects.toMatchObject({
      code: 'bad_response',
    });
  });

  it('maps a service that cannot be reached to unreachable', async () => {
    const closed = await startFakeApi();
    const origin = closed.origin;
    await closed.close();
    await expect(
      checkPastedToken({ connection: { baseUrl: origin, authUrl: origin }, accessToken: goodToken }),
    ).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('refuses a paste that cannot be a token before sending it anywhere', async () => {
    for (const paste of ['', 'short', 'has a space in it', 'line\nbreak-inside-token']) {
      await expect(checkPastedToken({ connection: connection(), accessToken: paste })).rejects.toMatchObject({
        code: 'invalid_token',
      });
    }
    expect(api.requests).toEqual([]);
  });

  it('parses the partner expiry date the user entered', () => {
    expect(parseExpiryDate('2026-02-28')).toEqual(new Date('2026-02-28T00:00:00Z'));
    expect(parseExpiryDate('28/02/2026')).toBeNull();
    expect(parseExpiryDate(undefined)).toBeNull();
  });
});
