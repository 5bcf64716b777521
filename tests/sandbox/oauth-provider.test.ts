import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApplication } from '../../sandbox/store';
import { asList, startHarness, type Harness } from './helpers';
import { memberUser, PortalClient, testClock, tokenRequest, type TestClock } from './portal-client';

/** The provider over real HTTP, the way a browser and a client application drive it. */
let h: Harness;
let clock: TestClock;
let app: CreatedApplication;
let user: { id: number; email: string; password: string };
let browser: PortalClient;
let foreignEntityId: number;

const loopback = 'http://127.0.0.1:49152/oauth/cb-path';
/** Loopback and oob clients must use PKCE, so every request here carries it unless a test says not. */
const pkceVerifier = randomBytes(32).toString('base64url');
const pkceChallenge = createHash('sha256').update(pkceVerifier).digest('base64url');

function authorizeUrl(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  const all: Record<string, string | undefined> = {
    client_id: app.uid,
    redirect_uri: loopback,
    response_type: 'code',
    scope: 'entities read:assets',
    state: 'st-1',
    code_challenge: pkceChallenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
  return `/oauth/authorize?${q.toString()}`;
}

/** Step 1 through the consent page; the redirect Location (or the page, for oob/errors). */
async function authorize(
  params: Record<string, string | undefined> = {},
  decision: 'approve' | 'deny' = 'approve',
): Promise<{ status: number; location: string | null; text: string }> {
  const consent = await browser.get(authorizeUrl(params));
  if (consent.status !== 200 || !consent.text.includes('id="authorize"')) return consent;
  return browser.submit(consent.text, '/oauth/authorize', { decision });
}

async function codeFor(params: Record<string, string | undefined> = {}): Promise<string> {
  const r = await authorize(params);
  expect(r.status).toBe(303);
  const code = new URL(r.location ?? '').searchParams.get('code');
  expect(code).toBeTruthy();
  return code as string;
}

const exchange = (code: string, extra: Record<string, string> = {}) =>
  tokenRequest(h.baseUrl, {
    client_id: app.uid,
    client_secret: app.secret,
    code,
    grant_type: 'authorization_code',
    redirect_uri: loopback,
    code_verifier: pkceVerifier,
    ...extra,
  });

async function tokenInfo(token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${h.baseUrl}/oauth/token/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ access_token: token }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  clock = testClock();
  h = await startHarness({ now: clock.now });
  user = memberUser(h, 'member@example.com');
  // Granted to the partner but not reachable by this user: an OAuth token must not see it.
  const stranger = h.admin.createUser({ email: 'stranger@example.com', name: 'Stranger' });
  foreignEntityId = h.admin.createEntity({ name: 'Someone else’s fund', owner_user_id: stranger.id }).id;
  h.admin.grantEntityAccess(foreignEntityId, h.partnerId);
  app = h.server.store.oauth.createApplication({
    dataPartnerId: h.partnerId,
    name: 'Test client',
    redirectUris: ['http://127.0.0.1/', 'urn:ietf:wg:oauth:2.0:oob', 'https://client.example/callback'],
  });
  browser = new PortalClient(h.baseUrl);
  const signIn = await browser.signIn(user.email, user.password);
  expect(signIn.status).toBe(303);
});
afterAll(async () => {
  await h.close();
});

