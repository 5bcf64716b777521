import type { FastifyReply, FastifyRequest } from 'fastify';

/** Paths that are asset-level (v1) even when asked for under another version. */
const assetLevelPath =
  /^\/(certifications|energy_ratings|entities(\/[^/]+(\/(assets|asset_spreadsheet_export)(\/.*)?)?)?)\/?$/;
const versionedPath = /^\/api\/(v[0-9][0-9a-z._-]*)(\/[^?]*)?(\?.*)?$/i;

/**
 * Where a request to an unsupported version belongs, or undefined when it is served as is.
 * Any `/api/v<N>...` other than v0 and v1 is an older version (the spec: 301); so are asset-level
 * paths asked under v0, whose v1 home is the only supported one.
 */
export function versionRedirect(url: string): string | undefined {
  const m = versionedPath.exec(url);
  if (!m) return undefined;
  const version = (m[1] ?? '').toLowerCase();
  const rest = m[2] ?? '';
  const query = m[3] ?? '';
  if (version === 'v1') return undefined;
  if (version === 'v0') return assetLevelPath.test(rest) ? `/api/v1${rest}${query}` : undefined;
  const target = assetLevelPath.test(rest) ? 'v1' : 'v0';
  return `/api/${target}${rest}${query}`;
}

export async function versionRedirectHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const location = versionRedirect(request.url);
  if (location === undefined) return;
  await reply
    .code(301)
    .header('location', location)
    .send({
      error: 'moved_permanently',
      message: `This API version is no longer supported; use ${location}`,
    });
}
