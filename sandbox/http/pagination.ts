import { z } from 'zod';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../shared/domain';
import { badRequest } from './errors';

export const defaultPerPage = DEFAULT_PER_PAGE;
export const maxPerPage = MAX_PER_PAGE;

const positiveInt = z
  .string()
  .regex(/^\d+$/, 'must be a positive integer')
  .transform(Number)
  .refine((n) => n >= 1, 'must be a positive integer');

/** Far beyond any listing, and small enough that the row offset stays an exact integer. */
export const maxPage = 1_000_000_000;

const pageQuerySchema = z.object({
  page: positiveInt.refine((n) => n <= maxPage, `must be at most ${maxPage}`).optional(),
  per_page: positiveInt.optional(),
});

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/**
 * `per_page` above the maximum is clamped rather than refused, the way the Rails paginators the
 * service's headers come from behave; a malformed value is a 400 so client bugs surface.
 */
export function parsePageQuery(query: unknown): PageRequest {
  const parsed = pageQuerySchema.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`${issue?.path.join('.') ?? 'page'} ${issue?.message ?? 'is invalid'}`);
  }
  const page = parsed.data.page ?? 1;
  const perPage = Math.min(parsed.data.per_page ?? defaultPerPage, maxPerPage);
  return { page, perPage, offset: (page - 1) * perPage };
}

/**
 * RFC 8288 `link` value with first/prev/next/last "as applicable": first and prev only after page
 * 1, next and last only before the last page. Other query parameters are kept so a client can follow
 * the links verbatim.
 */
export function pageLinks(
  baseUrl: string,
  query: Record<string, string>,
  req: PageRequest,
  total: number,
): string {
  const lastPage = Math.max(1, Math.ceil(total / req.perPage));
  const href = (page: number): string => {
    const params = new URLSearchParams(query);
    params.set('page', String(page));
    params.set('per_page', String(req.perPage));
    return `<${baseUrl}?${params.toString()}>`;
  };
  const parts: string[] = [];
  if (req.page > 1) {
    parts.push(`${href(1)}; rel="first"`);
    parts.push(`${href(Math.min(req.page - 1, lastPage))}; rel="prev"`);
  }
  if (req.page < lastPage) {
    parts.push(`${href(req.page + 1)}; rel="next"`);
    parts.push(`${href(lastPage)}; rel="last"`);
  }
  return parts.join(', ');
}
