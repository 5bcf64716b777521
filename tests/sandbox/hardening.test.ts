/**
 * The attack review's findings on the sandbox, each replayed over real HTTP on 127.0.0.1: DNS
 * rebinding (Host), bodies read before authentication, the open redirect, the PKCE downgrade,
 * malformed input answered 500, and the per-install demo password.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxServer } from '../../sandbox/server';
import { ensureDemoAccess } from '../../sandbox/seed';
import { demoUserEmail } from '../../sandbox/demo-user';
import type { CreatedApplication } from '../../sandbox/store';
import { startHarness, type Harness } from './helpers';
import { memberUser, PortalClient, tokenRequest } from './portal-client';

/** node:http, because fetch may not set Host; answers the status, headers and body text. */
function raw(
  baseUrl: string,
  init: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: init.method ?? 'GET',
        path: init.path,
        headers: init.headers,
        // A socket whose body was cut short must never carry the next request.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    // The server may answer and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    req.end(init.body);
  });
}

let h: Harness;
let port: string;

beforeAll(async () => {
  h = await startHarness();
  port = new URL(h.baseUrl).port;
});
afterAll(() => h.close());

describe('Host: only our own loopback name and port (DNS rebinding)', () => {
  const routes = ['/api/v1/entities', '/portal/sign-in', '/oauth/authorize?client_id=x', '/nowhere'];

  it('refuses another name or another port on every route, before anything else', async () => {
    const otherPort = String(Number(port) === 65535 ? 1 : Number(port) + 1);
    for (const route of routes) {
      for (const host of [`rebind.attacker.example:${port}`, `127.0.0.1:${otherPort}`, 'localhost']) {
        const r = await raw(h.baseUrl, {
          path: route,
          headers: { host, authorization: `Bearer ${h.token}` },
        });
        expect({ route, host, status: r.status }).toEqual({ route, host, status: 421 });
      }
    }
    // A rebound page cannot sign in to the portal either.
    const post = await raw(h.baseUrl, {
      method: 'POST',
      path: '/portal/sign-in',
      headers: {
        host: `rebind.attacker.example:${port}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'email=a&password=b',
    });
    expect(post.status).toBe(421);
  });

  it('serves 127.0.0.1 and localhost on its own port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const r = await raw(h.baseUrl, {
        path: '/api/v1/entities',
        headers: { host, authorization: `Bearer ${h.token}` },
      });
      expect(r.status).toBe(200);
    }
  });
});

describe('bodies: authentication first, and each route reads only what it needs', () => {
  const batchPath = () => `/api/v1/entities/${h.entityId}/assets/batches`;

  it('an anonymous form body on an API route is refused at 64 KB, not read up to hundreds of MB', async () => {
    const body = `access_token=${'x'.repeat(1024 * 1024)}`;
    const r = await raw(h.baseUrl, {
      method: 'POST',
      path: batchPath(),
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(r.status).toBe(413);
  });

  it('an anonymous JSON body is answered 401 before it is read', async () => {
    const r = await raw(h.baseUrl, {
      method: 'POST',
      path: batchPath(),
      headers: {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/json',
        'content-length': String(200 * 1024 * 1024),
      },
      // Far less than announced: a server that waited for the body would never answer.
      body: '{"create":[',
    });
    expect(r.status).toBe(401);
  });

  it('portal and OAuth routes take at most 64 KB', async () => {
    for (const route of ['/portal/sign-in', '/oauth/token']) {
      const r = await raw(h.baseUrl, {
        method: 'POST',
        path: route,
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          'content-length': String(256 * 1024),
        },
        // Announced, never sent: the refusal comes from the announced length alone.
        body: '{"email":"',
      });
      expect({ route, status: r.status }).toEqual({ route, status: 413 });
    }
  });

  it('an authenticated batch may still be large (several MB)', async () => {
    const create = Array.from({ length: 2000 }, (_, i) => ({
      partners_id: 90_000 + i,
      name: `Big ${i} ${'n'.repeat(1200)}`,
    }));
    const r = await h.api('POST', batchPath(), { body: { create } });
    expect(JSON.stringify({ create }).length).toBeGreaterThan(2 * 1024 * 1024);
    expect(r.status).toBe(200);
  });
});

describe('portal return_to: same-origin paths only', () => {
  it('a tab, newline or dot segment cannot turn the path into another origin or a 500', async () => {
    const user = memberUser(h, 'redirect@example.com');
    for (const returnTo of [
      `/%09/127.0.0.1:${port}/x`,
      `/%0A/127.0.0.1:${port}/x`,
      `/%0D%0ASet-Cookie:%20a=b`,
      '/\\evil.example',
      // Dot segments collapse into `//evil.example` once the path is normalised.
      '/.//evil.example',
      '/portal/../..//evil.example',
      encodeURIComponent('/%2e//evil.example'),
      encodeURIComponent('/portal/%2E%2E/%2e.//evil.example'),
      `//evil.example/x`,
      'https://evil.example/',
    ]) {
      const browser = new PortalClient(h.baseUrl);
      const form = await browser.get(`/portal/sign-in?return_to=${returnTo}`);
      expect(form.status).toBe(200);
      const signedIn = await browser.submit(form.text, '/portal/sign-in', {
        email: user.email,
        password: user.password,
      });
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/portal');
      // A form posted with the hostile value itself (not the one the page rendered): the same rule.
      const posted = new PortalClient(h.baseUrl);
      const postedForm = await posted.get('/portal/sign-in');
      const direct = await posted.submit(postedForm.text, '/portal/sign-in', {
        email: user.email,
        password: user.password,
        return_to: decodeURIComponent(returnTo),
      });
      expect({ returnTo, status: direct.status, location: direct.location }).toEqual({
        returnTo,
        status: 303,
        location: '/portal',
      });
      // Signed in, the GET redirects at once: the same rule.
      const again = await browser.get(`/portal/sign-in?return_to=${returnTo}`);
      expect({ returnTo, status: again.status, location: again.location }).toEqual({
        returnTo,
        status: 303,
        location: '/portal',
      });
    }
    const browser = new PortalClient(h.baseUrl);
    expect((await browser.signIn(user.email, user.password)).status).toBe(303);
    const ok = await browser.get(`/portal/sign-in?return_to=${encodeURIComponent('/portal/entities?x=1')}`);
    expect(ok.location).toBe('/portal/entities?x=1');
  });
});

describe('OAuth: PKCE cannot be skipped or downgraded', () => {
  let app: CreatedApplication;
  let browser: PortalClient;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  beforeAll(async () => {
    const user = memberUser(h, 'pkce@example.com');
    app = h.server.store.oauth.createApplication({
      dataPartnerId: h.partnerId,
      name: 'PKCE client',
      redirectUris: ['http://127.0.0.1/', 'urn:ietf:wg:oauth:2.0:oob', 'https://client.example/cb'],
    });
    browser = new PortalClient(h.baseUrl);
    expect((await browser.signIn(user.email, user.password)).status).toBe(303);
  });

  const authorize = async (params: Record<string, string>) => {
    const q = new URLSearchParams({
      client_id: app.uid,
      response_type: 'code',
      scope: 'entities',
      ...params,
    });
    const consent = await browser.get(`/oauth/authorize?${q.toString()}`);
    if (!consent.text.includes('id="authorize"')) return consent;
    return browser.submit(consent.text, '/oauth/authorize', { decision: 'approve' });
  };

  it('a loopback or oob client without code_challenge is refused', async () => {
    const loopback = await authorize({ redirect_uri: 'http://127.0.0.1:50000/cb' });
    expect(loopback.status).toBe(302);
    const url = new URL(loopback.location ?? '');
    expect(url.searchParams.get('error')).toBe('invalid_request');
    expect(url.searchParams.get('error_description')).toMatch(/code_challenge is required/);
    expect(url.searchParams.get('code')).toBeNull();

    const oob = await authorize({ redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(oob.text).toMatch(/code_challenge is required/);
    expect(oob.text).not.toMatch(/id="code"/);
  });

  it('a code issued without code_challenge is not redeemed with a code_verifier', async () => {
    const redirect = 'https://client.example/cb';
    const r = await authorize({ redirect_uri: redirect });
    const code = new URL(r.location ?? '').searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const t = await tokenRequest(h.baseUrl, {
      grant_type: 'authorization_code',
      client_id: app.uid,
      client_secret: app.secret,
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(t.status).toBe(400);
    expect(t.body['error']).toBe('invalid_grant');
  });

  it('a loopback client with S256 still gets its token', async () => {
    const redirect = 'http://127.0.0.1:50000/cb';
    const r = await authorize({
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = new URL(r.location ?? '').searchParams.get('code') ?? '';
    const t = await tokenRequest(h.baseUrl, {
      grant_type: 'authorization_code',
      client_id: app.uid,
      client_secret: app.secret,
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(t.status).toBe(200);
  });
});

describe('malformed input is a 400 with a reason, not a 500', () => {
  it('a page number beyond any listing', async () => {
    const r = await h.api('GET', `/api/v1/entities/${h.entityId}/assets?page=999999999999999999`);
    expect(r.status).toBe(400);
    expect(r.json()['message']).toMatch(/page must be at most/);
  });

  it('a query parameter given twice or with an unknown value', async () => {
    const twice = await raw(h.baseUrl, {
      path: '/portal/sign-in?return_to=/portal&return_to=/portal/entities',
      headers: { host: `127.0.0.1:${port}` },
    });
    expect(twice.status).toBe(400);
    expect(twice.text).toMatch(/query parameter return_to is not valid/);

    // A data partner's user, who may see the granted entity's view pages.
    const partnerUser = h.admin.createUser({
      email: 'query@example.com',
      name: 'query',
      dataPartnerId: h.partnerId,
    });
    h.server.store.accounts.setPassword(partnerUser.id, 'correct horse battery');
    const user = { email: 'query@example.com', password: 'correct horse battery' };
    const browser = new PortalClient(h.baseUrl);
    expect((await browser.signIn(user.email, user.password)).status).toBe(303);
    const assets = `/portal/view/entities/${h.entityId}/assets`;
    for (const query of ['show=errors&show=all', 'show=nonsense']) {
      const r = await browser.get(`${assets}?${query}`);
      expect({ query, status: r.status }).toEqual({ query, status: 400 });
      expect(r.text).toMatch(/query parameter show is not valid/);
    }
  });

  it('a multipart body without a boundary, on the portal, OAuth and API routes', async () => {
    const routes: [string, Record<string, string>][] = [
      ['/portal/sign-in', {}],
      ['/oauth/token', {}],
      [`/api/v1/entities/${h.entityId}/asset_spreadsheet_export`, { authorization: `Bearer ${h.token}` }],
    ];
    for (const [route, headers] of routes) {
      for (const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; charset=utf-8',
      ]) {
        const r = await raw(h.baseUrl, {
          method: 'POST',
          path: route,
          headers: { host: `127.0.0.1:${port}`, 'content-type': type, ...headers },
          body: 'callback_url=https://client.example/cb',
        });
        expect({ route, type, status: r.status }).toEqual({ route, type, status: 400 });
        expect(r.text).toMatch(/needs a boundary/);
      }
    }
  });

  it('Basic client credentials with a broken escape', async () => {
    const basic = Buffer.from('client%ZZ:secret').toString('base64');
    const t = await tokenRequest(
      h.baseUrl,
      { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://client.example/cb' },
      { headers: { authorization: `Basic ${basic}` } },
    );
    expect(t.status).toBe(400);
    expect(t.body['error']).toBe('invalid_request');
    expect(String(t.body['error_description'])).toMatch(/form-urlencoded/);
  });
});

describe('the demo account has a password made per install', () => {
  it('differs between installs, lives in a 0600 file, works, and is not on the sign-in page', async () => {
    const dirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'sandbox-demo-pw-')));
    try {
      const passwords: string[] = [];
      for (const dir of dirs) {
        const server = createSandboxServer({ dataDir: dir, assessmentYear: 2025 });
        const access = ensureDemoAccess(server.store, { assessmentYear: 2025, assetsPerEntity: 1 });
        // A restart keeps the same password.
        expect(ensureDemoAccess(server.store, { assessmentYear: 2025 }).demoUser.password).toBe(
          access.demoUser.password,
        );
        passwords.push(access.demoUser.password);
        expect(access.demoUser.password).not.toBe('sandbox-demo');
        expect(access.demoUser.password.length).toBeGreaterThanOrEqual(16);
        expect(statSync(path.join(dir, 'demo-password')).mode & 0o777).toBe(0o600);
        const { baseUrl } = await server.listen(0);
        const browser = new PortalClient(baseUrl);
        const page = await browser.get('/portal/sign-in');
        expect(page.text).not.toContain(access.demoUser.password);
        expect(page.text).not.toContain('sandbox-demo');
        expect((await browser.signIn(demoUserEmail, 'sandbox-demo')).status).toBe(401);
        expect((await browser.signIn(demoUserEmail, access.demoUser.password)).status).toBe(303);
        await server.close();
      }
      expect(passwords[0]).not.toBe(passwords[1]);
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a sandbox that still has the old published password gets the new one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-demo-old-'));
    try {
      const server = createSandboxServer({ dataDir: dir, assessmentYear: 2025 });
      ensureDemoAccess(server.store, { assessmentYear: 2025, assetsPerEntity: 1 });
      const user = server.store.accounts.findUserByEmail(demoUserEmail);
      server.store.accounts.setPassword(user?.id ?? 0, 'sandbox-demo');
      rmSync(path.join(dir, 'demo-password'));
      const access = ensureDemoAccess(server.store, { assessmentYear: 2025 });
      expect(server.store.accounts.verifyCredentials(demoUserEmail, 'sandbox-demo')).toBeFalsy();
      expect(server.store.accounts.verifyCredentials(demoUserEmail, access.demoUser.password)).toBeTruthy();
      await server.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
