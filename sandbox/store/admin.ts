import type { Db } from './db';
import { generateTokenValue, hashToken, maxTokenExpiry } from '../auth/tokens';
import { grantableScopes, isScope, type Scope } from '../../shared/auth/scopes';

export interface DataPartner {
  id: number;
  name: string;
  created_at: string;
}

export interface User {
  id: number;
  email: string;
  name: string;
  data_partner_id: number | null;
  created_at: string;
}

/** The spec's Entity resource, exactly as the API returns it. */
export interface EntityResource {
  id: number;
  name: string;
  manager: string;
  hq_country_code: string;
  hq_country_name: string;
  address: string;
  reporting_preferences: {
    currency: string;
    area_units_name: string;
    reporting_period: string;
    reporting_period_month: number;
    reporting_period_month_name: string;
  };
  created_at: string;
  updated_at: string;
}

export interface NewEntity {
  name: string;
  manager?: string;
  hq_country_code?: string;
  hq_country_name?: string;
  address?: string;
  currency?: string;
  area_units_name?: string;
  reporting_period?: string;
  reporting_period_month?: number;
  owner_user_id?: number | null;
}

/** Token metadata; the hash never leaves the store. */
export interface AccessTokenInfo {
  id: number;
  data_partner_id: number;
  user_id: number | null;
  kind: string;
  name: string;
  scopes: Scope[];
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedToken extends AccessTokenInfo {
  /** The plain token value: returned once, never stored. */
  token: string;
}

export interface NewToken {
  dataPartnerId: number;
  name: string;
  scopes: readonly string[];
  /** Epoch ms; must be in the future and at most one year away. */
  expiresAt: number;
  userId?: number | null;
  kind?: string;
}

/** Resolved on every API request: who is calling, with what, and until when. */
export interface TokenPrincipal {
  tokenId: number;
  tokenHash: string;
  dataPartnerId: number;
  userId: number | null;
  /** 'partner' (generated in the portal) or 'oauth' (issued to an application for a user). */
  kind: string;
  scopes: Set<Scope>;
  expiresAtMs: number;
}

export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

interface EntityRow {
  id: number;
  name: string;
  manager: string;
  hq_country_code: string;
  hq_country_name: string;
  address: string;
  currency: string;
  area_units_name: string;
  reporting_period: string;
  reporting_period_month: number;
  created_at: string;
  updated_at: string;
}

interface TokenRow {
  id: number;
  data_partner_id: number;
  user_id: number | null;
  kind: string;
  name: string;
  token_hash: string;
  scopes: string;
  expires_at: number;
  created_at: string;
  last_used_at: string | null;
}

export function entityResource(row: EntityRow): EntityResource {
  return {
    id: row.id,
    name: row.name,
    manager: row.manager,
    hq_country_code: row.hq_country_code,
    hq_country_name: row.hq_country_name,
    address: row.address,
    reporting_preferences: {
      currency: row.currency,
      area_units_name: row.area_units_name,
      reporting_period: row.reporting_period,
      reporting_period_month: row.reporting_period_month,
      reporting_period_month_name: monthNames[row.reporting_period_month - 1] ?? '',
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function tokenInfo(row: TokenRow): AccessTokenInfo {
  return {
    id: row.id,
    data_partner_id: row.data_partner_id,
    user_id: row.user_id,
    kind: row.kind,
    name: row.name,
    scopes: row.scopes.split(' ').filter(isScope),
    expires_at: new Date(row.expires_at).toISOString(),
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

/**
 * The programmatic admin surface: what the sandbox portal (part 2) and the tests use to set up
 * partners, entities, grants and tokens. Not reachable over the API.
 */
export function createAdmin(db: Db, now: () => number) {
  const iso = () => new Date(now()).toISOString();
  const st = {
    insertPartner: db.prepare('INSERT INTO data_partners (name, created_at) VALUES (?, ?)'),
    getPartner: db.prepare('SELECT * FROM data_partners WHERE id = ?'),
    listPartners: db.prepare('SELECT * FROM data_partners ORDER BY id'),
    insertUser: db.prepare(
      'INSERT INTO users (email, name, data_partner_id, created_at) VALUES (?, ?, ?, ?)',
    ),
    getUser: db.prepare('SELECT * FROM users WHERE id = ?'),
    setUserPartner: db.prepare('UPDATE users SET data_partner_id = ? WHERE id = ?'),
    insertEntity: db.prepare(`INSERT INTO entities (name, manager, hq_country_code, hq_country_name, address,
      currency, area_units_name, reporting_period, reporting_period_month, owner_user_id, created_at, updated_at)
      VALUES (@name, @manager, @hq_country_code, @hq_country_name, @address, @currency, @area_units_name,
      @reporting_period, @reporting_period_month, @owner_user_id, @created_at, @updated_at)`),
    getEntity: db.prepare('SELECT * FROM entities WHERE id = ?'),
    grant: db.prepare(
      'INSERT OR IGNORE INTO entity_grants (entity_id, data_partner_id, granted_at) VALUES (?, ?, ?)',
    ),
    revoke: db.prepare('DELETE FROM entity_grants WHERE entity_id = ? AND data_partner_id = ?'),
    isGranted: db.prepare('SELECT 1 FROM entity_grants WHERE entity_id = ? AND data_partner_id = ?'),
    grantedEntities: db.prepare(
      'SELECT e.* FROM entities e JOIN entity_grants g ON g.entity_id = e.id WHERE g.data_partner_id = ? ORDER BY e.id',
    ),
    insertToken:
      db.prepare(`INSERT INTO access_tokens (data_partner_id, user_id, kind, name, token_hash, scopes,
      expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    getToken: db.prepare('SELECT * FROM access_tokens WHERE id = ?'),
    tokenByHash: db.prepare('SELECT * FROM access_tokens WHERE token_hash = ?'),
    listTokens: db.prepare('SELECT * FROM access_tokens WHERE data_partner_id = ? ORDER BY id'),
    deleteToken: db.prepare('DELETE FROM access_tokens WHERE id = ?'),
    touchToken: db.prepare('UPDATE access_tokens SET last_used_at = ? WHERE id = ?'),
    countEntities: db.prepare('SELECT COUNT(*) AS n FROM entities'),
    userGrantedEntities: db.prepare(`SELECT e.* FROM entities e JOIN entity_grants g ON g.entity_id = e.id
      WHERE g.data_partner_id = @partner AND (e.owner_user_id = @user
        OR e.id IN (SELECT entity_id FROM entity_members WHERE user_id = @user)) ORDER BY e.id`),
  };

  const getPartner = (id: number): DataPartner | undefined =>
    st.getPartner.get(id) as DataPartner | undefined;

  return {
    createDataPartner(input: { name: string }): DataPartner {
      if (!input.name.trim()) throw new AdminError('A data partner needs a name');
      const r = st.insertPartner.run(input.name, iso());
      return getPartner(Number(r.lastInsertRowid)) as DataPartner;
    },
    getDataPartner: getPartner,
    listDataPartners(): DataPartner[] {
      return st.listPartners.all() as DataPartner[];
    },

    createUser(input: { email: string; name: string; dataPartnerId?: number | null }): User {
      const r = st.insertUser.run(input.email, input.name, input.dataPartnerId ?? null, iso());
      return st.getUser.get(Number(r.lastInsertRowid)) as User;
    },
    getUser(id: number): User | undefined {
      return st.getUser.get(id) as User | undefined;
    },
    /** Assigning a data partner account to a portal user (the spec's step 1). */
    assignUserToDataPartner(userId: number, dataPartnerId: number | null): void {
      st.setUserPartner.run(dataPartnerId, userId);
    },

    createEntity(input: NewEntity): EntityResource {
      if (!input.name.trim()) throw new AdminError('An entity needs a name');
      const month = input.reporting_period_month ?? 12;
      if (!Number.isInteger(month) || month < 1 || month > 12)
        throw new AdminError('reporting_period_month is 1..12');
      const ts = iso();
      const r = st.insertEntity.run({
        name: input.name,
        manager: input.manager ?? '',
        hq_country_code: input.hq_country_code ?? '',
        hq_country_name: input.hq_country_name ?? '',
        address: input.address ?? '',
        currency: input.currency ?? 'EUR',
        area_units_name: input.area_units_name ?? 'square metres',
        reporting_period: input.reporting_period ?? 'calendar_year',
        reporting_period_month: month,
        owner_user_id: input.owner_user_id ?? null,
        created_at: ts,
        updated_at: ts,
      });
      return entityResource(st.getEntity.get(Number(r.lastInsertRowid)) as EntityRow);
    },
    getEntity(id: number): EntityResource | undefined {
      const row = st.getEntity.get(id) as EntityRow | undefined;
      return row ? entityResource(row) : undefined;
    },
    entityCount(): number {
      return (st.countEntities.get() as { n: number }).n;
    },

    /** The entity owner's "Data Partner Access Rights" switch, one entity at a time. */
    grantEntityAccess(entityId: number, dataPartnerId: number): void {
      st.grant.run(entityId, dataPartnerId, iso());
    },
    revokeEntityAccess(entityId: number, dataPartnerId: number): void {
      st.revoke.run(entityId, dataPartnerId);
    },
    hasEntityAccess(entityId: number, dataPartnerId: number): boolean {
      return st.isGranted.get(entityId, dataPartnerId) !== undefined;
    },
    listGrantedEntities(dataPartnerId: number): EntityResource[] {
      return (st.grantedEntities.all(dataPartnerId) as EntityRow[]).map(entityResource);
    },

    /**
     * The entities a token reaches. A partner token: those granted to its data partner. An OAuth
     * token (the spec): only those the user can access that are also granted to the partner.
     */
    listReachableEntities(principal: TokenPrincipal): EntityResource[] {
      if (principal.kind !== 'oauth') return this.listGrantedEntities(principal.dataPartnerId);
      return (
        st.userGrantedEntities.all({
          partner: principal.dataPartnerId,
          user: principal.userId ?? -1,
        }) as EntityRow[]
      ).map(entityResource);
    },
    canReachEntity(principal: TokenPrincipal, entityId: number): boolean {
      return this.listReachableEntities(principal).some((e) => e.id === entityId);
    },

    createAccessToken(input: NewToken): CreatedToken {
      const nowMs = now();
      if (!input.name.trim()) throw new AdminError('A token needs a name');
      if (!getPartner(input.dataPartnerId)) throw new AdminError(`No data partner ${input.dataPartnerId}`);
      if (!(input.expiresAt > nowMs)) throw new AdminError('The expiry must be in the future');
      if (input.expiresAt > maxTokenExpiry(nowMs))
        throw new AdminError('A token is valid for at most 1 year');
      const unknown = input.scopes.filter((s) => !isScope(s));
      if (unknown.length > 0) throw new AdminError(`Unknown scopes: ${unknown.join(', ')}`);
      // public is every token's floor, so it is always recorded.
      const set = new Set<Scope>(['public', ...input.scopes.filter(isScope)]);
      const value = generateTokenValue();
      const r = st.insertToken.run(
        input.dataPartnerId,
        input.userId ?? null,
        input.kind ?? 'partner',
        input.name,
        hashToken(value),
        [...set].join(' '),
        input.expiresAt,
        new Date(nowMs).toISOString(),
      );
      const info = tokenInfo(st.getToken.get(Number(r.lastInsertRowid)) as TokenRow);
      return { ...info, token: value };
    },
    listAccessTokens(dataPartnerId: number): AccessTokenInfo[] {
      return (st.listTokens.all(dataPartnerId) as TokenRow[]).map(tokenInfo);
    },
    deleteAccessToken(id: number): boolean {
      return st.deleteToken.run(id).changes > 0;
    },

    /**
     * Resolves a presented token value. Undefined for unknown and expired tokens alike: expiry
     * deactivates a token without deleting it, so the portal can still list it.
     */
    authenticate(value: string): { principal: TokenPrincipal } | { failure: 'unknown' | 'expired' } {
      const hash = hashToken(value);
      const row = st.tokenByHash.get(hash) as TokenRow | undefined;
      if (!row) return { failure: 'unknown' };
      const nowMs = now();
      if (row.expires_at <= nowMs) return { failure: 'expired' };
      return {
        principal: {
          tokenId: row.id,
          tokenHash: hash,
          dataPartnerId: row.data_partner_id,
          userId: row.user_id,
          kind: row.kind,
          scopes: new Set(row.scopes.split(' ').filter(isScope)),
          expiresAtMs: row.expires_at,
        },
      };
    },
    touchToken(id: number): void {
      st.touchToken.run(new Date(now()).toISOString(), id);
    },
    grantableScopes,
  };
}

export type Admin = ReturnType<typeof createAdmin>;
