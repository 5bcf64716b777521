import { UserFacingError } from '../../shared/errors';

/** An edit the workspace cannot take (an asset that is gone or deleted): the user's to fix. */
export class WorkspaceEditError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceEditError';
  }
}
