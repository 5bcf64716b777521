/** How answers, responses and files read in the Responses tab. */
import type { IndicatorDefinition, IndicatorValue, ResponseSummary } from '../../../shared/responses/types';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const assessmentNames: Record<string, string> = {
  real_estate: 'Real Estate Assessment',
  sfdr_re: 'SFDR Real Estate',
};

/** A response by its year and assessment ("2025 Real Estate Assessment"); its name is the entity's. */
export function responseTitle(r: Pick<ResponseSummary, 'survey_year' | 'assessment_type'>): string {
  const type = r.assessment_type ?? 'real_estate';
  return `${r.survey_year} ${assessmentNames[type] ?? type.replace(/_/g, ' ')}`;
}

/** The service's status word as a person reads it. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

export function evidenceTypeLabel(type: string | null): string {
  return type === 'F' ? 'Document file' : type === 'H' ? 'Hyperlink' : (type ?? 'Evidence');
}

/** An answer in words: option labels rather than codes, so mine and theirs compare at a glance. */
export function describeValue(def: IndicatorDefinition | undefined, value: IndicatorValue): string {
  if (value === null) return 'Not answered';
  const label = (code: string) => def?.options?.find((o) => o.code === code)?.label ?? code;
  if (Array.isArray(value)) return value.length === 0 ? 'None selected' : value.map(label).join('; ');
  if (def?.kind === 'text') return value === '' ? '(empty)' : String(value);
  return label(String(value));
}

/** A stable, selector-safe id fragment for a variable (variables are [A-Za-z0-9_]). */
export const fieldId = (responseId: number, variable: string): string =>
  `resp-${responseId}-${variable.replace(/[^A-Za-z0-9_-]/g, '_')}`;
