/** How answers and files read in the Responses tab. */
import type { IndicatorDefinition, IndicatorValue } from '../../../shared/responses/types';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An answer in words: option labels rather than codes, so mine and theirs compare at a glance. */
export function describeValue(def: IndicatorDefinition | undefined, value: IndicatorValue): string {
  if (value === null) return 'Not answered';
  const label = (code: string) => def?.options?.find((o) => o.code === code)?.label ?? code;
  if (Array.isArray(value)) return value.length === 0 ? 'None selected' : value.map(label).join('; ');
  if (def?.kind === 'text') return value === '' ? '(empty)' : value;
  return label(value);
}

/** A stable, selector-safe id fragment for a variable (variables are [A-Za-z0-9_]). */
export const fieldId = (responseId: number, variable: string): string =>
  `resp-${responseId}-${variable.replace(/[^A-Za-z0-9_-]/g, '_')}`;
