/**
 * The four grids of the workspace, their columns derived from the catalogs and the entity's
 * preferences: assets (characteristics), annual data (asset x year, grouped by topic, the asset
 * name pinned), certifications and energy ratings (an entry per row, dropdowns from cached lists).
 */
import { useMemo, type ReactNode } from 'react';
import { ColumnChooser } from './ColumnChooser';
import type { ColDef, ColGroupDef, ValueGetterParams } from 'ag-grid-community';
import {
  annualFieldCatalog,
  assetFieldCatalog,
  describeExtraFields,
  extraFields,
  type ListItem,
} from '../../../shared/domain';
import type { GrowSpec } from '../editing/asset-editing';
import { annualColumns, assetColumns, entryColumns, type FieldColumn } from '../grid-model/columns';
import { type EntryCollection, type GridKind, type GridRow } from '../grid-model/rows';
import { formatValue, parseInput } from '../grid-model/values';
import type { WorkspaceMeta } from '../store/workspace';
import { toColDef, toColGroupDefs } from './ag-columns';
import { DataGrid } from './DataGrid';
import { onStatusCellClicked, StatusCell } from './StatusCell';

type Def = ColDef<GridRow> | ColGroupDef<GridRow>;

const statusColumn: ColDef<GridRow> = {
  colId: '__status',
  headerName: '',
  headerTooltip: 'Staged change: + new, ✎ changed, ✕ deleted, ⚠ conflict; ↺ reverts the asset',
  width: 52,
  pinned: 'left',
  lockPinned: true,
  sortable: true,
  filter: false,
  resizable: false,
  suppressNavigable: true,
  valueGetter: (p) => (p.data ? (p.data.view.conflicts.length > 0 ? 'conflict' : p.data.view.status) : ''),
  cellRenderer: StatusCell,
  onCellClicked: onStatusCellClicked,
};

const assetNameColumn: ColDef<GridRow> = {
  colId: 'asset_name',
  headerName: 'Asset',
  headerTooltip: 'The asset (edit the name in the Assets grid)',
  pinned: 'left',
  lockPinned: true,
  width: 190,
  valueGetter: (p) => (p.data ? String(p.data.view.doc['name'] ?? '') : ''),
  // Names alike but for their end ("Rotterdam Distribution Centre 1", "… 36") are cut to the
  // column: the whole name on hover.
  context: { tooltip: (row: GridRow) => String(row.view.doc['name'] ?? '') || undefined },
  filter: 'agTextColumnFilter',
  cellClass: 'cell-readonly',
};

/**
 * A list-bound column shows the service's label beside the code, and takes either when typed or
 * pasted ("NL", "Netherlands").
 */
function listColumnOptions(items: readonly ListItem[]) {
  const labels = new Map(items.map((item) => [item.value, item.label]));
  const byText = new Map<string, string>();
  for (const item of items) {
    byText.set(item.value.toLowerCase(), item.value);
    byText.set(item.label.toLowerCase(), item.value);
    byText.set(`${item.label} (${item.value})`.toLowerCase(), item.value);
  }
  return {
    format: (v: unknown) =>
      typeof v === 'string' && labels.has(v) ? `${labels.get(v)} (${v})` : formatValue(v),
    parse: (text: unknown) => {
      const parsed = parseInput(text, 'code');
      return typeof parsed === 'string' ? (byText.get(parsed.trim().toLowerCase()) ?? parsed) : parsed;
    },
  };
}

/** Fields the service sent that the app does not know: shown read-only, kept and sent back as they are. */
function extraFieldsColumn(level: 'asset' | 'annual'): ColDef<GridRow> {
  const record = (row: GridRow | undefined): Record<string, unknown> | undefined =>
    !row ? undefined : level === 'asset' ? row.view.doc : row.kind === 'annual' ? row.rec : undefined;
  const described = (row: GridRow | undefined): string => {
    const rec = record(row);
    return rec ? describeExtraFields(extraFields(rec, level)) : '';
  };
  return {
    colId: `__extra_${level}`,
    headerName: 'Other fields from the service',
    headerTooltip:
      'Fields the service sent that this app does not know; kept as they are and never changed here',
    width: 220,
    editable: false,
    valueGetter: (p) => described(p.data),
    context: { tooltip: (row: GridRow) => described(row) || undefined },
    filter: 'agTextColumnFilter',
    cellClass: 'cell-readonly',
  };
}

/** A grid with its column chooser above it, the layout remembered for this workspace. */
function GridWithChooser({
  kind,
  meta,
  children,
}: {
  kind: GridKind;
  meta: WorkspaceMeta;
  children: ReactNode;
}) {
  return (
    <div className="grid-with-chooser">
      <ColumnChooser kind={kind} workspace={`${meta.connectionId}:${meta.entity.id}`} />
      {children}
    </div>
  );
}

