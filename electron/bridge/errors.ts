/**
 * Errors that cross the bridge. Handlers throw typed errors; `toBridgeErrorBody` maps them once, for
 * every host, to the plain body the renderer receives. A failure the user can act on (a refused
 * token, an unreadable workbook, a service that said no) is `bad_request` with its own sentence;
 * anything else is `internal`.
 */
import type { BridgeErrorBody } from '../../shared/bridge/contract';
import { errorMessage } from '../../shared/errors';
import { AssetPathError } from '../../shared/sync/asset-doc';
import { AuthError } from '../auth/errors';
import { ServiceExportError } from '../service-export/errors';
import { EvidenceConflictError, EvidenceInputError } from '../responses/evidence';
import { ResponseEditError } from '../responses/responses-store';
import { ApiError } from '../service-client/errors';
import { ImportError } from '../workbook/apply-import';
import { WorkbookError } from '../workbook/read-workbook';
import { WorkspaceEditError } from '../workspace/workspace-edit-error';

/** A failure with the code the renderer acts on (not found, forbidden, bad request). */
export class BridgeError extends Error {
  constructor(readonly body: BridgeErrorBody) {
    super(body.message);
    this.name = 'BridgeError';
  }
}

export const badRequest = (message: string): BridgeError => new BridgeError({ code: 'bad_request', message });
export const notFound = (message: string): BridgeError => new BridgeError({ code: 'not_found', message });
export const forbidden = (message: string): BridgeError => new BridgeError({ code: 'forbidden', message });

/** Errors whose message is written for the user: they become `bad_request` as they are. */
const userFacing = [
  AuthError,
  ApiError,
  ServiceExportError,
  ImportError,
  WorkbookError,
  WorkspaceEditError,
  AssetPathError,
  EvidenceInputError,
  EvidenceConflictError,
] as const;

export function toBridgeErrorBody(error: unknown): BridgeErrorBody {
  if (error instanceof BridgeError) return error.body;
  if (error instanceof ResponseEditError) {
    const code =
      error.code === 'not_found' ? 'not_found' : error.code === 'read_only' ? 'forbidden' : 'bad_request';
    return { code, message: error.message };
  }
  if (userFacing.some((kind) => error instanceof kind))
    return { code: 'bad_request', message: errorMessage(error) };
  return {
    code: 'internal',
    message: error instanceof Error ? error.message : 'Unexpected error in the app host',
  };
}
