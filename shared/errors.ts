/**
 * The leaf every error the user may read comes from. It imports nothing of ours, so a domain's
 * errors extend `UserFacingError` and the bridge maps them by that class alone: the bridge needs to
 * know no domain, and no domain needs the bridge.
 */

/** What the renderer is told a refusal is: it acts on these (a missing item, a forbidden one, the rest). */
export type UserFacingCode = 'bad_request' | 'not_found' | 'forbidden';

/**
 * A failure whose message is written for the user (a refused token, an unreadable workbook, a
 * service that said no): it reaches the renderer as it is, under its `userCode`. Anything else
 * thrown is an internal failure.
 */
export class UserFacingError extends Error {
  /** The code the bridge answers; named apart from the domains' own `code`/`kind`, which say more. */
  readonly userCode: UserFacingCode;

  constructor(message: string, options?: { userCode?: UserFacingCode; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserFacingError';
    this.userCode = options?.userCode ?? 'bad_request';
  }
}

export const badRequest = (message: string): UserFacingError => new UserFacingError(message);
export const notFound = (message: string): UserFacingError =>
  new UserFacingError(message, { userCode: 'not_found' });
export const forbidden = (message: string): UserFacingError =>
  new UserFacingError(message, { userCode: 'forbidden' });

/** The message of anything thrown, for the user or a log line. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
