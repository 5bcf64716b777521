/**
 * Message wording. Where the real service's wording is known (domain-notes.md) it is used verbatim,
 * including its inconsistent capitalisation, so offline results read like the server's.
 */
export const msg = {
  blank: "can't be blank",
  notANumber: 'is not a number',
  notAnInteger: 'must be an integer',
  notBoolean: 'must be true or false',
  notAString: 'must be a string',
  tooLong: (max: number): string => `is too long (maximum is ${max} characters)`,
  notIncluded: 'is not included in the list',
  mustBeBlank: 'must be blank',
  invalidDate: 'must be a valid date (YYYY-MM-DD)',
  gte: (n: number): string => `must be greater than or equal to ${n}`,
  lte: (n: number): string => `must be less than or equal to ${n}`,
  notBefore: (other: string): string => `must be on or after ${other}`,
  lteSize: 'Must be less than or equal to size',
  lteField: (other: string): string => `must be less than or equal to ${other}`,
  equalSizeTenantCtrl: 'Must be equal to size if the whole building is tenant controlled',
  equalSize: 'must be equal to size',
  splitsAddUp: 'asset_size_common, asset_size_shared and asset_size_tenant must add up to size',
  tenantSplitAddsUp: 'must be equal to asset_size_tenant_landlord plus asset_size_tenant_tenant',
  ownershipDatesRequired: 'ownership_from or ownership_to must be present when owned_entire_period is false',
  taken: 'has already been taken',
  mustExist: 'must exist',
  inFuture: "can't be in the future",
  // warnings
  gavHigh: "is above 5,500 million: check it is in millions of the entity's currency",
  noCoveredArea: 'consumption is reported with no covered floor area',
  outsideYear: (year: number): string => `falls outside the row's year (${year})`,
  outsidePeriod: (year: number, from: string, to: string): string =>
    `falls outside the row's reporting year ${year} (${from} to ${to})`,
  withoutFloorAreas: 'consumption is reported without its covered and total floor area',
  notInShippedList: (what: string): string =>
    `is not in the app's built-in ${what} list (the service's list could not be loaded yet)`,
} as const;
