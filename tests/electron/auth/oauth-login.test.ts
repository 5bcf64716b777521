import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError } from '../../../electron/auth/errors';
import { startLoopbackListener } from '../../../electron/auth/loopback-listener';
import { oobRedirectUri, startOAuthLogin, type OAuthLogin } from '../../../electron/auth/oauth-login';
import { startFakeProvider, type FakeProvider } from './fake-provider';

let provider: FakeProvider;
beforeAll(async () => {
  provider = await startFakeProvider();
});
afterAll(() => provider.close());

const fixedNow = new Date('2025-03-01T10:00:00Z');

/** Starts a flow whose "browser" only records the authorize URL; the test then plays the browser. */
async function start(
  extra: { timeoutMs?: number; redirect?: 'oob' } = {},
): Promise<{ login: OAuthLogin; opened: string[] }> {
  const opened: string[] = [];
  const login = await startOAuthLogin({
    connection: { portalUrl: `${provider.origin}/portal`, authUrl: provider.origin },
    clientId: 'client-1',
    clientSecret: 'secret-1',
    scopes: ['entities', 'read:assets'],
    openBrowser: async (url) => {
      opened.push(url);
    },
    timeoutMs: extra.timeoutMs ?? 10_000,
    now: () => fixedNow,
    ...(extra.redirect ? { redirect: extra.redirect } : {}),
  });
  const authorize = new URL(login.authorizeUrl);
  provider.expectChallenge(authorize.searchParams.get('code_challenge') ?? '');
  return { login, opened };
}

function callback(login: OAuthLogin, params: Record<string, string>, path?: string): Promise<Response> {
  const url = new URL(login.redirectUri);
  if (path !== undefined) url.pathname = path;
  url.search = new URLSearchParams(params).toString();
  return fetch(url);
}

const stateOf = (login: OAuthLogin): string => new URL(login.authorizeUrl).searchParams.get('state') ?? '';

/** Resolves to 'pending' if the promise has not settled after a few event-loop turns. */
async function settledState(promise: Promise<unknown>): Promise<'pending' | 'fulfilled' | 'rejected'> {
  const marker = Symbol('pending');
  const winner = await Promise.race([
    promise.then(
      () => 'fulfilled' as const,
      () => 'rejected' as const,
    ),
    new Promise<symbol>((resolve) => setTimeout(() => resolve(marker), 50)),
  ]);
  return winner === marker ? 'pending' : (winner as 'fulfilled' | 'rejected');
}

