import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asList, startHarness, type Harness } from './helpers';
import { PortalClient, textOf } from './portal-client';

/** The sandbox portal's forms over HTTP: sessions, CSRF, escaping, tokens, applications, access rights. */
let h: Harness;
let portal: PortalClient;
const password = 'partner-user-pw';

beforeAll(async () => {
  h = await startHarness();
  const user = h.admin.createUser({
    email: 'partner@example.com',
    name: 'Partner User',
    dataPartnerId: h.partnerId,
  });
  h.server.store.accounts.setPassword(user.id, password);
  portal = new PortalClient(h.baseUrl);
  expect((await portal.signIn('partner@example.com', password)).status).toBe(303);
});
afterAll(async () => {
  await h.close();
});

describe('portal', () => {
  it('sets an HttpOnly SameSite=Lax session cookie and refuses pages without it', async () => {
    const res = await fetch(`${h.baseUrl}/portal/entities`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const page = await fetch(`${h.baseUrl}/portal/sign-in`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const login = await new PortalClient(h.baseUrl).get('/portal/sign-in');
    expect(login.status).toBe(200);
    const r = await fetch(`${h.baseUrl}/portal/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=partner%40example.com&password=partner-user-pw&csrf_token=x',
      redirect: 'manual',
    });
    expect(r.status).toBe(403); // login CSRF: no matching cookie
  });

  it('creates an entity (escaped on every page) and grants and revokes a data partner', async () => {
    const list = await portal.get('/portal/entities');
    const created = await portal.submit(list.text, '/portal/entities', {
      name: '<script>alert(1)</script> Fund',
      hq_country_code: 'nl',
      currency: 'eur',
    });
    expect(created.status).toBe(303);
    const entityPath = created.location ?? '';
    const overview = await portal.get(entityPath);
    expect(overview.text).not.toContain('<script>alert(1)</script>');
    expect(overview.text).toContain('&#60;script&#62;');
    expect(overview.text).toContain('Netherlands');
    const entityId = Number(entityPath.split('/').pop());

    const access = await portal.get(`${entityPath}/access`);
    const granted = await portal.submit(access.text, `${entityPath}/access`);
    expect(granted.status).toBe(303);
    expect(h.admin.hasEntityAccess(entityId, h.partnerId)).toBe(true);
    const after = await portal.get(`${entityPath}/access`);
    expect(after.text).toContain('Revoke access');
    await portal.submit(after.text, `${entityPath}/access`);
    expect(h.admin.hasEntityAccess(entityId, h.partnerId)).toBe(false);
  });

  it('refuses a form without the CSRF token', async () => {
    const r = await portal.request('POST', '/portal/entities', { name: 'No CSRF' });
    expect(r.status).toBe(403);
  });

  it('generates a token shown once that works, and deletes it', async () => {
    const tab = await portal.get('/portal/data-partners');
    const r = await portal.submit(tab.text, '/portal/data-partners/tokens', {
      name: 'CI token',
      expires_on: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      scopes: ['entities'],
    });
    expect(r.status).toBe(200);
    const token = textOf(r.text, 'new-token') ?? '';
    expect(token).toMatch(/^sbx_/);
    expect(asList((await h.api('GET', '/api/v1/entities', { token })).body).length).toBeGreaterThan(0);
    expect((await portal.get('/portal/data-partners')).text).not.toContain(token);
    const tooLong = await portal.submit(tab.text, '/portal/data-partners/tokens', {
      name: 'Forever',
      expires_on: '2999-01-01',
      scopes: ['entities'],
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('A token is valid for at most 1 year');
    const id = h.admin.listAccessTokens(h.partnerId).find((t) => t.name === 'CI token')?.id;
    const listing = await portal.get('/portal/data-partners');
    const del = await portal.submit(listing.text, `/portal/data-partners/tokens/${id}/delete`);
    expect(del.status).toBe(303);
    expect((await h.api('GET', '/api/v1/entities', { token })).status).toBe(401);
  });

  it('registers an application, refuses unsafe redirect URIs, and edits its name', async () => {
    const tab = await portal.get('/portal/data-partners');
    const bad = await portal.submit(tab.text, '/portal/data-partners/applications', {
      name: 'Bad',
      redirect_uris: 'http://example.com/cb\njavascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('plain http is only allowed on a loopback host');
    const ok = await portal.submit(tab.text, '/portal/data-partners/applications', {
      name: 'My integration',
      redirect_uris: 'http://127.0.0.1/\nhttps://app.example/cb',
    });
    const uid = textOf(ok.text, 'client-id') ?? '';
    expect(textOf(ok.text, 'client-secret')).toMatch(/^sbxs_/);
    const app = h.server.store.oauth.findApplicationByUid(uid);
    expect(app?.redirect_uris).toEqual(['http://127.0.0.1/', 'https://app.example/cb']);
    const edit = await portal.get(`/portal/data-partners/applications/${app?.id}`);
    await portal.submit(edit.text, `/portal/data-partners/applications/${app?.id}`, {
      name: 'Renamed integration',
      redirect_uris: 'http://127.0.0.1/',
    });
    expect(h.server.store.oauth.getApplication(app?.id ?? 0)?.name).toBe('Renamed integration');
  });

  it('a user without a data partner account has no Data Partners tab', async () => {
    const loner = h.admin.createUser({ email: 'loner@example.com', name: 'Loner' });
    h.server.store.accounts.setPassword(loner.id, 'loner-password');
    const c = new PortalClient(h.baseUrl);
    await c.signIn('loner@example.com', 'loner-password');
    expect((await c.get('/portal/entities')).text).not.toContain('Data Partners</a>');
    expect((await c.get('/portal/data-partners')).status).toBe(403);
  });
});
