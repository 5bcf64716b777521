import { z } from 'zod';
import type { Entity } from '../../shared/domain/types';
import { entitySchema } from '../../shared/domain/schemas';
import { apiUrl, type Connection } from './connections';
import { AuthError } from './errors';
import type { FetchLike } from './http';

/** Offline copy of the entity picker's data; the workspace store implements it durably later. */
export interface EntityCache {
  getEntities(connectionId: string): Promise<CachedValue<Entity[]> | null>;
  putEntities(connectionId: string, entities: Entity[], fetchedAt: Date): Promise<void>;
  getEntity(connectionId: string, entityId: number): Promise<CachedValue<Entity> | null>;
  putEntity(connectionId: string, entity: Entity, fetchedAt: Date): Promise<void>;
}

export interface CachedValue<T> {
  value: T;
  fetchedAt: Date;
}

export class MemoryEntityCache implements EntityCache {
  private readonly lists = new Map<string, CachedValue<Entity[]>>();
  private readonly single = new Map<string, CachedValue<Entity>>();

  async getEntities(connectionId: string) {
    return this.lists.get(connectionId) ?? null;
  }
  async putEntities(connectionId: string, entities: Entity[], fetchedAt: Date) {
    this.lists.set(connectionId, { value: structuredClone(entities), fetchedAt });
  }
  async getEntity(connectionId: string, entityId: number) {
    return this.single.get(`${connectionId}/${entityId}`) ?? null;
  }
  async putEntity(connectionId: string, entity: Entity, fetchedAt: Date) {
    this.single.set(`${connectionId}/${entity.id}`, { value: structuredClone(entity), fetchedAt });
  }
}

export interface Fetched<T> {
  value: T;
  fetchedAt: Date;
  /** True when the service could not be reached and this is the last copy seen. */
  offline: boolean;
}

/**
 * The entity picker's data: live from the service when it answers, else from the cache. Auth
 * failures are not hidden behind the cache: a gated fetch pauses on 401 and the caller waits for
 * the new sign-in.
 */
export function createEntityDirectory(opts: {
  connection: Pick<Connection, 'id' | 'baseUrl'>;
  /** Adds the token, e.g. `gatedFetch(gate)`. */
  fetch: FetchLike;
  cache: EntityCache;
  now?: () => Date;
}) {
  const now = opts.now ?? (() => new Date());
  const { connection, cache } = opts;

  async function live<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
    let response: Response;
    try {
      response = await opts.fetch(apiUrl(connection, 'v1', path), {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if (error instanceof AuthError) throw error;
      return undefined;
    }
    if (response.status === 403)
      throw new AuthError(
        'missing_scope',
        'Refused (403): the sign-in lacks the "entities" scope or access to this entity.',
      );
    if (response.status >= 500) return undefined;
    if (!response.ok)
      throw new AuthError('bad_response', `The service answered ${response.status} to GET ${path}.`);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new AuthError('bad_response', `The service answered GET ${path} with an unexpected body.`);
    return parsed.data;
  }

  return {
    async listEntities(): Promise<Fetched<Entity[]>> {
      const fresh = await live('/entities', z.array(entitySchema));
      if (fresh !== undefined) {
        const fetchedAt = now();
        await cache.putEntities(connection.id, fresh, fetchedAt);
        return { value: fresh, fetchedAt, offline: false };
      }
      const cached = await cache.getEntities(connection.id);
      if (!cached)
        throw new AuthError('unreachable', 'The service cannot be reached and no entity list is saved yet.');
      return { ...cached, offline: true };
    },
    /** One entity with its reporting preferences (currency, area units, reporting period). */
    async getEntity(entityId: number): Promise<Fetched<Entity>> {
      const fresh = await live(`/entities/${entityId}`, entitySchema);
      if (fresh !== undefined) {
        const fetchedAt = now();
        await cache.putEntity(connection.id, fresh, fetchedAt);
        return { value: fresh, fetchedAt, offline: false };
      }
      const cached = await cache.getEntity(connection.id, entityId);
      if (!cached)
        throw new AuthError(
          'unreachable',
          `The service cannot be reached and entity ${entityId} is not saved yet.`,
        );
      return { ...cached, offline: true };
    },
  };
}
export type EntityDirectory = ReturnType<typeof createEntityDirectory>;
