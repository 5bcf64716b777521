import type { PageLinks, PageMeta } from '../../shared/domain';
import { ApiError } from './errors';

/**
 * The most pages a listing may have: a million assets at the service's 100 a page. A `link` header
 * claiming more (one claimed 1,000,000 pages and made 11,596 requests in 8 s) is refused rather than
 * followed, and never read as "the service has nothing beyond this".
 */
export const maxListingPages = 10_000;

/**
 * A listing page's pagination as the client may act on it: links resolved against the request
 * (RFC 8288 allows relative references; unparsable ones are dropped), and `last` no further than
 * what `total` and `per-page` allow. Every caller of `listAssetsPage` gets it in this form.
 */
export function boundedPageMeta(meta: PageMeta, requestUrl: string): PageMeta {
  const links: PageLinks = {};
  for (const rel of ['first', 'prev', 'next', 'last'] as const) {
    const href = meta.links[rel];
    if (href === undefined) continue;
    try {
      links[rel] = new URL(href, requestUrl).href;
    } catch {
      /* not a URL even relative to the request: as if the service had not sent it */
    }
  }
  const fromTotal = meta.total > 0 && meta.perPage > 0 ? Math.ceil(meta.total / meta.perPage) : undefined;
  const fromLink = links.last ? pageOf(links.last) : undefined;
  let last = fromLink;
  if (last !== undefined && fromTotal !== undefined && last > fromTotal) {
    last = fromTotal;
    links.last = withPage(links.last as string, fromTotal);
    if (links.next && (pageOf(links.next) ?? 0) > fromTotal) delete links.next;
  }
  const claimed = last ?? fromTotal ?? 1;
  if (claimed > maxListingPages) {
    throw new ApiError(
      'bad_response',
      `The service's asset listing claims ${claimed.toLocaleString('en')} pages; this app reads at most ${maxListingPages.toLocaleString('en')}. Nothing was merged from it.`,
    );
  }
  return { ...meta, links };
}

/** The last page to read: from the (bounded) `last` link, else from `total`, else from `next`. */
export function lastPageOf(meta: PageMeta, firstCount: number): number {
  const fromLink = meta.links.last ? pageOf(meta.links.last) : undefined;
  if (fromLink !== undefined) return fromLink;
  if (meta.total > 0 && meta.perPage > 0) return Math.ceil(meta.total / meta.perPage);
  return firstCount > 0 && meta.links.next ? 2 : 1;
}

function pageOf(href: string): number | undefined {
  const page = Number(new URL(href).searchParams.get('page'));
  return Number.isSafeInteger(page) && page >= 1 ? page : undefined;
}

function withPage(href: string, page: number): string {
  const url = new URL(href);
  url.searchParams.set('page', String(page));
  return url.href;
}
