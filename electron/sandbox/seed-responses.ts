import type { IndicatorValue } from './model/indicators';
import type { SandboxStore } from './store';

/** Answers of the seeded responses: a complete last year and a half-done current year. */
const lastYear: Record<string, IndicatorValue> = {
  LE1_objectives: ['public', 'investors'],
  LE2_responsible: 'dedicated',
  LE3_governance: 'An ESG committee chaired by the CIO meets quarterly and reports to the board.',
  RO1_risk_assessment: ['climate_physical', 'flooding'],
  DV1_design_standard: 'yes',
  RS1_tenant_engagement: 'Annual resident survey and a green lease programme.',
};
const thisYear: Record<string, IndicatorValue> = {
  LE1_objectives: ['public'],
  LE2_responsible: 'dedicated',
  RO1_risk_assessment: ['climate_physical', 'climate_transition'],
};

/** Two portfolio responses for an entity: last year's (submitted) and this year's (open). */
export function seedResponses(store: SandboxStore, entityId: number, assessmentYear: number): void {
  const { responses } = store;
  const fill = (responseId: number, answers: Record<string, IndicatorValue>): void => {
    for (const [variable, value] of Object.entries(answers))
      responses.writeValue(responseId, variable, value, 0);
  };
  const previous = responses.create({
    entityId,
    year: assessmentYear - 1,
    name: `${assessmentYear - 1} Real Estate Assessment`,
  });
  fill(previous.id, lastYear);
  store.db.prepare("UPDATE responses SET state = 'submitted' WHERE id = ?").run(previous.id);
  const current = responses.create({
    entityId,
    year: assessmentYear,
    name: `${assessmentYear} Real Estate Assessment`,
  });
  fill(current.id, thisYear);
}
