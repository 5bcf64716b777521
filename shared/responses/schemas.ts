import { z } from 'zod';

/**
 * The v0 responses answers as the service's public docs show them (GRESB api-docs, _portfolio.md and
 * _evidence.md). Lenient where the service has varied (lock_version a string or an integer; a value
 * a string, an array, a number or null; ids as numbers or digit strings) and blind to fields the app
 * does not use; a field the app needs and cannot read fails with its name. Main only: the renderer
 * gets views, never these.
 */

const intLike = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,15}$/, 'expected an integer')
    .transform(Number),
]);

const optionalText = z
  .string()
  .nullable()
  .optional()
  .transform((v) => v ?? null);

/**
 * The docs write it "1" in a value and 1 in a write's answer: kept as the string the next write
 * echoes. A value the service has never stored may come without one: "0", what a first write sends.
 */
export const lockVersionSchema = z
  .union([z.string().min(1).max(64), z.number().int().min(0), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '0' : String(v)));

/** A string, an array of codes, a number (a share flag is 1), or null; true/false read as 1/0. */
export const indicatorValueSchema = z
  .union([
    z.string(),
    z.number().finite(),
    z.boolean().transform((b) => (b ? 1 : 0)),
    z.array(z.union([z.string(), z.number().finite().transform(String)])),
    z.null(),
  ])
  .optional()
  .transform((v) => v ?? null);

/** A response as GET .../responses lists it (and GET of one answers, as an array of one). */
export const responseSummarySchema = z.object({
  id: intLike,
  entity_id: intLike
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  business_line: optionalText,
  survey_year: intLike,
  name: optionalText.transform((v) => v ?? ''),
  manager: optionalText,
  status: z.string().min(1),
  survey_open: z.boolean(),
  assessment_type: optionalText,
  percent_completed: z
    .number()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  created_at: optionalText,
  updated_at: optionalText,
});

export const responseListSchema = z.array(responseSummarySchema);

/** GET of one response: the docs show an array holding the one summary; a bare object is taken too. */
export const oneResponseSchema = z.preprocess(
  (body) => (Array.isArray(body) ? body[0] : body),
  responseSummarySchema,
);

/**
 * A value as GET .../values/{variable} answers it, and the stored answer row a write answers (which
 * adds id, analysis_id and validation fields the app does not use).
 */
export const responseValueSchema = z.object({
  variable: z.string().min(1).optional(),
  value: indicatorValueSchema,
  lock_version: lockVersionSchema,
  created_at: optionalText,
  updated_at: optionalText,
});

/** The 409 of a stale write, when the service says what it holds now (the sandbox does). */
export const valueConflictSchema = z.object({ current: responseValueSchema });

const evidenceVariableSchema = z.object({ variable: z.string().min(1), value: indicatorValueSchema });

/** POST .../documents answers the item it made: its number, report link and variables. */
export const documentAnswerSchema = z.object({
  answer_name: z.string().min(1),
  item_number: intLike,
  evidence_type: optionalText,
  report_url: optionalText,
  variables: z
    .record(z.string(), evidenceVariableSchema)
    .nullable()
    .optional()
    .transform((v) => v ?? {}),
});

/** The docs' 404 for a variable that is not whitelisted: `{"error": "Variable could not be found."}`. */
export function variableNotFoundMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as Record<string, unknown>)['error'];
  return typeof error === 'string' && /variable could not be found/i.test(error) ? error : undefined;
}

export type RemoteResponseSummary = z.output<typeof responseSummarySchema>;
export type RemoteResponseValue = z.output<typeof responseValueSchema>;
export type RemoteDocumentAnswer = z.output<typeof documentAnswerSchema>;