describe('OAuth login over the loopback listener', () => {
  it('opens the system browser on the authorize URL with state, PKCE S256 and a loopback redirect', async () => {
    const { login, opened } = await start();
    expect(opened).toEqual([login.authorizeUrl]);
    expect(login.mode).toBe('loopback');
    expect(login.browserOpened).toBe(true);
    const url = new URL(login.authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${provider.origin}/portal/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-1',
      redirect_uri: login.redirectUri,
      response_type: 'code',
      scope: 'entities read:assets',
      code_challenge_method: 'S256',
    });
    expect(stateOf(login)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/[A-Za-z0-9_-]{43}$/);
    login.cancel();
    await expect(login.result).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('happy path: the callback delivers the code, which is exchanged with the verifier for a 2-hour token', async () => {
    const { login } = await start();
    const page = await callback(login, { code: 'abc123', state: stateOf(login) });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/return to Asset Desk/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    const token = await login.result;
    expect(token).toEqual({
      accessToken: 'oauth_abc123',
      tokenType: 'bearer',
      scopes: ['public', 'entities', 'read:assets'],
      expiresAt: new Date(fixedNow.getTime() + 7_200_000),
      obtainedAt: fixedNow,
    });
    const form = provider.tokenRequests.at(-1);
    expect(Object.fromEntries(form ?? [])).toEqual({
      client_id: 'client-1',
      client_secret: 'secret-1',
      code: 'abc123',
      grant_type: 'authorization_code',
      redirect_uri: login.redirectUri,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });

  it('refuses a forged callback with the wrong state (400) and keeps waiting for the real one', async () => {
    const { login } = await start();
    const forged = await callback(login, { code: 'evil', state: 'forged-state' });
    expect(forged.status).toBe(400);
    const missing = await callback(login, { code: 'evil' });
    expect(missing.status).toBe(400);
    expect(await settledState(login.result)).toBe('pending');
    expect(provider.tokenRequests.some((f) => f.get('code') === 'evil')).toBe(false);

    await callback(login, { code: 'real', state: stateOf(login) });
    expect((await login.result).accessToken).toBe('oauth_real');
  });

  it('answers 404 on any other path, without completing the flow', async () => {
    const { login } = await start();
    const wrong = await callback(login, { code: 'x', state: stateOf(login) }, '/oauth/guessed');
    expect(wrong.status).toBe(404);
    const root = await callback(login, { code: 'x', state: stateOf(login) }, '/');
    expect(root.status).toBe(404);
    expect(await settledState(login.result)).toBe('pending');
    login.cancel();
    await expect(login.result).rejects.toBeInstanceOf(AuthError);
  });

  it('refuses a second use: the listener is gone after the first genuine callback', async () => {
    const { login } = await start();
    await callback(login, { code: 'once', state: stateOf(login) });
    await login.result;
    await expect(callback(login, { code: 'twice', state: stateOf(login) })).rejects.toThrow();
    expect(provider.tokenRequests.some((f) => f.get('code') === 'twice')).toBe(false);
  });

  it('times out: the result rejects as a timeout and the port stops answering', async () => {
    const { login } = await start({ timeoutMs: 150 });
    const error = await login.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('timeout');
    await expect(callback(login, { code: 'late', state: stateOf(login) })).rejects.toThrow();
  });

  it('surfaces a denial (error=access_denied) as a typed error with the provider description', async () => {
    const { login } = await start();
    const exchangesBefore = provider.tokenRequests.length;
    const page = await callback(login, {
      error: 'access_denied',
      error_description: 'The resource owner denied the request.',
      state: stateOf(login),
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/denied the request.*return to Asset Desk/s);
    const error = await login.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'access_denied', message: 'The resource owner denied the request.' });
    expect(provider.tokenRequests.length).toBe(exchangesBefore);
  });

  it('maps a refused exchange (invalid_grant) to a typed error', async () => {
    const { login } = await start();
    provider.failNextExchange(400, { error: 'invalid_grant', error_description: 'The code has expired.' });
    await callback(login, { code: 'stale', state: stateOf(login) });
    await expect(login.result).rejects.toMatchObject({
      code: 'invalid_grant',
      message: 'The code has expired.',
    });
  });

  it('rejects a token response that is not a bearer token with an expiry', async () => {
    const { login } = await start();
    provider.failNextExchange(200, {
      access_token: 'x',
      token_type: 'mac',
      expires_in: 7200,
      scope: 'entities',
    });
    await callback(login, { code: 'odd', state: stateOf(login) });
    await expect(login.result).rejects.toMatchObject({ code: 'bad_response' });
  });

  it('keeps the flow alive when the browser cannot be opened, so the URL can be shown instead', async () => {
    const login = await startOAuthLogin({
      connection: { portalUrl: provider.origin, authUrl: provider.origin },
      clientId: 'c',
      clientSecret: 's',
      scopes: ['entities'],
      openBrowser: () => Promise.reject(new Error('no browser')),
      timeoutMs: 10_000,
    });
    expect(login.browserOpened).toBe(false);
    expect(await settledState(login.result)).toBe('pending');
    login.cancel();
    await expect(login.result).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('OAuth login, out-of-band fallback', () => {
  it('uses urn:ietf:wg:oauth:2.0:oob and exchanges the pasted code', async () => {
    const { login } = await start({ redirect: 'oob' });
    expect(login.mode).toBe('oob');
    expect(login.redirectUri).toBe(oobRedirectUri);
    expect(new URL(login.authorizeUrl).searchParams.get('redirect_uri')).toBe(oobRedirectUri);
    login.submitCode('  pasted-code \n');
    const token = await login.result;
    expect(token.accessToken).toBe('oauth_pasted-code');
    expect(provider.tokenRequests.at(-1)?.get('redirect_uri')).toBe(oobRedirectUri);
  });

  it('times out when no code is pasted', async () => {
    const { login } = await start({ redirect: 'oob', timeoutMs: 100 });
    await expect(login.result).rejects.toMatchObject({ code: 'timeout' });
  });
});

describe('loopback listener on its own', () => {
  it('binds 127.0.0.1 and refuses a request naming another host (DNS rebinding)', async () => {
    const listener = await startLoopbackListener({ expectedState: 's', timeoutMs: 5_000 });
    const url = new URL(listener.redirectUri);
    expect(url.hostname).toBe('127.0.0.1');
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: `${url.pathname}?state=s&code=c`,
          headers: { Host: 'evil.example' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    expect(listener.listening).toBe(true);
    listener.close();
    await expect(listener.result).rejects.toMatchObject({ code: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listener.listening).toBe(false);
  });
});
