import type { IndicatorValue } from './model/indicators';
import type { SandboxStore } from './store';

/** Answers of the seeded responses: a complete last year and a half-done current year. */
const lastYear: Record<string, IndicatorValue> = {
  PO_1: '1',
  LE1_objectives: ['public', 'investors'],
  LE2_responsible: 'dedicated',
  LE3_governance: 'An ESG committee chaired by the CIO meets quarterly and reports to the board.',
  RO1_risk_assessment: ['climate_physical', 'flooding'],
  DV1_design_standard: 'yes',
  RS1_tenant_engagement: 'Annual resident survey and a green lease programme.',
  // Last year's evidence: a hyperlink for the environmental policy (the docs' first example item).
  PO_1_A1_EVD_TYPE_1: 'H',
  PO_1_A1_EVD_LINK_1: 'https://example.com/esg/environmental-policy',
  PO_1_A1_EVD_NOTES_1: 'Section 2 of the public policy page.',
};
const thisYear: Record<string, IndicatorValue> = {
  PO_1: '1',
  LE1_objectives: ['public'],
  LE2_responsible: 'dedicated',
  RO1_risk_assessment: ['climate_physical', 'climate_transition'],
};

/**
 * Two real estate responses for an entity: last year's (submitted, survey closed) and this year's
 * (in progress). Their name and manager are the entity's, as the service's summaries show.
 */
export function seedResponses(store: SandboxStore, entityId: number, assessmentYear: number): void {
  const { responses } = store;
  const fill = (responseId: number, answers: Record<string, IndicatorValue>): void => {
    for (const [variable, value] of Object.entries(answers))
      responses.writeValue(responseId, variable, value, 0);
  };
  const previous = responses.create({ entityId, surveyYear: assessmentYear - 1 });
  fill(previous.id, lastYear);
  responses.setStatus(previous.id, 'submitted', false);
  const current = responses.create({ entityId, surveyYear: assessmentYear });
  fill(current.id, thisYear);
}
