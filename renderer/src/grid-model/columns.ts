/**
 * Grid columns derived from the field catalogs: one column per catalog field, grouped by topic, with
 * units in the header from the entity's reporting preferences. Pure data; `ag-columns.ts` turns a
 * spec into an AG Grid column definition.
 */
import type {
  AnnualFieldDef,
  AssetFieldDef,
  FieldUnit,
  ReportingPreferences,
  Topic,
} from '../../../shared/domain';
import type { ColumnType } from './values';

export interface FieldColumn {
  /** AG Grid col-id: the field name as the service spells it. */
  id: string;
  field: string;
  headerName: string;
  /** Full label, API name and unit. */
  headerTooltip: string;
  unit?: string | undefined;
  type: ColumnType;
  /** Allowed codes when the value comes from a list (dropdown). */
  codes?: readonly string[] | undefined;
  editable: boolean;
  width: number;
  pinned?: 'left' | undefined;
}

export interface ColumnGroupSpec {
  id: string;
  headerName: string;
  children: FieldColumn[];
}

export type UnitPrefs = Pick<ReportingPreferences, 'area_units_name' | 'currency'>;

/** The short unit shown in headers: the entity's area unit and currency where the catalog says so. */
export function unitLabel(unit: FieldUnit | undefined, prefs: UnitPrefs): string | undefined {
  switch (unit) {
    case undefined:
    case 'year':
      return undefined;
    case 'area':
      return areaLabel(prefs.area_units_name);
    case 'millions':
      return `${prefs.currency} m`;
    case 'm3':
      return 'm³';
    case 'tonnes':
      return 't';
    default:
      return unit;
  }
}

export function areaLabel(areaUnitsName: string): string {
  const n = areaUnitsName.toLowerCase();
  if (n.includes('feet') || n.includes('foot') || n.includes('sq ft') || n.includes('sqft')) return 'sq ft';
  if (n.includes('metre') || n.includes('meter') || n === 'm2') return 'm²';
  return areaUnitsName;
}

function widthFor(type: ColumnType, headerLength: number): number {
  const base = type === 'date' ? 120 : type === 'boolean' ? 96 : type === 'string' ? 150 : 112;
  return Math.max(base, Math.min(220, 24 + headerLength * 5));
}

const withUnit = (label: string, unit: string | undefined): string =>
  unit && !label.includes(`(${unit})`) && !label.endsWith('(%)') ? `${label} (${unit})` : label;

/** Asset characteristics: service ids read-only, the name pinned, the rest editable. */
export function assetColumns(
  catalog: readonly AssetFieldDef[],
  prefs: UnitPrefs,
  lists: { propertyTypes?: readonly string[]; countries?: readonly string[] } = {},
): FieldColumn[] {
  // The name first (pinned), the service's ids last: a block pasted from the name runs over the
  // characteristics in the order analysts keep them.
  const ids = new Set(['service_asset_id', 'partners_id']);
  const ordered = [
    ...catalog.filter((d) => d.name === 'name'),
    ...catalog.filter((d) => d.name !== 'name' && !ids.has(d.name)),
    ...catalog.filter((d) => ids.has(d.name)),
  ];
  return ordered.map((def) => {
    const unit = unitLabel(def.unit, prefs);
    const label = def.name === 'gav' ? 'Gross asset value' : def.label;
    const headerName = withUnit(label, unit);
    const readOnly = def.name === 'service_asset_id' || def.name === 'partners_id';
    const codes =
      def.name === 'property_type_code'
        ? lists.propertyTypes
        : def.name === 'country'
          ? lists.countries
          : undefined;
    return {
      id: def.name,
      field: def.name,
      headerName,
      headerTooltip: `${withUnit(def.label, unit)} — ${def.name}${def.requiredOnCreate ? ' (required)' : ''}`,
      unit,
      type: def.type,
      codes: codes && codes.length > 0 ? codes : undefined,
      editable: !readOnly,
      width: def.name === 'name' ? 220 : widthFor(def.type, headerName.length),
      pinned: def.name === 'name' ? 'left' : undefined,
    };
  });
}

export const annualTopics: ReadonlyArray<{ topic: Topic; headerName: string; prefix?: RegExp }> = [
  { topic: 'energy', headerName: 'Energy', prefix: /^Energy /i },
  { topic: 'ghg', headerName: 'GHG emissions', prefix: /^GHG /i },
  { topic: 'water', headerName: 'Water', prefix: /^Water /i },
  { topic: 'waste', headerName: 'Waste', prefix: /^Waste /i },
  { topic: 'reporting', headerName: 'Reporting characteristics' },
  { topic: 'efficiency', headerName: 'Efficiency measures' },
];

/** Annual data columns in groups by topic; labels lose the topic word the group header already says. */
export function annualColumns(catalog: readonly AnnualFieldDef[], prefs: UnitPrefs): ColumnGroupSpec[] {
  return annualTopics
    .map(({ topic, headerName, prefix }) => {
      const children = catalog
        .filter((def) => def.topic === topic)
        .map((def): FieldColumn => {
          const unit = unitLabel(def.unit, prefs);
          let label = prefix ? def.label.replace(prefix, '') : def.label;
          label = label.charAt(0).toUpperCase() + label.slice(1);
          const header = withUnit(label, unit);
          return {
            id: def.name,
            field: def.name,
            headerName: header,
            headerTooltip: `${withUnit(def.label, unit)} — ${def.name}`,
            unit,
            type: def.type,
            codes: def.codes,
            editable: true,
            width: widthFor(def.type, Math.min(header.length, 22)),
          };
        });
      return { id: `topic-${topic}`, headerName, children };
    })
    .filter((group) => group.children.length > 0);
}

/** Entry grids (certifications, energy ratings): the scheme id, level, size and (certifications) year. */
export function entryColumns(
  collection: 'certifications' | 'energy_ratings',
  prefs: UnitPrefs,
): FieldColumn[] {
  const area = unitLabel('area', prefs);
  const schemeField = collection === 'certifications' ? 'certification_id' : 'energy_rating_id';
  const cols: FieldColumn[] = [
    {
      id: schemeField,
      field: schemeField,
      headerName: collection === 'certifications' ? 'Certification' : 'Energy rating',
      headerTooltip: `Scheme from the service's list — ${schemeField}`,
      type: 'integer',
      editable: true,
      width: 230,
    },
    {
      id: 'level',
      field: 'level',
      headerName: 'Level',
      headerTooltip: 'Level of the scheme — level',
      type: 'string',
      editable: true,
      width: 140,
    },
    {
      id: 'size',
      field: 'size',
      headerName: withUnit('Floor area covered', area),
      headerTooltip: `Floor area covered (${area}) — size`,
      unit: area,
      type: 'number',
      editable: true,
      width: 160,
    },
  ];
  if (collection === 'certifications') {
    cols.push({
      id: 'year',
      field: 'year',
      headerName: 'Year',
      headerTooltip: 'Year certified — year',
      type: 'integer',
      editable: true,
      width: 100,
    });
  }
  return cols;
}