describe('step 1: /oauth/authorize', () => {
  it('asks a signed-out user to sign in, then returns to the same request', async () => {
    const fresh = new PortalClient(h.baseUrl);
    const first = await fresh.get(authorizeUrl({}));
    expect(first.status).toBe(303);
    const signInUrl = new URL(first.location ?? '', h.baseUrl);
    expect(signInUrl.pathname).toBe('/portal/sign-in');
    const back = await fresh.signIn(user.email, user.password, signInUrl.searchParams.get('return_to') ?? '');
    expect(back.location).toBe(authorizeUrl({}));
    const consent = await fresh.get(back.location ?? '');
    expect(consent.text).toContain('Test client');
    expect(consent.text).toMatch(/Authorize/);
    expect(consent.text).toMatch(/Deny/);
  });

  it('refuses a wrong password without a session', async () => {
    const fresh = new PortalClient(h.baseUrl);
    const r = await fresh.signIn(user.email, 'wrong password');
    expect(r.status).toBe(401);
    expect(fresh.hasSession()).toBe(false);
  });

  it('approve redirects with code and state; the loopback URI matches on any port and any path', async () => {
    const r = await authorize({ redirect_uri: 'http://127.0.0.1:61234/some/random/path?' });
    expect(r.status).toBe(303);
    const url = new URL(r.location ?? '');
    expect(url.origin).toBe('http://127.0.0.1:61234');
    expect(url.pathname).toBe('/some/random/path');
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('deny redirects with error=access_denied, error_description and state', async () => {
    const r = await authorize({}, 'deny');
    const url = new URL(r.location ?? '');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBeTruthy();
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('oob shows the code on a page instead of redirecting', async () => {
    const r = await authorize({ redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(r.status).toBe(200);
    const code = /id="authorization-code">([^<]+)</.exec(r.text)?.[1];
    expect(code).toBeTruthy();
    const t = await exchange(code as string, { redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(t.status).toBe(200);
  });

  it('a wrong redirect_uri is shown as invalid_redirect_uri and never redirected to', async () => {
    for (const bad of [
      'https://evil.example/cb',
      'https://client.example/callback/extra',
      'http://127.0.0.2:5000/',
      'http://127.0.0.1:5000/cb#frag',
    ]) {
      const r = await browser.get(authorizeUrl({ redirect_uri: bad }));
      expect(r.status, bad).toBe(400);
      expect(r.location).toBeNull();
      expect(r.text).toContain('invalid_redirect_uri');
    }
  });

  it('unknown client_id is a page (invalid_client); bad response_type and scope go back to the client', async () => {
    const unknown = await browser.get(authorizeUrl({ client_id: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('invalid_client');
    const cases: [Record<string, string | undefined>, string][] = [
      [{ scope: 'entities delete:everything' }, 'invalid_scope'],
      [{ response_type: 'id_token' }, 'unsupported_response_type'],
      [{ response_type: 'token' }, 'unauthorized_client'],
      [{ response_type: undefined }, 'invalid_request'],
      [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
    ];
    for (const [params, error] of cases) {
      const r = await browser.get(authorizeUrl(params));
      expect(r.status, error).toBe(302);
      const url = new URL(r.location ?? '');
      expect(url.searchParams.get('error'), JSON.stringify(params)).toBe(error);
      expect(url.searchParams.get('state')).toBe('st-1');
    }
  });

  it('the consent form needs the session’s CSRF token', async () => {
    const consent = await browser.get(authorizeUrl({}));
    const r = await browser.submit(consent.text, '/oauth/authorize', {
      decision: 'approve',
      csrf_token: 'forged',
    });
    expect(r.status).toBe(403);
    expect(r.location).toBeNull();
  });
});

describe('step 2: /oauth/token and /oauth/token/info', () => {
  it('exchanges a code for a bearer token valid 7200 s, with token info in the spec’s fields', async () => {
    const t = await exchange(await codeFor());
    expect(t.status).toBe(200);
    expect(t.headers.get('cache-control')).toBe('no-store');
    expect(t.body).toMatchObject({ token_type: 'bearer', expires_in: 7200, scope: 'entities read:assets' });
    const info = await tokenInfo(t.body['access_token'] as string);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      resource_owner_id: user.id,
      scope: ['public', 'entities', 'read:assets'],
      expires_in: 7200,
      application: { uid: app.uid },
      created_at: Math.floor(clock.now() / 1000),
    });
  });

  it('accepts the parameters in the query string too', async () => {
    const code = await codeFor();
    const t = await tokenRequest(
      h.baseUrl,
      {
        client_id: app.uid,
        client_secret: app.secret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: loopback,
        code_verifier: pkceVerifier,
      },
      { inQuery: true },
    );
    expect(t.status).toBe(200);
  });

  it('an OAuth token reaches only the user’s entities that are granted to the partner', async () => {
    const t = await exchange(await codeFor());
    const token = t.body['access_token'] as string;
    const list = await h.api('GET', '/api/v1/entities', { token });
    expect(asList(list.body).map((e) => e['id'])).toEqual([h.entityId]);
    // The partner's own token sees both granted entities.
    const partnerView = await h.api('GET', '/api/v1/entities');
    expect(asList(partnerView.body).map((e) => e['id'])).toContain(foreignEntityId);
    expect((await h.api('GET', `/api/v1/entities/${h.entityId}/assets`, { token })).status).toBe(200);
    expect((await h.api('GET', `/api/v1/entities/${foreignEntityId}/assets`, { token })).status).toBe(403);
    expect((await h.api('GET', `/api/v1/entities/${h.otherEntityId}`, { token })).status).toBe(403);
    // Scopes still apply: this token was not granted write:assets.
    expect((await h.api('POST', `/api/v1/entities/${h.entityId}/assets`, { token, body: {} })).status).toBe(
      403,
    );
  });

  it('a code works once; a replay is invalid_grant and revokes the token it yielded', async () => {
    const code = await codeFor();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const token = first.body['access_token'] as string;
    const replay = await exchange(code);
    expect(replay.status).toBe(400);
    expect(replay.body['error']).toBe('invalid_grant');
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(401);
  });

  it('a code expires after 10 minutes', async () => {
    const code = await codeFor();
    clock.advance(10 * 60_000 + 1000);
    const r = await exchange(code);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_grant' });
    expect(String(r.body['error_description'])).toMatch(/expired/);
  });

  it('the redirect_uri must equal the one of the authorization request', async () => {
    const code = await codeFor();
    const r = await exchange(code, { redirect_uri: 'http://127.0.0.1:49153/oauth/cb-path' });
    expect(r.status).toBe(400);
    expect(r.body['error']).toBe('invalid_grant');
  });

  it('a wrong client_secret or unknown client is invalid_client (401)', async () => {
    const code = await codeFor();
    const wrong = await exchange(code, { client_secret: 'sbxs_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body['error']).toBe('invalid_client');
    const unknown = await exchange(code, { client_id: 'unknown-client' });
    expect(unknown.body['error']).toBe('invalid_client');
    // The code was not spent by the failed attempts.
    expect((await exchange(code)).status).toBe(200);
  });

  it('HTTP Basic client authentication works as well', async () => {
    const code = await codeFor();
    const basic = Buffer.from(`${app.uid}:${app.secret}`).toString('base64');
    const r = await tokenRequest(
      h.baseUrl,
      { code, grant_type: 'authorization_code', redirect_uri: loopback, code_verifier: pkceVerifier },
      { headers: { authorization: `Basic ${basic}` } },
    );
    expect(r.status).toBe(200);
  });

  it('verifies PKCE S256 when the authorization carried a code_challenge', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
    expect((await exchange(await codeFor(pkce))).body['error']).toBe('invalid_grant');
    const wrong = await exchange(await codeFor(pkce), {
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(wrong.body['error']).toBe('invalid_grant');
    expect((await exchange(await codeFor(pkce), { code_verifier: verifier })).status).toBe(200);
  });

  it('grant type and parameter errors use the spec’s codes', async () => {
    const base = { client_id: app.uid, client_secret: app.secret, redirect_uri: loopback };
    const cases: [Record<string, string>, string, number][] = [
      [{ ...base, code: 'x' }, 'invalid_request', 400],
      [{ ...base, grant_type: 'password', username: 'a', password: 'b' }, 'unauthorized_client', 400],
      [{ ...base, grant_type: 'urn:example:magic' }, 'unsupported_grant_type', 400],
      [{ ...base, grant_type: 'authorization_code' }, 'invalid_request', 400],
      [{ ...base, grant_type: 'authorization_code', code: 'not-a-code' }, 'invalid_grant', 400],
      [{ grant_type: 'authorization_code', code: 'x', redirect_uri: loopback }, 'invalid_client', 401],
    ];
    for (const [params, error, status] of cases) {
      const r = await tokenRequest(h.baseUrl, params);
      expect(r.body['error'], JSON.stringify(params)).toBe(error);
      expect(r.status).toBe(status);
      expect(typeof r.body['error_description']).toBe('string');
    }
  });

  it('an expired token is refused by the API and unknown to token info', async () => {
    const token = (await exchange(await codeFor())).body['access_token'] as string;
    clock.advance(7200_000 - 1000);
    expect((await tokenInfo(token)).body['expires_in']).toBe(1);
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(200);
    clock.advance(1000);
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(401);
    const info = await tokenInfo(token);
    expect(info.status).toBe(401);
    expect(info.body['error']).toBe('unknown');
  });

  it('token info does not know partner tokens', async () => {
    const info = await tokenInfo(h.token);
    expect(info.status).toBe(401);
    expect(info.body['error']).toBe('unknown');
  });
});

describe('revoking access', () => {
  it('revoking the partner’s grant on the user’s entity invalidates the user’s OAuth tokens', async () => {
    const token = (await exchange(await codeFor())).body['access_token'] as string;
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(200);
    h.admin.revokeEntityAccess(h.entityId, h.partnerId);
    try {
      expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(401);
      expect((await tokenInfo(token)).status).toBe(401);
      // The partner's own token is unaffected (it just no longer sees the entity).
      expect((await h.api('GET', '/api/v1/entities')).status).toBe(200);
    } finally {
      h.admin.grantEntityAccess(h.entityId, h.partnerId);
    }
  });

  it('the user can withdraw an application in the portal; the flow restarts at step 1', async () => {
    const token = (await exchange(await codeFor())).body['access_token'] as string;
    const list = await browser.get('/portal/authorizations');
    expect(list.text).toContain('Test client');
    const r = await browser.submit(list.text, '/portal/authorizations/revoke');
    expect(r.status).toBe(303);
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(401);
    const again = await exchange(await codeFor());
    expect(again.status).toBe(200);
  });
});
