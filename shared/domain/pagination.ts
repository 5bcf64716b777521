import type { PageLinks, PageMeta } from './types';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/** Parse an RFC 8288 `link` header into the relations the asset list uses. Unknown relations are dropped. */
export function parseLinkHeader(header: string | null | undefined): PageLinks {
  const links: PageLinks = {};
  if (!header) return links;
  for (const part of header.split(',')) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (!m) continue;
    const url = m[1] ?? '';
    const rel = /rel\s*=\s*"?([^";]+)"?/.exec(m[2] ?? '')?.[1];
    if (rel === undefined) continue;
    for (const r of rel.trim().split(/\s+/)) {
      if (r === 'first' || r === 'prev' || r === 'next' || r === 'last') links[r] = url;
    }
  }
  return links;
}

function intHeader(v: string | null | undefined, fallback: number): number {
  const n = v === null || v === undefined ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Read `per-page`, `total` and `link`; `get` is e.g. `(n) => response.headers.get(n)`. */
export function pageMetaFromHeaders(
  get: (name: string) => string | null | undefined,
  page: number,
): PageMeta {
  return {
    page,
    perPage: intHeader(get('per-page'), DEFAULT_PER_PAGE),
    total: intHeader(get('total'), 0),
    links: parseLinkHeader(get('link')),
  };
}

/** Build a `link` header for a page (the sandbox's side of the same contract). */
export function formatLinkHeader(baseUrl: string, page: number, perPage: number, total: number): string {
  const last = Math.max(1, Math.ceil(total / perPage));
  const url = (p: number): string => {
    const sep = baseUrl.includes('?') ? '&' : '?';
    return `${baseUrl}${sep}page=${p}&per_page=${perPage}`;
  };
  const rels: string[] = [];
  if (page > 1) rels.push(`<${url(1)}>; rel="first"`, `<${url(page - 1)}>; rel="prev"`);
  if (page < last) rels.push(`<${url(page + 1)}>; rel="next"`, `<${url(last)}>; rel="last"`);
  return rels.join(', ');
}
