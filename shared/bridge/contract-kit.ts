/**
 * The pieces the bridge's contract (contract.ts) is written with: a method's and an event's spec, and
 * the argument schemas several methods share, so the contract itself lists only its methods.
 */
import { z } from 'zod';
import { handSourceKinds } from '../history/change-source';

export interface MethodSpec<Args extends z.ZodType, Result> {
  readonly args: Args;
  /** Phantom: carries the result type only (boxed, so a nullable result survives NonNullable). */
  readonly result?: { value: Result };
}

export interface EventSpec<Payload> {
  /** Phantom: carries the payload type only. */
  readonly payload?: Payload;
}

export function method<Result>() {
  return <Args extends z.ZodType>(args: Args): MethodSpec<Args, Result> => ({ args });
}

export function event<Payload>(): EventSpec<Payload> {
  return {};
}

export const noArgs = z.object({}).strict();
export const localId = z.string().min(1).max(64);
export const connectionId = z.string().min(1).max(100);
export const historyLabel = z.string().min(1).max(120);
/** What the analyst's hand did in a grid (a change's source, shared/history/change-source.ts). */
export const handSource = z.enum(handSourceKinds);
export const scalar = z.union([z.string().max(10_000), z.number().finite(), z.boolean(), z.null()]);
/** Paths as shared/sync/asset-doc.ts writes them: `field`, `annual_data/2024/field`, `certifications/id:7/level`. */
export const docPath = z
  .string()
  .max(200)
  .regex(/^[a-z_][a-z0-9_]*(\/[A-Za-z0-9:_-]+(\/[a-z_][a-z0-9_]*)?)?$/);
export const entryCollection = z.enum(['certifications', 'energy_ratings']);
export const docFields = z.record(
  z
    .string()
    .max(100)
    .regex(/^[a-z_][a-z0-9_]*$/),
  scalar,
);

export const responseId = z.number().int().positive();
export const indicatorVariable = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/);
/**
 * checkbox: option codes; radio: one code (the service also stores numbers); text: a string; null
 * clears. Checked per kind in main.
 */
export const indicatorValue = z.union([
  z.string().max(100_000),
  z.number().finite(),
  z.array(z.string().min(1).max(200)).max(500),
  z.null(),
]);