export function AssetsGrid({ meta }: { meta: WorkspaceMeta }) {
  const columnDefs = useMemo<Def[]>(() => {
    const prefs = meta.entity.reporting_preferences;
    const { propertyTypes, countries } = meta.reference;
    const specs = assetColumns(assetFieldCatalog, prefs, {
      propertyTypes: propertyTypes.map((p) => p.value),
      countries: countries.map((c) => c.value),
    });
    const lists: Record<string, readonly ListItem[]> = {
      property_type_code: propertyTypes,
      country: countries,
    };
    return [
      statusColumn,
      ...specs.map((spec) => {
        const items = lists[spec.field];
        return items ? toColDef(spec, listColumnOptions(items)) : toColDef(spec);
      }),
      extraFieldsColumn('asset'),
    ];
  }, [meta]);
  const grow: GrowSpec = { pathFor: (field) => field };
  return (
    <GridWithChooser kind="assets" meta={meta}>
      <DataGrid
        kind="assets"
        testId="assets-grid"
        label="Assets"
        columnDefs={columnDefs}
        grow={grow}
        placeholderYear={meta.assessmentYear}
      />
    </GridWithChooser>
  );
}

export function AnnualGrid({ meta }: { meta: WorkspaceMeta }) {
  const columnDefs = useMemo<Def[]>(() => {
    const groups = annualColumns(annualFieldCatalog, meta.entity.reporting_preferences);
    const yearColumn: ColDef<GridRow> = {
      colId: 'year',
      headerName: 'Year',
      pinned: 'left',
      lockPinned: true,
      width: 92,
      valueGetter: (p) => (p.data?.kind === 'annual' ? p.data.year : null),
      filter: 'agNumberColumnFilter',
      cellClass: 'cell-readonly',
    };
    return [
      statusColumn,
      assetNameColumn,
      yearColumn,
      ...toColGroupDefs(groups),
      extraFieldsColumn('annual'),
    ];
  }, [meta]);
  // A paste past the last row adds assets with a record for the last row's year.
  const grow: GrowSpec = {
    pathFor: (field, last) =>
      `annual_data/${last?.kind === 'annual' ? last.year : meta.assessmentYear}/${field}`,
  };
  return (
    <GridWithChooser kind="annual" meta={meta}>
      <DataGrid
        kind="annual"
        testId="annual-grid"
        label="Annual data"
        columnDefs={columnDefs}
        grow={grow}
        placeholderYear={meta.assessmentYear}
      />
    </GridWithChooser>
  );
}

export function EntriesGrid({
  meta,
  collection,
  onSelection,
}: {
  meta: WorkspaceMeta;
  collection: EntryCollection;
  onSelection?: (rows: GridRow[]) => void;
}) {
  const columnDefs = useMemo<Def[]>(() => {
    const schemes =
      collection === 'certifications' ? meta.reference.certifications : meta.reference.energyRatings;
    const byId = new Map(schemes.map((s) => [s.id, s]));
    const byName = new Map(schemes.map((s) => [s.name.toLowerCase(), s]));
    const schemeField = collection === 'certifications' ? 'certification_id' : 'energy_rating_id';
    const schemeOf = (row: GridRow) =>
      row.kind === collection ? byId.get(Number(row.entry[schemeField])) : undefined;
    const specs: FieldColumn[] = entryColumns(collection, meta.entity.reporting_preferences);
    return [
      statusColumn,
      assetNameColumn,
      ...specs.map((spec) => {
        if (spec.field === schemeField) {
          const def = toColDef(spec, {
            format: (v) => {
              const scheme = byId.get(Number(v));
              return scheme ? scheme.name : formatValue(v);
            },
            parse: (text) => {
              if (typeof text === 'number') return text;
              const scheme = byName.get(
                String(text ?? '')
                  .trim()
                  .toLowerCase(),
              );
              return scheme ? scheme.id : parseInput(text, 'integer');
            },
            valuesFor: () => schemes.map((s) => s.id),
          });
          // Shown as the scheme's name: text alignment and a text filter on the name.
          return {
            ...def,
            type: undefined,
            filter: 'agTextColumnFilter',
            filterValueGetter: (p: ValueGetterParams<GridRow>) =>
              p.data
                ? (byId.get(Number(p.data.kind === collection ? p.data.entry[schemeField] : NaN))?.name ?? '')
                : '',
          };
        }
        if (spec.field === 'level') {
          return toColDef(spec, {
            valuesFor: (row) => {
              const levels = schemeOf(row)?.levels;
              return levels && levels.length > 0 ? [null, ...levels] : undefined;
            },
          });
        }
        if (spec.field === 'year') {
          // The sync sends a certification's year when the entry is new (see the report).
          return toColDef(spec, {
            editableFor: (row) => row.kind === collection && row.key.startsWith('new:'),
          });
        }
        return toColDef(spec);
      }),
    ];
  }, [meta, collection]);
  return (
    <GridWithChooser kind={collection} meta={meta}>
      <DataGrid
        kind={collection}
        testId={`${collection.replace('_', '-')}-grid`}
        label={collection === 'certifications' ? 'Certifications' : 'Energy ratings'}
        columnDefs={columnDefs}
        placeholderYear={meta.assessmentYear}
        {...(onSelection ? { onSelection } : {})}
      />
    </GridWithChooser>
  );
}
