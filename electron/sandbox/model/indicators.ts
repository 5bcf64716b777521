import { z } from 'zod';
import type { IndicatorDefinition as ServiceIndicator } from '../../../shared/responses/types';

/**
 * Portfolio indicators of the sandbox's responses (design: the real catalogue is not published).
 * A few per kind, each with its definition, so the app can render and check them.
 */
export type { IndicatorKind, IndicatorOption, IndicatorValue } from '../../../shared/responses/types';

/** The service's definition of a question (what the app receives), with the sandbox's sections. */
export interface IndicatorDefinition extends ServiceIndicator {
  section: 'Management' | 'Performance' | 'Development' | 'Residential';
}

export const indicatorDefinitions: readonly IndicatorDefinition[] = [
  {
    variable: 'LE1_objectives',
    section: 'Management',
    kind: 'checkbox',
    label: 'How are the ESG objectives communicated?',
    options: [
      { code: 'public', label: 'Publicly available' },
      { code: 'investors', label: 'Communicated to investors' },
      { code: 'internal', label: 'Internal only' },
    ],
    evidence: true,
  },
  {
    variable: 'LE2_responsible',
    section: 'Management',
    kind: 'radio',
    label: 'Who is responsible for ESG?',
    options: [
      { code: 'dedicated', label: 'Dedicated employee' },
      { code: 'part_time', label: 'Employee with ESG among other duties' },
      { code: 'external', label: 'External consultant' },
      { code: 'none', label: 'No one' },
    ],
    evidence: false,
  },
  {
    variable: 'LE3_governance',
    section: 'Management',
    kind: 'text',
    label: 'Describe the ESG governance structure.',
    max_length: 2000,
    evidence: true,
  },
  {
    variable: 'RO1_risk_assessment',
    section: 'Performance',
    kind: 'checkbox',
    label: 'Which risks were assessed in the last three years?',
    options: [
      { code: 'climate_physical', label: 'Physical climate risk' },
      { code: 'climate_transition', label: 'Transition risk' },
      { code: 'flooding', label: 'Flooding' },
      { code: 'biodiversity', label: 'Biodiversity' },
    ],
    evidence: true,
  },
  {
    variable: 'DV1_design_standard',
    section: 'Development',
    kind: 'radio',
    label: 'Does the entity apply a sustainable design standard to new construction?',
    options: [
      { code: 'yes', label: 'Yes' },
      { code: 'no', label: 'No' },
      { code: 'na', label: 'Not applicable' },
    ],
    evidence: false,
  },
  {
    variable: 'RS1_tenant_engagement',
    section: 'Residential',
    kind: 'text',
    label: 'Describe the resident engagement programme.',
    max_length: 1000,
    evidence: false,
  },
];

const byVariable = new Map(indicatorDefinitions.map((d) => [d.variable, d]));

export function indicatorDefinition(variable: string): IndicatorDefinition | undefined {
  return byVariable.get(variable);
}

/**
 * Checks a value against its indicator: an array of distinct option codes (checkbox), one code
 * (radio), a string up to max_length (text); null clears. Errors are the `_validations` messages.
 */
export function checkIndicatorValue(def: IndicatorDefinition, value: unknown): string[] {
  if (value === null) return [];
  const codes = new Set((def.options ?? []).map((o) => o.code));
  switch (def.kind) {
    case 'checkbox': {
      const parsed = z.array(z.string()).safeParse(value);
      if (!parsed.success) return ['must be an array of option codes'];
      const unknown = parsed.data.filter((c) => !codes.has(c));
      if (unknown.length > 0) return [`unknown option codes: ${unknown.join(', ')}`];
      if (new Set(parsed.data).size !== parsed.data.length) return ['option codes must not repeat'];
      return [];
    }
    case 'radio':
      if (typeof value !== 'string') return ['must be one option code'];
      return codes.has(value) ? [] : [`unknown option code: ${value}`];
    case 'text':
      if (typeof value !== 'string') return ['must be a string'];
      return value.length > (def.max_length ?? Infinity)
        ? [`must be at most ${def.max_length} characters`]
        : [];
  }
}
