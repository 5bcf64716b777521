import { z } from 'zod';
import { badRequest } from '../http/errors';

/** Parses a urlencoded form body (formbody gives strings, or arrays for repeated names). */
export function parseForm<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`The form is incomplete${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''}`);
  }
  return parsed.data;
}

/**
 * Parses a page's query string: a parameter given twice arrives as an array, an unknown choice as
 * any text; either is the visitor's mistake, answered 400 naming the parameter (never a 500).
 */
export function parseQuery<T extends z.ZodType>(schema: T, query: unknown): z.infer<T> {
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue?.path.join('.') ?? '';
    throw badRequest(
      `The query parameter ${name || 'list'} is not valid${issue ? ` (${issue.message}): give it once, with a valid value` : ''}`,
    );
  }
  return parsed.data;
}

/** A checkbox group: absent, one value, or several. */
export const multiValue = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

export const idParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/)
    .transform(Number),
});
