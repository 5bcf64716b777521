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
  {
    id: 1,
    name: 'BREEAM New Construction',
    levels: ['Pass', 'Good', 'Very Good', 'Excellent', 'Outstanding'],
  },
  {
    id: 2,
    name: 'BREEAM In-Use',
    levels: ['Acceptable', 'Pass', 'Good', 'Very Good', 'Excellent', 'Outstanding'],
  },
  { id: 3, name: 'LEED BD+C', levels: ['Certified', 'Silver', 'Gold', 'Platinum'] },
  { id: 4, name: 'LEED O+M', levels: ['Certified', 'Silver', 'Gold', 'Platinum'] },
  { id: 5, name: 'NABERS Energy', levels: stars(6) },
  { id: 6, name: 'NABERS Water', levels: stars(6) },
  { id: 7, name: 'DGNB', levels: ['Bronze', 'Silver', 'Gold', 'Platinum'] },
  { id: 8, name: 'HQE', levels: ['Pass', 'Good', 'Very Good', 'Excellent', 'Exceptional'] },
  { id: 9, name: 'WELL Building Standard', levels: ['Bronze', 'Silver', 'Gold', 'Platinum'] },
  { id: 10, name: 'ENERGY STAR', levels: [] },
  { id: 11, name: 'Green Star Performance', levels: stars(6) },
  { id: 12, name: 'BOMA BEST', levels: ['Certified', 'Bronze', 'Silver', 'Gold', 'Platinum'] },
  { id: 13, name: 'CASBEE', levels: ['C', 'B-', 'B+', 'A', 'S'] },
  { id: 14, name: 'Fitwel', levels: ['1 Star', '2 Stars', '3 Stars'] },
  { id: 15, name: 'EDGE', levels: ['EDGE Certified', 'EDGE Advanced', 'Zero Carbon'] },
  { id: 16, name: 'Passivhaus', levels: [] },
];

export const defaultEnergyRatingSchemes: readonly EnergyRatingScheme[] = [
  { id: 1, name: 'EU EPC', levels: ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 2, name: 'UK EPC', levels: ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 3, name: 'UK Display Energy Certificate', levels: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] },
  { id: 4, name: 'NABERS Energy Rating', levels: stars(6) },
  { id: 5, name: 'ENERGY STAR Score', levels: [] },
  { id: 6, name: 'Singapore Green Mark', levels: ['Certified', 'Gold', 'GoldPlus', 'Platinum'] },
];

export const defaultPropertyTypes: readonly ListItem[] = [
  { code: 'OFF', label: 'Office' },
  { code: 'RET', label: 'Retail' },
  { code: 'RHS', label: 'Retail: High Street' },
  { code: 'RSM', label: 'Retail: Shopping Centre' },
  { code: 'RWB', label: 'Retail: Warehouse' },
  { code: 'IND', label: 'Industrial' },
  { code: 'LOG', label: 'Distribution Warehouse' },
  { code: 'RES', label: 'Residential' },
  { code: 'RSL', label: 'Residential: Senior Homes' },
  { code: 'STU', label: 'Residential: Student Housing' },
  { code: 'HOT', label: 'Hotel' },
  { code: 'HEC', label: 'Healthcare' },
  { code: 'DAT', label: 'Data Centre' },
  { code: 'LEI', label: 'Leisure' },
  { code: 'EDU', label: 'Education' },
  { code: 'MIX', label: 'Mixed Use' },
  { code: 'SST', label: 'Self-Storage' },
  { code: 'PRK', label: 'Parking' },
  { code: 'OTH', label: 'Other' },
];

export const defaultPropertyTypeCodes: readonly string[] = defaultPropertyTypes.map((p) => p.code);

const codeListsFromCatalog: CodeList[] = annualFieldCatalog
  .filter((d) => d.type === 'code' && d.codes !== undefined)
  .map((d) => ({
    slug: d.name,
    name: d.label,
    items: (d.codes ?? []).map((code) => ({ code, label: code })),
  }));

/** Lists served by GET /api/v0/lists(/:slug); slugs of annual code fields equal the field name. */
export const defaultCodeLists: readonly CodeList[] = [
  { slug: 'property_types', name: 'Property types', items: [...defaultPropertyTypes] },
  { slug: 'countries', name: 'Countries', items: iso3166Alpha2.map(([code, label]) => ({ code, label })) },
  ...codeListsFromCatalog,
];
