import type {
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { Admin, TokenPrincipal } from '../store/admin';
import type { AccessRule } from '../../shared/auth/scopes';
import { forbidden, notFound, unauthorized } from '../http/errors';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: TokenPrincipal;
    /** Set by the guard on entity paths once access is checked. */
    entityId?: number;
  }
}

const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/** The token from `Authorization: Bearer`, else the `access_token` query or form parameter. */
export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    return bearerPattern.exec(header)?.[1];
  }
  const fromQuery = readParam(request.query, 'access_token');
  if (fromQuery !== undefined) return fromQuery;
  // Form bodies are "request parameters" too; JSON bodies are asset payloads, not parameters.
  return isFormRequest(request) ? readParam(request.body, 'access_token') : undefined;
}

function readParam(source: unknown, key: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const v = (source as Record<string, unknown>)[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Entity ids in paths are positive integers; anything else names no entity. */
export function parseIdParam(raw: unknown, what: string): number {
  if (typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw)) return Number(raw);
  throw notFound(`${what} not found`);
}

function isFormRequest(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data');
}

/**
 * The one gate in front of every API route, in this order: 401 (no, unknown or expired token),
 * 403 (scope missing), 403 (entity not granted to the token's data partner: also for ids that
 * do not exist, so a partner cannot probe which entities exist; for an OAuth token, also an
 * entity the authorizing user cannot access).
 *
 * It runs at onRequest, before the body is read, so an unauthenticated caller cannot make the
 * sandbox parse a large body; only a form request whose token may sit in the body waits for
 * preHandler.
 */
export function routeAccess(
  admin: Admin,
  rule: AccessRule,
): { onRequest: onRequestAsyncHookHandler; preHandler: preHandlerAsyncHookHandler } {
  const check = (request: FastifyRequest): void => {
    const value = presentedToken(request);
    if (value === undefined)
      throw unauthorized('An access token is required (Authorization: Bearer <token>)');
    const result = admin.authenticate(value);
    if ('failure' in result) {
      throw unauthorized(
        result.failure === 'expired' ? 'The access token has expired' : 'The access token is invalid',
      );
    }
    const principal = result.principal;
    if (rule.scope !== null && !principal.scopes.has(rule.scope)) {
      throw forbidden(`The access token lacks the ${rule.scope} scope`);
    }
    if (rule.entity) {
      const raw = (request.params as Record<string, unknown> | undefined)?.['entity_id'];
      const entityId = parseIdParam(raw, 'Entity');
      if (!admin.hasEntityAccess(entityId, principal.dataPartnerId)) {
        throw forbidden(`Entity ${entityId} has not granted access to this data partner`);
      }
      if (principal.kind === 'oauth' && !admin.canReachEntity(principal, entityId)) {
        throw forbidden(`The user who authorized this token cannot access entity ${entityId}`);
      }
      request.entityId = entityId;
    }
    request.principal = principal;
  };
  return {
    async onRequest(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const deferToBody =
        isFormRequest(request) &&
        request.headers.authorization === undefined &&
        readParam(request.query, 'access_token') === undefined;
      if (!deferToBody) check(request);
    },
    async preHandler(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
      if (request.principal === undefined) check(request);
    },
  };
}
