import { describe, expect, it } from 'vitest';
import { toBridgeErrorBody } from '../../../electron/bridge/errors';
import { createDispatcher } from '../../../electron/bridge/dispatch';
import type { BridgeHandlers } from '../../../electron/bridge/handlers';
import { AuthError } from '../../../electron/auth/errors';
import { EvidenceConflictError, EvidenceInputError } from '../../../electron/responses/evidence';
import { ResponseEditError } from '../../../electron/responses/responses-store';
import { ApiError } from '../../../electron/service-client/errors';
import { ServiceExportError } from '../../../electron/service-export/errors';
import { ImportError } from '../../../electron/workbook/apply-import';
import { WorkbookError } from '../../../electron/workbook/workbook-limits';
import { WorkspaceEditError } from '../../../electron/workspace/workspace-edit-error';
import { badRequest, forbidden, notFound, UserFacingError } from '../../../shared/errors';
import { AssetPathError } from '../../../shared/sync/asset-doc';

/**
 * What the renderer receives for each error a handler may throw: the mapping goes by the
 * `UserFacingError` base class alone, and gives the same codes and messages as when the bridge
 * listed every domain's error class.
 */
describe('toBridgeErrorBody', () => {
  it("every domain's user-facing error crosses as bad_request with its own sentence", () => {
    const errors: Error[] = [
      new AuthError('invalid_token', 'The token was refused.'),
      new ApiError('not_found', 'Not found: the asset'),
      new ApiError('server', 'The service is having trouble (HTTP 502) with the batch'),
      new ServiceExportError('bad_url', 'The export link is not a valid address'),
      new ImportError('nothing', 'Nothing to import: the file matches the workspace.'),
      new WorkbookError('empty', 'This workbook has no asset rows.'),
      new WorkspaceEditError('That asset was deleted.'),
      new AssetPathError('No certification id:7 in this asset.'),
      new EvidenceInputError('Evidence needs a URL.'),
      new EvidenceConflictError('Someone else changed this evidence item.'),
      new ResponseEditError('invalid', 'Not an option of PO_1.'),
      badRequest('A sync is already running.'),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(UserFacingError);
      expect(toBridgeErrorBody(error)).toEqual({ code: 'bad_request', message: error.message });
    }
  });

  it('a missing thing is not_found and a read-only one forbidden', () => {
    expect(toBridgeErrorBody(notFound('No connection x'))).toEqual({
      code: 'not_found',
      message: 'No connection x',
    });
    expect(toBridgeErrorBody(forbidden('Signed out'))).toEqual({ code: 'forbidden', message: 'Signed out' });
    expect(toBridgeErrorBody(new ResponseEditError('not_found', 'No response 4'))).toEqual({
      code: 'not_found',
      message: 'No response 4',
    });
    expect(toBridgeErrorBody(new ResponseEditError('read_only', 'Submitted: read only'))).toEqual({
      code: 'forbidden',
      message: 'Submitted: read only',
    });
  });

  it('anything else is internal', () => {
    expect(toBridgeErrorBody(new Error('disk I/O error'))).toEqual({
      code: 'internal',
      message: 'disk I/O error',
    });
    expect(toBridgeErrorBody('thrown text')).toEqual({
      code: 'internal',
      message: 'Unexpected error in the app host',
    });
  });

  it("the dispatcher's own refusals keep their codes", async () => {
    const dispatch = createDispatcher({} as BridgeHandlers);
    await expect(dispatch('no.such.method', {})).rejects.toSatisfy(
      (error) =>
        JSON.stringify(toBridgeErrorBody(error)) ===
        JSON.stringify({ code: 'not_found', message: 'Unknown bridge method: no.such.method' }),
    );
    await expect(dispatch('workspace.edit', { nonsense: true })).rejects.toSatisfy(
      (error) => toBridgeErrorBody(error).code === 'bad_request',
    );
  });
});
