/**
 * The sandbox's portfolio indicators are the app's shipped catalog (shared/responses/catalog.ts): the
 * service publishes its variables as a spreadsheet and a whitelist, not through the API, so both
 * sides read the same data, and check values with the same `checkIndicatorValue`.
 */
export {
  catalogIndicator as indicatorDefinition,
  indicatorCatalog as indicatorDefinitions,
  indicatorOfEvidence,
  valueRule,
} from '../../shared/responses/catalog';
export { checkIndicatorValue } from '../../shared/responses/types';
export type {
  IndicatorDefinition,
  IndicatorKind,
  IndicatorOption,
  IndicatorValue,
} from '../../shared/responses/types';
