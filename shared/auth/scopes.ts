/**
 * Scopes of the spec's table. `public` is granted to every application and opens nothing.
 *
 * Decisions where the spec says "not shown" (documented here because the access-matrix test and
 * the app's token form both read this table):
 * - validation endpoint: `write:assets`. It is the dry run of a batch write; a read-only
 *   integration has nothing to validate, and granting it to read tokens would let them probe
 *   which ids exist in a write-shaped way.
 * - spreadsheet export: `read:assets`. It only reads the pool (and sends it where the caller says).
 * - `/certifications`, `/energy_ratings`, `/lists`, `/lists/:slug`: any valid token (public
 *   reference data, no entity data).
 */
export const scopes = [
  'public',
  'entities',
  'read:assets',
  'write:assets',
  'read:responses',
  'write:responses',
] as const;
export type Scope = (typeof scopes)[number];

/** Scopes a partner token can be created with (public is implicit). */
export const grantableScopes: readonly Scope[] = scopes.filter((s) => s !== 'public');

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** What a route needs: a scope (null = any valid token) and whether its path names an entity. */
export interface AccessRule {
  scope: Scope | null;
  entity: boolean;
}

export const accessRules = {
  certifications: { scope: null, entity: false },
  energyRatings: { scope: null, entity: false },
  lists: { scope: null, entity: false },
  listEntities: { scope: 'entities', entity: false },
  getEntity: { scope: 'entities', entity: true },
  readAssets: { scope: 'read:assets', entity: true },
  writeAssets: { scope: 'write:assets', entity: true },
  batches: { scope: 'write:assets', entity: true },
  validation: { scope: 'write:assets', entity: true },
  export: { scope: 'read:assets', entity: true },
  readResponses: { scope: 'read:responses', entity: true },
  writeResponses: { scope: 'write:responses', entity: true },
} as const satisfies Record<string, AccessRule>;
