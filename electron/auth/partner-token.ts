import type { Entity } from '../../shared/domain/types';
import { apiUrl, type Connection } from './connections';
import { AuthError } from './errors';
import { requestJson, type FetchLike } from './http';
import { fetchTokenInfo } from './oauth-token';
import { ApiError } from '../service-client/errors';
import { SubmissionApiClient } from '../service-client/service-client';

export interface TokenCheck {
  kind: 'partner' | 'oauth';
  entities: Entity[];
  scopes: string[];
  /**
   * False for partner tokens: no endpoint lists their scopes, so only what safe GETs proved is
   * listed (`entities`, and `read:assets` when an entity's assets could be read); write scopes are
   * unknown until a write is tried.
   */
  scopesComplete: boolean;
  expiresAt: Date | null;
}

/** Bearer values are printable ASCII without spaces; anything else would be a broken paste. */
const tokenShape = /^[\x21-\x7e]{8,4096}$/;

/**
 * Checks a pasted token against the connection before anything is saved: `GET /entities` proves it
 * works and lists what it reaches; token info (when the provider knows it as an OAuth token) gives
 * its scopes and expiry.
 */
export async function checkPastedToken(opts: {
  connection: Pick<Connection, 'baseUrl' | 'authUrl'>;
  accessToken: string;
  /** The expiry date the user chose when generating a partner token (YYYY-MM-DD); the API cannot tell. */
  partnerExpiresOn?: string;
  fetch?: FetchLike;
  now?: () => Date;
}): Promise<TokenCheck> {
  const fetchImpl = opts.fetch ?? fetch;
  const token = opts.accessToken.trim();
  if (!tokenShape.test(token)) {
    throw new AuthError('invalid_token', 'That does not look like an access token: paste the whole value.');
  }
  const entities = await listEntitiesWith(fetchImpl, opts.connection, token);

  const info = await fetchTokenInfo({
    authUrl: opts.connection.authUrl,
    accessToken: token,
    fetch: fetchImpl,
    ...(opts.now ? { now: opts.now } : {}),
  }).catch(() => null);
  if (info) {
    return { kind: 'oauth', entities, scopes: info.scopes, scopesComplete: true, expiresAt: info.expiresAt };
  }

  const scopes = ['entities'];
  const first = entities[0];
  if (first && (await canRead(fetchImpl, opts.connection, token, first.id))) scopes.push('read:assets');
  return {
    kind: 'partner',
    entities,
    scopes,
    scopesComplete: false,
    expiresAt: parseExpiryDate(opts.partnerExpiresOn),
  };
}

/** The entities the token reaches, through the one service client; its failures said for a sign-in. */
async function listEntitiesWith(
  fetchImpl: FetchLike,
  connection: Pick<Connection, 'baseUrl'>,
  token: string,
): Promise<Entity[]> {
  const client = new SubmissionApiClient({
    baseUrl: connection.baseUrl,
    getToken: () => token,
    fetch: fetchImpl,
    retries: 0,
    timeoutMs: 30_000,
  });
  try {
    return await client.listEntities();
  } catch (error) {
    throw signInFailure(error, connection);
  }
}

function signInFailure(error: unknown, connection: Pick<Connection, 'baseUrl'>): unknown {
  if (!(error instanceof ApiError)) return error;
  const status = error.status;
  switch (error.kind) {
    case 'unauthorized':
      return new AuthError(
        'invalid_token',
        'The service refused this token (401): it is wrong, expired or was deleted.',
      );
    case 'forbidden':
      return new AuthError(
        'missing_scope',
        'The token is valid but lacks the "entities" scope, so no entity can be listed.',
      );
    case 'server':
      return new AuthError('server_error', `The service failed (${status}); try again later.`);
    case 'network':
    case 'timeout':
      return new AuthError(
        'unreachable',
        `Could not reach ${new URL(connection.baseUrl).origin}: ${error.message}`,
      );
    case 'bad_response':
      return new AuthError('bad_response', 'The service answered GET /entities with an unexpected body.');
    default:
      return new AuthError('bad_response', `The service answered ${status ?? 'oddly'} to GET /entities.`);
  }
}

async function canRead(
  fetchImpl: FetchLike,
  connection: Pick<Connection, 'baseUrl'>,
  token: string,
  entityId: number,
): Promise<boolean> {
  try {
    const { status } = await requestJson(
      fetchImpl,
      apiUrl(connection, 'v1', `/entities/${entityId}/assets?per_page=1`),
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    return status === 200;
  } catch {
    return false;
  }
}

/** The token deactivates on that date, so treat the start of the day (UTC) as the end of its life. */
export function parseExpiryDate(date: string | undefined): Date | null {
  if (date === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}
