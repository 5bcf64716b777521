/**
 * The indicator catalog the app ships. The service serves values by variable only: its definitions
 * are published as a spreadsheet of variables and a whitelist, not by the API. So, like the asset
 * field catalog, the questions the app shows (and the sandbox accepts) are data here. `PO_1` and its
 * evidence answer `PO_1_A1_EVD` are the docs' own example; the other variables are the sandbox's.
 */
import type { EvidencePart, IndicatorDefinition, ValueRule } from './types';

export const indicatorCatalog: readonly IndicatorDefinition[] = [
  {
    variable: 'PO_1',
    section: 'Management',
    kind: 'radio',
    label: 'Does the entity have a policy on environmental issues?',
    options: [
      { code: '1', label: 'Yes' },
      { code: '0', label: 'No' },
    ],
    evidence: 'PO_1_A1_EVD',
  },
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
    evidence: 'LE1_objectives_EVD',
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
  },
  {
    variable: 'LE3_governance',
    section: 'Management',
    kind: 'text',
    label: 'Describe the ESG governance structure.',
    max_length: 2000,
    evidence: 'LE3_governance_EVD',
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
    evidence: 'RO1_risk_assessment_EVD',
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
  },
  {
    variable: 'RS1_tenant_engagement',
    section: 'Residential',
    kind: 'text',
    label: 'Describe the resident engagement programme.',
    max_length: 1000,
  },
];

/** Items an evidence answer may hold (the portal's limit is not published; this bounds a scan). */
export const maxEvidenceItems = 50;
export const maxEvidenceNotes = 2000;
export const maxEvidenceUrl = 2000;

const byVariable = new Map(indicatorCatalog.map((d) => [d.variable, d]));
const byEvidence = new Map(
  indicatorCatalog.flatMap((d) => (d.evidence === undefined ? [] : [[d.evidence, d] as const])),
);

export function catalogIndicator(variable: string): IndicatorDefinition | undefined {
  return byVariable.get(variable);
}

/** The question an evidence answer (`answer_name`) belongs to. */
export function indicatorOfEvidence(answerName: string): IndicatorDefinition | undefined {
  return byEvidence.get(answerName);
}

/** `PO_1_A1_EVD` + `LINK` + 1 = `PO_1_A1_EVD_LINK_1`, as the docs name an evidence item's parts. */
export function evidenceVariable(answerName: string, part: EvidencePart, item: number): string {
  return `${answerName}_${part}_${item}`;
}

const partPattern = /^(.+)_(TYPE|LINK|DOCID|NOTES|SHARE)_([1-9]\d{0,3})$/;

/** The evidence item a variable belongs to, when it is one of a catalog evidence answer's parts. */
export function parseEvidenceVariable(
  variable: string,
): { answerName: string; part: EvidencePart; item: number } | undefined {
  const m = partPattern.exec(variable);
  if (!m?.[1] || !m[2] || !m[3] || !byEvidence.has(m[1])) return undefined;
  const item = Number(m[3]);
  if (item > maxEvidenceItems) return undefined;
  return { answerName: m[1], part: m[2] as EvidencePart, item };
}

const partRules: Record<EvidencePart, ValueRule> = {
  TYPE: {
    kind: 'radio',
    options: [
      { code: 'F', label: 'Document file' },
      { code: 'H', label: 'Hyperlink' },
    ],
  },
  LINK: { kind: 'url', max_length: maxEvidenceUrl },
  DOCID: { kind: 'text', max_length: 64 },
  NOTES: { kind: 'text', max_length: maxEvidenceNotes },
  SHARE: { kind: 'flag' },
};

/**
 * The rule of a variable the app may read and write: a catalog question or a part of one of its
 * evidence items. Undefined for anything else: the service's whitelist, as the sandbox applies it.
 */
export function valueRule(variable: string): ValueRule | undefined {
  const def = byVariable.get(variable);
  if (def) return def;
  const part = parseEvidenceVariable(variable);
  return part ? partRules[part.part] : undefined;
}
