import { UserFacingError } from '../../shared/errors';

export type ServiceExportErrorKind =
  'timeout' | 'cancelled' | 'bad_url' | 'too_large' | 'http' | 'expired' | 'network' | 'not_xlsx' | 'service';

/** A failure of the service export or of a download, with a message the UI can show as is. */
export class ServiceExportError extends UserFacingError {
  constructor(
    readonly kind: ServiceExportErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ServiceExportError';
  }
}

/** Only absolute http(s) URLs without credentials: never file:, data:, or a user:password@ host. */
export function parseHttpUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ServiceExportError('bad_url', `${what} is not a valid address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceExportError('bad_url', `${what} must be an http or https address (got ${url.protocol})`);
  }
  if (url.username || url.password)
    throw new ServiceExportError('bad_url', `${what} must not carry a user name or password`);
  return url;
}
