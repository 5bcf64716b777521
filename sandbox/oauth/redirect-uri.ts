/**
 * Redirect URI rules of the provider.
 *
 * Registration accepts: https URLs; http URLs on a loopback host (127.0.0.1, [::1], localhost);
 * private-use schemes with a dot (`com.example.app:/cb`, RFC 8252 §7.1); and
 * `urn:ietf:wg:oauth:2.0:oob`. Fragments are refused (RFC 6749 §3.1.2).
 *
 * Matching is exact, except for loopback URIs (RFC 8252 §7.3): a registered
 * `http://127.0.0.1/...` matches the same host on any port, because native apps bind an ephemeral
 * port. When the registered loopback path is `/`, any path matches too: the app puts a random
 * path on its listener so that another local process cannot guess where the code lands. The
 * query must be the registered one.
 */
export const oobUri = 'urn:ietf:wg:oauth:2.0:oob';

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

export function isLoopbackUrl(url: URL): boolean {
  return url.protocol === 'http:' && loopbackHosts.has(url.hostname);
}

/** A native app's redirect (loopback listener or `oob`): such clients must use PKCE. */
export function isNativeRedirect(raw: string): boolean {
  if (raw === oobUri) return true;
  const url = parse(raw);
  return url !== undefined && isLoopbackUrl(url);
}

/** Why a URI cannot be registered, or undefined when it can. */
export function registrationProblem(raw: string): string | undefined {
  if (raw === oobUri) return undefined;
  const url = parse(raw);
  if (!url) return `${raw} is not an absolute URI`;
  if (url.hash || raw.includes('#')) return `${raw} must not have a fragment`;
  if (url.username || url.password) return `${raw} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return isLoopbackUrl(url) ? undefined : `${raw}: plain http is only allowed on a loopback host`;
  const scheme = url.protocol.slice(0, -1);
  if (['javascript', 'data', 'file', 'vbscript', 'blob'].includes(scheme))
    return `${raw}: the ${scheme} scheme is not allowed`;
  if (!scheme.includes('.')) return `${raw}: a private-use scheme must be a reverse domain name (RFC 8252)`;
  return undefined;
}

/** Registered URIs from a textarea or list: one per line, blank lines ignored. */
export function splitRedirectUris(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export function matchesRegistered(registered: readonly string[], requested: string): boolean {
  return registered.some((r) => matchesOne(r, requested));
}

function matchesOne(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const reg = parse(registered);
  const req = parse(requested);
  if (!reg || !req || !isLoopbackUrl(reg) || !isLoopbackUrl(req)) return false;
  if (req.hash || requested.includes('#') || req.username || req.password) return false;
  if (reg.hostname !== req.hostname) return false;
  if (reg.search !== req.search) return false;
  return reg.pathname === '/' || reg.pathname === req.pathname;
}
