import { randomBytes } from 'node:crypto';
import type { Db } from './db';
import { entityResource, type EntityResource, type User } from './admin';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { hashToken } from '../auth/tokens';

export interface PortalSession {
  userId: number;
  csrfToken: string;
  expiresAtMs: number;
}

/** A signed-in portal session lasts a working day; OAuth re-authorization within it needs no sign-in. */
export const sessionLifetimeMs = 12 * 3600_000;

/**
 * Portal users: passwords, which entities a user can reach (owner or member), and sign-in sessions.
 * Session ids are random 256-bit values; only their hash is stored, like tokens.
 */
export function createAccountsRepo(db: Db, now: () => number) {
  const st = {
    userByEmail: db.prepare('SELECT * FROM users WHERE lower(email) = lower(?)'),
    passwordOf: db.prepare('SELECT password_hash FROM users WHERE id = ?'),
    setPassword: db.prepare('UPDATE users SET password_hash = ? WHERE id = ?'),
    addMember: db.prepare('INSERT OR IGNORE INTO entity_members (entity_id, user_id) VALUES (?, ?)'),
    userEntities: db.prepare(`SELECT * FROM entities WHERE owner_user_id = @user
      OR id IN (SELECT entity_id FROM entity_members WHERE user_id = @user) ORDER BY id`),
    canAccess: db.prepare(`SELECT 1 FROM entities WHERE id = @entity AND (owner_user_id = @user
      OR id IN (SELECT entity_id FROM entity_members WHERE user_id = @user))`),
    isOwner: db.prepare('SELECT 1 FROM entities WHERE id = ? AND owner_user_id = ?'),
    insertSession: db.prepare(
      'INSERT INTO portal_sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    ),
    getSession: db.prepare('SELECT * FROM portal_sessions WHERE id_hash = ?'),
    deleteSession: db.prepare('DELETE FROM portal_sessions WHERE id_hash = ?'),
    purgeSessions: db.prepare('DELETE FROM portal_sessions WHERE expires_at <= ?'),
  };

  return {
    findUserByEmail(email: string): User | undefined {
      return st.userByEmail.get(email.trim()) as User | undefined;
    },
    setPassword(userId: number, password: string): void {
      if (password.length < 8) throw new Error('A portal password has at least 8 characters');
      st.setPassword.run(hashPassword(password), userId);
    },
    hasPassword(userId: number): boolean {
      const row = st.passwordOf.get(userId) as { password_hash: string | null } | undefined;
      return typeof row?.password_hash === 'string';
    },
    /** The user for these credentials, else undefined (unknown email and wrong password alike). */
    verifyCredentials(email: string, password: string): User | undefined {
      const user = st.userByEmail.get(email.trim()) as (User & { password_hash: string | null }) | undefined;
      if (!user || !verifyPassword(password, user.password_hash)) return undefined;
      const { password_hash: _omit, ...rest } = user;
      return rest;
    },

    /** Access to an entity without owning it (a colleague of the owner). */
    addEntityMember(entityId: number, userId: number): void {
      st.addMember.run(entityId, userId);
    },
    /** The entities a portal user can access: owned or member of. */
    userEntities(userId: number): EntityResource[] {
      return (st.userEntities.all({ user: userId }) as Parameters<typeof entityResource>[0][]).map(
        entityResource,
      );
    },
    userCanAccessEntity(userId: number, entityId: number): boolean {
      return st.canAccess.get({ entity: entityId, user: userId }) !== undefined;
    },
    isEntityOwner(userId: number, entityId: number): boolean {
      return st.isOwner.get(entityId, userId) !== undefined;
    },

    createSession(userId: number): { id: string; session: PortalSession } {
      const nowMs = now();
      st.purgeSessions.run(nowMs);
      const id = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const expiresAtMs = nowMs + sessionLifetimeMs;
      st.insertSession.run(hashToken(id), userId, csrfToken, nowMs, expiresAtMs);
      return { id, session: { userId, csrfToken, expiresAtMs } };
    },
    getSession(id: string): PortalSession | undefined {
      const row = st.getSession.get(hashToken(id)) as
        { user_id: number; csrf_token: string; expires_at: number } | undefined;
      if (!row || row.expires_at <= now()) return undefined;
      return { userId: row.user_id, csrfToken: row.csrf_token, expiresAtMs: row.expires_at };
    },
    deleteSession(id: string): void {
      st.deleteSession.run(hashToken(id));
    },
  };
}

export type AccountsRepo = ReturnType<typeof createAccountsRepo>;
