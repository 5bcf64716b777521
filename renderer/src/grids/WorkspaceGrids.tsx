/**
 * The four grids of the workspace, their columns derived from the catalogs and the entity's
 * preferences: assets (characteristics), annual data (asset x year, grouped by topic, the asset
 * name pinned), certifications and energy ratings (an entry per row, dropdowns from cached lists).
 */
import { useMemo } from 'react';
import type { ColDef, ColGroupDef, ValueGetterParams } from 'ag-grid-community';
import { annualFieldCatalog, assetFieldCatalog, countryCodes } from '../../../shared/domain';
import type { WorkspaceMeta } from '../store/workspace';
import { toColDef, toColGroupDefs } from './ag-columns';
import { annualColumns, assetColumns, entryColumns, type FieldColumn } from './columns';
import { DataGrid, type GrowSpec } from './DataGrid';
import { type EntryCollection, type GridRow } from './rows';
import { onStatusCellClicked, StatusCell } from './StatusCell';
import { formatValue, parseInput } from './values';

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
  filter: 'agTextColumnFilter',
  cellClass: 'cell-readonly',
};

export function AssetsGrid({ meta }: { meta: WorkspaceMeta }) {
  const columnDefs = useMemo<Def[]>(() => {
    const prefs = meta.entity.reporting_preferences;
    const specs = assetColumns(assetFieldCatalog, prefs, {
      propertyTypes: meta.reference.propertyTypes.map((p) => p.code),
      countries: countryCodes,
    });
    const labels = new Map(meta.reference.propertyTypes.map((p) => [p.code, p.label]));
    return [
      statusColumn,
      ...specs.map((spec) =>
        spec.field === 'property_type_code'
          ? toColDef(spec, {
              format: (v) =>
                typeof v === 'string' && labels.has(v) ? `${v} — ${labels.get(v)}` : formatValue(v),
            })
          : toColDef(spec),
      ),
    ];
  }, [meta]);
  const grow: GrowSpec = { pathFor: (field) => field };
  return (
    <DataGrid
      kind="assets"
      testId="assets-grid"
      label="Assets"
      columnDefs={columnDefs}
      grow={grow}
      placeholderYear={meta.assessmentYear}
    />
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
    return [statusColumn, assetNameColumn, yearColumn, ...toColGroupDefs(groups)];
  }, [meta]);
  // A paste past the last row adds assets with a record for the last row's year.
  const grow: GrowSpec = {
    pathFor: (field, last) =>
      `annual_data/${last?.kind === 'annual' ? last.year : meta.assessmentYear}/${field}`,
  };
  return (
    <DataGrid
      kind="annual"
      testId="annual-grid"
      label="Annual data"
      columnDefs={columnDefs}
      grow={grow}
      placeholderYear={meta.assessmentYear}
    />
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
    <DataGrid
      kind={collection}
      testId={`${collection.replace('_', '-')}-grid`}
      label={collection === 'certifications' ? 'Certifications' : 'Energy ratings'}
      columnDefs={columnDefs}
      placeholderYear={meta.assessmentYear}
      {...(onSelection ? { onSelection } : {})}
    />
  );
}
