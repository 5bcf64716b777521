import { randomBytes } from 'node:crypto';
import type { Db } from './db';
import { generateTokenValue, hashToken } from '../auth/tokens';
import { isScope, type Scope } from '../../shared/auth/scopes';

export interface OAuthApplication {
  id: number;
  data_partner_id: number;
  name: string;
  /** The OAuth client_id. */
  uid: string;
  redirect_uris: string[];
  created_at: string;
  updated_at: string;
}

export interface CreatedApplication extends OAuthApplication {
  /** The plain client_secret: shown once, only its hash is stored. */
  secret: string;
}

export interface AuthorizationCode {
  applicationId: number;
  userId: number;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string | null;
  expiresAtMs: number;
  usedAtMs: number | null;
  tokenId: number | null;
}

export interface IssuedOAuthToken {
  id: number;
  token: string;
  scopes: Scope[];
  expiresInS: number;
}

export interface OAuthTokenDetails {
  id: number;
  userId: number;
  applicationUid: string;
  scopes: Scope[];
  expiresAtMs: number;
  createdAtS: number;
}

interface AppRow extends Omit<OAuthApplication, 'redirect_uris'> {
  redirect_uris: string;
  secret_hash: string;
}

/** The spec's lifetimes. */
export const codeLifetimeMs = 10 * 60_000;
export const oauthTokenLifetimeS = 7200;

