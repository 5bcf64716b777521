import { z } from 'zod';

/**
 * The v0 responses payloads as the service sends them (the spec does not show them; these follow
 * the sandbox, whose shapes are the domain notes' design). Parsed loosely: extra fields are kept out
 * of the way, missing required ones are an unexpected answer.
 */
export const indicatorValueSchema = z.union([z.string(), z.array(z.string()), z.null()]);

export const responseSummarySchema = z.object({
  id: z.number().int(),
  year: z.number().int(),
  name: z.string(),
  state: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const indicatorDefinitionSchema = z.object({
  variable: z.string().min(1),
  section: z.string(),
  kind: z.enum(['checkbox', 'radio', 'text']),
  label: z.string(),
  options: z.array(z.object({ code: z.string(), label: z.string() })).optional(),
  max_length: z.number().int().positive().optional(),
  evidence: z.boolean().default(false),
});

export const responseValueSchema = z.object({
  variable: z.string().min(1),
  value: indicatorValueSchema,
  lock_version: z.number().int().min(0),
  updated_at: z.string().nullable().default(null),
});

export const responseDocumentSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  size: z.number().int().min(0),
  content_type: z.string(),
  variable: z.string().nullable().default(null),
  created_at: z.string().nullable().default(null),
});

export const responseDetailSchema = responseSummarySchema.extend({
  indicators: z.array(indicatorDefinitionSchema),
  values: z.array(responseValueSchema),
  documents: z.array(responseDocumentSchema),
});

/** The 409 of a stale write: the value as the service holds it now. */
export const valueConflictSchema = z.object({
  error: z.literal('conflict'),
  message: z.string().optional(),
  current: responseValueSchema,
});

export type RemoteResponseSummary = z.infer<typeof responseSummarySchema>;
export type RemoteResponseDetail = z.infer<typeof responseDetailSchema>;
export type RemoteResponseValue = z.infer<typeof responseValueSchema>;
export type RemoteResponseDocument = z.infer<typeof responseDocumentSchema>;
