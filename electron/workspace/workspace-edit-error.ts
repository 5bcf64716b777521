/** An edit the workspace cannot take (an asset that is gone or deleted): the user's to fix. */
export class WorkspaceEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceEditError';
  }
}
