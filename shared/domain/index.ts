/**
 * Public API of the shared domain: one implementation of the Submission Service's resources and
 * rules for the renderer, the sync engine and the sandbox service. Import from here, not from the
 * modules, so internals can move.
 */
export type {
  AnnualData,
  AnnualDataInput,
  AnnualValue,
  AreaUnit,
  Asset,
  AssetInput,
  AssetValidationResult,
  BatchCounts,
  BatchRequest,
  BatchResponse,
  Certification,
  CertificationInput,
  CertificationScheme,
  CodeList,
  CodeListSummary,
  EnergyRating,
  EnergyRatingInput,
  EnergyRatingScheme,
  Entity,
  FieldMessages,
  InvalidAsset,
  ListItem,
  OAuthTokenResponse,
  Outlier,
  OutlierKpi,
  OutlierType,
  PageLinks,
  PageMeta,
  ParseResult,
  ReportingPreferences,
  TokenInfoResponse,
  ValidationCounts,
  ValidationRequest,
  ValidationResponse,
  Validations,
} from './types';

export type { ValidationContext, CompiledContext } from './context';
export { areaUnitFromName, compileContext, SQFT_TO_M2 } from './context';

export type {
  AnnualFieldDef,
  AreaPart,
  AssetFieldDef,
  FieldType,
  FieldUnit,
  Measure,
  MeasureTriple,
  Topic,
  Utility,
} from './catalog';
export {
  alwaysCreateRequiredFields,
  annualFieldByName,
  annualFieldCatalog,
  annualFieldsByTopic,
  assetFieldByName,
  assetFieldCatalog,
  energyAreaParts,
  energyUtilities,
  ghgScopes,
  MAX_STRING_LENGTH,
  measureTriples,
  ncmrStatusCodes,
  renewableClaimCodes,
  renewableProcurementCodes,
  renewableProximityCodes,
  renewableVintageCodes,
} from './catalog';

export { countryCodes, countryNameByCode, iso3166Alpha2 } from './countries';
export { countNames, listsContext, workspaceContexts, type ReferenceLists } from './lists-context';
export { describeExtraFields, extraFields } from './extra-fields';
export {
  defaultCertificationSchemes,
  defaultCodeLists,
  defaultCountries,
  defaultEnergyRatingSchemes,
  defaultPropertyTypeCodes,
  defaultPropertyTypes,
  legacyPropertyTypeCodes,
  listSlugs,
} from './reference-data';

export {
  annualDataInputSchema,
  annualDataSchema,
  assetInputSchema,
  assetSchema,
  BATCH_MAX_PER_FIELD,
  batchRequestSchema,
  batchResponseSchema,
  certificationInputSchema,
  certificationSchema,
  certificationSchemeSchema,
  codeListSchema,
  codeListSummarySchema,
  energyRatingInputSchema,
  energyRatingSchema,
  energyRatingSchemeSchema,
  entitySchema,
  invalidAssetSchema,
  outlierSchema,
  parseAsset,
  parseAssetInput,
  parseAssetList,
  parseBatchRequest,
  parseBatchResponse,
  parseCertificationSchemes,
  parseCodeList,
  parseEnergyRatingSchemes,
  parseEntity,
  parseEntityList,
  parseValidationRequest,
  parseValidationResponse,
  parseWith,
  reportingPreferencesSchema,
  schemaKeys,
  validationRequestSchema,
  validationResponseSchema,
  validationsSchema,
} from './schemas';

export { msg as validationMessages } from './messages';
export { mergeAssetPatch } from './merge';
export { GAV_WARNING_THRESHOLD } from './rules/asset-rules';
export { hasErrors, hasWarnings, ValidationCache, validateAsset, withValidations } from './validate';

export type { IntensityRange, KpiRanges, OutlierOptions, OutlierThresholds } from './outliers';
export { computeOutliers, defaultOutlierThresholds } from './outliers';

export {
  DEFAULT_PER_PAGE,
  formatLinkHeader,
  MAX_PER_PAGE,
  pageMetaFromHeaders,
  parseLinkHeader,
} from './pagination';