const toApp = (row: AppRow): OAuthApplication => ({
  id: row.id,
  data_partner_id: row.data_partner_id,
  name: row.name,
  uid: row.uid,
  redirect_uris: JSON.parse(row.redirect_uris) as string[],
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const splitScopes = (s: string): Scope[] => s.split(' ').filter(isScope);

/** OAuth applications of data partners, authorization codes and the OAuth access tokens they yield. */
export function createOAuthRepo(db: Db, now: () => number) {
  const iso = () => new Date(now()).toISOString();
  const st = {
    insertApp:
      db.prepare(`INSERT INTO oauth_applications (data_partner_id, name, uid, secret_hash, redirect_uris,
      created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    getApp: db.prepare('SELECT * FROM oauth_applications WHERE id = ?'),
    appByUid: db.prepare('SELECT * FROM oauth_applications WHERE uid = ?'),
    listApps: db.prepare('SELECT * FROM oauth_applications WHERE data_partner_id = ? ORDER BY id'),
    updateApp: db.prepare(
      'UPDATE oauth_applications SET name = ?, redirect_uris = ?, updated_at = ? WHERE id = ?',
    ),
    setSecret: db.prepare('UPDATE oauth_applications SET secret_hash = ?, updated_at = ? WHERE id = ?'),
    deleteApp: db.prepare('DELETE FROM oauth_applications WHERE id = ?'),
    insertCode: db.prepare(`INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, scopes,
      code_challenge, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    getCode: db.prepare('SELECT * FROM oauth_codes WHERE code_hash = ?'),
    useCode: db.prepare('UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL'),
    codeToken: db.prepare('UPDATE oauth_codes SET token_id = ? WHERE code_hash = ?'),
    purgeCodes: db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?'),
    insertToken: db.prepare(`INSERT INTO access_tokens (data_partner_id, user_id, application_id, kind, name,
      token_hash, scopes, expires_at, created_at) VALUES (?, ?, ?, 'oauth', ?, ?, ?, ?, ?)`),
    deleteToken: db.prepare("DELETE FROM access_tokens WHERE id = ? AND kind = 'oauth'"),
    tokenByHash: db.prepare(`SELECT t.id, t.user_id, t.scopes, t.expires_at, t.created_at, a.uid
      FROM access_tokens t JOIN oauth_applications a ON a.id = t.application_id
      WHERE t.token_hash = ? AND t.kind = 'oauth'`),
    userAuthorizations: db.prepare(`SELECT a.*, COUNT(t.id) AS tokens, MAX(t.expires_at) AS last_expiry
      FROM access_tokens t JOIN oauth_applications a ON a.id = t.application_id
      WHERE t.user_id = ? AND t.kind = 'oauth' AND t.expires_at > ? GROUP BY a.id ORDER BY a.id`),
    revokeUserApp: db.prepare(
      "DELETE FROM access_tokens WHERE user_id = ? AND application_id = ? AND kind = 'oauth'",
    ),
  };
  const getApp = (id: number): OAuthApplication | undefined => {
    const row = st.getApp.get(id) as AppRow | undefined;
    return row ? toApp(row) : undefined;
  };

  return {
    createApplication(input: {
      dataPartnerId: number;
      name: string;
      redirectUris: readonly string[];
    }): CreatedApplication {
      const uid = randomBytes(24).toString('base64url');
      const secret = `sbxs_${randomBytes(32).toString('base64url')}`;
      const ts = iso();
      const r = st.insertApp.run(
        input.dataPartnerId,
        input.name,
        uid,
        hashToken(secret),
        JSON.stringify(input.redirectUris),
        ts,
        ts,
      );
      return { ...(getApp(Number(r.lastInsertRowid)) as OAuthApplication), secret };
    },
    getApplication: getApp,
    findApplicationByUid(uid: string): OAuthApplication | undefined {
      const row = st.appByUid.get(uid) as AppRow | undefined;
      return row ? toApp(row) : undefined;
    },
    listApplications(dataPartnerId: number): OAuthApplication[] {
      return (st.listApps.all(dataPartnerId) as AppRow[]).map(toApp);
    },
    updateApplication(id: number, input: { name: string; redirectUris: readonly string[] }): void {
      st.updateApp.run(input.name, JSON.stringify(input.redirectUris), iso(), id);
    },
    /** A fresh client_secret; the old one stops working at once. */
    regenerateSecret(id: number): string {
      const secret = `sbxs_${randomBytes(32).toString('base64url')}`;
      st.setSecret.run(hashToken(secret), iso(), id);
      return secret;
    },
    deleteApplication(id: number): boolean {
      return st.deleteApp.run(id).changes > 0;
    },
    /** Constant-time in effect: both sides are SHA-256 digests of 256-bit values. */
    verifyClientSecret(uid: string, secret: string): OAuthApplication | undefined {
      const row = st.appByUid.get(uid) as AppRow | undefined;
      return row && row.secret_hash === hashToken(secret) ? toApp(row) : undefined;
    },

    issueCode(input: {
      applicationId: number;
      userId: number;
      redirectUri: string;
      scopes: readonly Scope[];
      codeChallenge: string | null;
    }): string {
      st.purgeCodes.run(now() - codeLifetimeMs);
      const code = randomBytes(32).toString('base64url');
      st.insertCode.run(
        hashToken(code),
        input.applicationId,
        input.userId,
        input.redirectUri,
        input.scopes.join(' '),
        input.codeChallenge,
        now() + codeLifetimeMs,
      );
      return code;
    },
    findCode(code: string): AuthorizationCode | undefined {
      const row = st.getCode.get(hashToken(code)) as
        | {
            application_id: number;
            user_id: number;
            redirect_uri: string;
            scopes: string;
            code_challenge: string | null;
            expires_at: number;
            used_at: number | null;
            token_id: number | null;
          }
        | undefined;
      if (!row) return undefined;
      return {
        applicationId: row.application_id,
        userId: row.user_id,
        redirectUri: row.redirect_uri,
        scopes: splitScopes(row.scopes),
        codeChallenge: row.code_challenge,
        expiresAtMs: row.expires_at,
        usedAtMs: row.used_at,
        tokenId: row.token_id,
      };
    },
    /** Marks the code used; false when another request used it first. */
    consumeCode(code: string): boolean {
      return st.useCode.run(now(), hashToken(code)).changes === 1;
    },
    /** RFC 6749 §4.1.2: a replayed code revokes what the code already yielded. */
    revokeTokensOfCode(code: AuthorizationCode): void {
      if (code.tokenId !== null) st.deleteToken.run(code.tokenId);
    },

    issueToken(input: {
      application: OAuthApplication;
      userId: number;
      scopes: readonly Scope[];
      code: string;
    }): IssuedOAuthToken {
      const value = generateTokenValue();
      const nowMs = now();
      // public is every token's floor, as for partner tokens.
      const stored = [...new Set<Scope>(['public', ...input.scopes])];
      const r = st.insertToken.run(
        input.application.data_partner_id,
        input.userId,
        input.application.id,
        `OAuth: ${input.application.name}`,
        hashToken(value),
        stored.join(' '),
        nowMs + oauthTokenLifetimeS * 1000,
        new Date(nowMs).toISOString(),
      );
      const id = Number(r.lastInsertRowid);
      st.codeToken.run(id, hashToken(input.code));
      return { id, token: value, scopes: [...input.scopes], expiresInS: oauthTokenLifetimeS };
    },
    /** An OAuth token's details, or a reason it is not a live OAuth token. */
    tokenDetails(value: string): OAuthTokenDetails | 'unknown' | 'expired' {
      const row = st.tokenByHash.get(hashToken(value)) as
        | { id: number; user_id: number; scopes: string; expires_at: number; created_at: string; uid: string }
        | undefined;
      if (!row) return 'unknown';
      if (row.expires_at <= now()) return 'expired';
      return {
        id: row.id,
        userId: row.user_id,
        applicationUid: row.uid,
        scopes: splitScopes(row.scopes),
        expiresAtMs: row.expires_at,
        createdAtS: Math.floor(Date.parse(row.created_at) / 1000),
      };
    },
    /** Applications a user has live tokens for: the portal's "Authorized applications". */
    userAuthorizations(userId: number): (OAuthApplication & { tokens: number })[] {
      return (st.userAuthorizations.all(userId, now()) as (AppRow & { tokens: number })[]).map((r) => ({
        ...toApp(r),
        tokens: r.tokens,
      }));
    },
    /** The user withdraws an application: its tokens stop working; the next use starts at step 1. */
    revokeUserAuthorization(userId: number, applicationId: number): number {
      return st.revokeUserApp.run(userId, applicationId).changes;
    },
  };
}

export type OAuthRepo = ReturnType<typeof createOAuthRepo>;
