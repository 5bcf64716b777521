import { legacyPropertyTypeCodes } from '../../shared/domain/reference-data';
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
  {
    version: 2,
    name: 'portal accounts and sessions, OAuth provider, entity members, portfolio responses',
    sql: `
      ALTER TABLE users ADD COLUMN password_hash TEXT;
      CREATE TABLE entity_members (
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        PRIMARY KEY (entity_id, user_id)
      );
      CREATE TABLE portal_sessions (
        id_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf_token TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE TABLE oauth_applications (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        data_partner_id INTEGER NOT NULL REFERENCES data_partners(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        uid TEXT NOT NULL UNIQUE,
        secret_hash TEXT NOT NULL,
        redirect_uris TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE oauth_codes (
        code_hash TEXT PRIMARY KEY,
        application_id INTEGER NOT NULL REFERENCES oauth_applications(id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        redirect_uri TEXT NOT NULL,
        scopes TEXT NOT NULL,
        code_challenge TEXT,
        expires_at INTEGER NOT NULL,
        used_at INTEGER,
        token_id INTEGER
      );
      ALTER TABLE access_tokens ADD COLUMN application_id INTEGER REFERENCES oauth_applications(id) ON DELETE CASCADE;
      CREATE INDEX access_tokens_user ON access_tokens (user_id, kind);
      -- The spec: if the user revokes access, the OAuth flow restarts at step 1. So a revoked grant
      -- deletes the partner's OAuth tokens of every user who can reach that entity, whichever code
      -- path removed the grant.
      CREATE TRIGGER entity_grant_revoked AFTER DELETE ON entity_grants BEGIN
        DELETE FROM access_tokens
        WHERE kind = 'oauth' AND data_partner_id = OLD.data_partner_id AND user_id IN (
          SELECT owner_user_id FROM entities WHERE id = OLD.entity_id
          UNION SELECT user_id FROM entity_members WHERE entity_id = OLD.entity_id
        );
      END;
      CREATE TABLE responses (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        year INTEGER NOT NULL,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX responses_entity ON responses (entity_id, id);
      CREATE TABLE response_values (
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        variable TEXT NOT NULL,
        value TEXT NOT NULL,
        lock_version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (response_id, variable)
      );
      CREATE TABLE response_documents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        variable TEXT,
        filename TEXT NOT NULL,
        size INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        content BLOB NOT NULL,
        data_partner_id INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX response_documents_response ON response_documents (response_id, id);
    `,
  },
  {
    version: 3,
    name: "property types from the service's equity_asset_type list",
    // Our first sandbox invented its own property-type codes; assets stored with one get the code of
    // the service's list that replaced it.
    sql: (() => {
      const cases = Object.entries(legacyPropertyTypeCodes)
        .map(([old, code]) => `WHEN '${old}' THEN '${code}'`)
        .join(' ');
      const olds = Object.keys(legacyPropertyTypeCodes)
        .map((old) => `'${old}'`)
        .join(', ');
      return `
        UPDATE assets
        SET doc = json_set(doc, '$.property_type_code', CASE json_extract(doc, '$.property_type_code') ${cases} END)
        WHERE json_extract(doc, '$.property_type_code') IN (${olds});
      `;
    })(),
  },
  {
    version: 4,
    name: 'portfolio responses as the docs show them: summaries, string lock versions, evidence by link',
    sql: `
      -- Summaries: { survey_year, status, survey_open, business_line, assessment_type } (name and
      -- manager are the entity's). The old state 'open' is a response in progress.
      ALTER TABLE responses RENAME COLUMN year TO survey_year;
      ALTER TABLE responses ADD COLUMN status TEXT NOT NULL DEFAULT 'in_progress';
      ALTER TABLE responses ADD COLUMN survey_open INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE responses ADD COLUMN business_line TEXT NOT NULL DEFAULT 'real_estate';
      ALTER TABLE responses ADD COLUMN assessment_type TEXT NOT NULL DEFAULT 'real_estate';
      UPDATE responses SET
        status = CASE state WHEN 'open' THEN 'in_progress' ELSE state END,
        survey_open = CASE state WHEN 'open' THEN 1 ELSE 0 END;
      ALTER TABLE responses DROP COLUMN state;
      ALTER TABLE response_values ADD COLUMN created_at TEXT;
      UPDATE response_values SET created_at = updated_at;
      -- Evidence files posted by link (POST documents): the item's DOCID is this row's id. Uploaded
      -- files (response_documents) stay where they are; the service takes no uploads.
      CREATE TABLE response_evidence_documents (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        response_id INTEGER NOT NULL REFERENCES responses(id) ON DELETE CASCADE,
        answer_name TEXT NOT NULL,
        item_number INTEGER NOT NULL,
        evidence_type TEXT NOT NULL,
        url TEXT NOT NULL,
        data_partner_id INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE INDEX response_evidence_documents_response ON response_evidence_documents (response_id, answer_name);
    `,
  },
];
