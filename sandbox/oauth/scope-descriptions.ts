import type { Scope } from '../../shared/auth/scopes';

/** What the consent page and the token form say each scope allows. */
export const scopeDescriptions: Record<Scope, string> = {
  public: 'identify the application (no data access)',
  entities: 'read your reporting entities',
  'read:assets': 'read asset data',
  'write:assets': 'create, change and delete asset data',
  'read:responses': 'read portfolio responses',
  'write:responses': 'write portfolio response values and evidence',
};
