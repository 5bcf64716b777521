/**
 * Errors that cross the bridge. Handlers throw typed errors; `toBridgeErrorBody` maps them once, for
 * every host, to the plain body the renderer receives. A failure the user can act on extends
 * `UserFacingError` (shared/errors.ts, a leaf) and crosses with its own sentence and code; anything
 * else is `internal`. The mapping goes by that base class, so the bridge imports no domain.
 */
import type { BridgeErrorBody } from '../../shared/bridge/contract';
import { UserFacingError } from '../../shared/errors';

export function toBridgeErrorBody(error: unknown): BridgeErrorBody {
  if (error instanceof UserFacingError) return { code: error.userCode, message: error.message };
  return {
    code: 'internal',
    message: error instanceof Error ? error.message : 'Unexpected error in the app host',
  };
}
