/**
 * Built-in reference data. The sandbox seeds /certifications, /energy_ratings and /lists from it, and
 * the renderer uses it offline until the service's own lists have been fetched.
 */
import type { CertificationScheme, CodeList, EnergyRatingScheme, ListItem } from './types';
import { annualFieldCatalog } from './catalog';
import { iso3166Alpha2 } from './countries';

const stars = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${i + 1} Star${i === 0 ? '' : 's'}`);

export const defaultCertificationSchemes: readonly CertificationScheme[] = [
  // The real service's ids for the schemes its docs show (598 is the docs' create example).
  {
    id: 585,
    name: 'ABINC Certification/Urban Development and Shopping Centre',
    levels: [],
    country: 'JP',
    status: 'both',
  },
  { id: 895, name: 'Austin Energy/Austin Energy Green Building', levels: [], status: 'both' },
  {
    id: 598,
    name: 'BCA Green Mark/Existing Buildings',
    levels: ['Platinum', 'GoldPlus', 'Gold', 'Certified'],
    country: 'SG',
    status: 'operational',
  },
  { id: 1140, name: '2000-Watt/Site - Operational', levels: [], country: 'CH', status: 'operational' },
  // The sandbox's own schemes, kept under their first ids so existing workspaces stay valid.
  {
    id: 1,
    name: 'BREEAM New Construction',
    levels: ['Pass', 'Good', 'Very Good', 'Excellent', 'Outstanding'],
    status: 'design',
  },
  {
    id: 2,
    name: 'BREEAM In-Use',
    levels: ['Acceptable', 'Pass', 'Good', 'Very Good', 'Excellent', 'Outstanding'],
    status: 'operational',
  },
  { id: 3, name: 'LEED BD+C', levels: ['Certified', 'Silver', 'Gold', 'Platinum'], status: 'design' },
  { id: 4, name: 'LEED O+M', levels: ['Certified', 'Silver', 'Gold', 'Platinum'], status: 'operational' },
  { id: 5, name: 'NABERS Energy', levels: stars(6), country: 'AU', status: 'operational' },
  { id: 6, name: 'NABERS Water', levels: stars(6), country: 'AU', status: 'operational' },
  { id: 7, name: 'DGNB', levels: ['Bronze', 'Silver', 'Gold', 'Platinum'], country: 'DE', status: 'both' },
  {
    id: 8,
    name: 'HQE',
    levels: ['Pass', 'Good', 'Very Good', 'Excellent', 'Exceptional'],
    country: 'FR',
    status: 'both',
  },
  { id: 9, name: 'WELL Building Standard', levels: ['Bronze', 'Silver', 'Gold', 'Platinum'], status: 'both' },
  { id: 10, name: 'ENERGY STAR', levels: [], country: 'US', status: 'operational' },
  { id: 11, name: 'Green Star Performance', levels: stars(6), country: 'AU', status: 'operational' },
  {
    id: 12,
    name: 'BOMA BEST',
    levels: ['Certified', 'Bronze', 'Silver', 'Gold', 'Platinum'],
    country: 'CA',
    status: 'operational',
  },
  { id: 13, name: 'CASBEE', levels: ['C', 'B-', 'B+', 'A', 'S'], country: 'JP', status: 'both' },
  { id: 14, name: 'Fitwel', levels: ['1 Star', '2 Stars', '3 Stars'], status: 'both' },
  { id: 15, name: 'EDGE', levels: ['EDGE Certified', 'EDGE Advanced', 'Zero Carbon'], status: 'both' },
  { id: 16, name: 'Passivhaus', levels: [], status: 'design' },
];

export const defaultEnergyRatingSchemes: readonly EnergyRatingScheme[] = [
  // The real service's ids for the ratings its docs show (57 and 66 are the docs' create example).
  { id: 57, name: 'Energy Performance Certificate', levels: [] },
  { id: 66, name: 'BBC Effinergie', levels: [] },
  { id: 67, name: 'BBC Effinergie Rénovation', levels: [] },
  { id: 68, name: 'BEPOS Effinergie', levels: [] },
  // The sandbox's own ratings, kept under their first ids so existing workspaces stay valid.
  { id: 1, name: 'EU EPC', levels: ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 2, name: 'UK EPC', levels: ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 3, name: 'UK Display Energy Certificate', levels: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 4, name: 'NABERS Energy Rating', levels: stars(6) },
  { id: 5, name: 'ENERGY STAR Score', levels: [] },
  { id: 6, name: 'Singapore Green Mark', levels: ['Certified', 'Gold', 'GoldPlus', 'Platinum'] },
];

/**
 * The slugs of the v0 lists the app reads (the docs list `equity_asset_type` and `location`, and
 * show `country`).
 */
export const listSlugs = { propertyTypes: 'equity_asset_type', countries: 'country' } as const;

/**
 * A snapshot of the service's `equity_asset_type` list, used until the service's own list has been
 * fetched (and by the sandbox). HTL and OCHI are the codes the docs use; the service's list, once
 * fetched and cached, replaces this one.
 */
export const defaultPropertyTypes: readonly ListItem[] = [
  { value: 'OCHI', label: 'Office: Corporate: High-Rise Office' },
  { value: 'OCMI', label: 'Office: Corporate: Mid-Rise Office' },
  { value: 'OCLO', label: 'Office: Corporate: Low-Rise Office' },
  { value: 'OBPK', label: 'Office: Business Park' },
  { value: 'OMED', label: 'Office: Medical Office' },
  { value: 'RHST', label: 'Retail: High Street' },
  { value: 'RSCC', label: 'Retail: Shopping Center' },
  { value: 'RWRH', label: 'Retail: Warehouse' },
  { value: 'IDWH', label: 'Industrial: Distribution Warehouse' },
  { value: 'IBPK', label: 'Industrial: Business Parks' },
  { value: 'IMFG', label: 'Industrial: Manufacturing' },
  { value: 'RMFA', label: 'Residential: Multi-Family' },
  { value: 'RFHO', label: 'Residential: Family Homes' },
  { value: 'RSNH', label: 'Residential: Senior Homes' },
  { value: 'RSTU', label: 'Residential: Student Housing' },
  { value: 'HTL', label: 'Hotel' },
  { value: 'HCAR', label: 'Healthcare' },
  { value: 'LLRE', label: 'Lodging, Leisure & Recreation' },
  { value: 'EDUC', label: 'Education' },
  { value: 'DATC', label: 'Technology/Science: Data Centers' },
  { value: 'SSTO', label: 'Self-Storage' },
  { value: 'PARK', label: 'Parking (indoors)' },
  { value: 'MIXD', label: 'Mixed Use' },
  { value: 'OTHR', label: 'Other' },
];

export const defaultPropertyTypeCodes: readonly string[] = defaultPropertyTypes.map((p) => p.value);

/**
 * Codes of the property-type list this app invented before it followed the service's list, with
 * their replacements. Workspaces and the sandbox migrate values found here (and only those: a code
 * the service's own list holds is never rewritten).
 */
export const legacyPropertyTypeCodes: Readonly<Record<string, string>> = {
  OFF: 'OCHI',
  RET: 'RHST',
  RHS: 'RHST',
  RSM: 'RSCC',
  RWB: 'RWRH',
  IND: 'IMFG',
  LOG: 'IDWH',
  RES: 'RMFA',
  RSL: 'RSNH',
  STU: 'RSTU',
  HOT: 'HTL',
  HEC: 'HCAR',
  DAT: 'DATC',
  LEI: 'LLRE',
  EDU: 'EDUC',
  MIX: 'MIXD',
  SST: 'SSTO',
  PRK: 'PARK',
  OTH: 'OTHR',
};

export const defaultCountries: readonly ListItem[] = iso3166Alpha2.map(([value, label]) => ({
  value,
  label,
}));

const codeListsFromCatalog: CodeList[] = annualFieldCatalog
  .filter((d) => d.type === 'code' && d.codes !== undefined)
  .map((d) => ({
    slug: d.name,
    name: d.label,
    items: (d.codes ?? []).map((value) => ({ value, label: value })),
  }));

/** Lists served by the sandbox's GET /api/v0/lists(/:slug); slugs of annual code fields equal the field name. */
export const defaultCodeLists: readonly CodeList[] = [
  {
    slug: listSlugs.propertyTypes,
    name: 'All current real estate property types',
    items: [...defaultPropertyTypes],
  },
  { slug: 'location', name: 'All current locations from locations table', items: [...defaultCountries] },
  { slug: listSlugs.countries, name: 'Country (ISO3166)', items: [...defaultCountries] },
  ...codeListsFromCatalog,
];
