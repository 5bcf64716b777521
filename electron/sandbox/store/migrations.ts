/**
 * Versioned schema. Never edit a shipped migration: append a new one, because sandboxes in users'
 * data folders already ran the old ones.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'partners, users, entities, grants, tokens, assets, exports',
    sql: `
      CREATE TABLE data_partners (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        email TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        data_partner_id INTEGER REFERENCES data_partners(id) ON DELETE SET NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE entities (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        manager TEXT NOT NULL DEFAULT '',
        hq_country_code TEXT NOT NULL DEFAULT '',
        hq_country_name TEXT NOT NULL DEFAULT '',
        address TEXT NOT NULL DEFAULT '',
        currency TEXT NOT NULL DEFAULT 'EUR',
        area_units_name TEXT NOT NULL DEFAULT 'square metres',
        reporting_period TEXT NOT NULL DEFAULT 'calendar_year',
        reporting_period_month INTEGER NOT NULL DEFAULT 12,
        owner_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE entity_grants (
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        data_partner_id INTEGER NOT NULL REFERENCES data_partners(id) ON DELETE CASCADE,
        granted_at TEXT NOT NULL,
        PRIMARY KEY (entity_id, data_partner_id)
      );
      CREATE TABLE access_tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        data_partner_id INTEGER NOT NULL REFERENCES data_partners(id) ON DELETE CASCADE,
        user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        kind TEXT NOT NULL DEFAULT 'partner',
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        scopes TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT
      );
      CREATE INDEX access_tokens_partner ON access_tokens (data_partner_id);
      CREATE TABLE assets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        name TEXT,
        partners_id INTEGER,
        doc TEXT NOT NULL,
        outliers TEXT NOT NULL DEFAULT '[]',
        validations TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX assets_entity ON assets (entity_id, id);
      CREATE INDEX assets_entity_name ON assets (entity_id, name);
      CREATE TABLE sequences (
        name TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );
      INSERT INTO sequences (name, value) VALUES ('certification', 0), ('energy_rating', 0);
      CREATE TABLE exports (
        id TEXT PRIMARY KEY,
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        file_name TEXT NOT NULL,
        callback_url TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
  },
];
