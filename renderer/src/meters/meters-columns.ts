/**
 * The Meters and Readings grids' columns: each editable column names the field `meters.edit` takes
 * (shared/meters/bridge-args.ts); values go to main as typed and are read there the way the import
 * reads them. Reading cells carry the reading rules' problems (shared/meters/rules.ts).
 */
import type { ColDef, ValueSetterParams } from 'ag-grid-community';
import type { meterFields, readingFields } from '../../../shared/meters/bridge-args';
import { meterSpaces, meterUtilities, spaceLabels, utilityLabels } from '../../../shared/meters/types';
import type { MeterView, MetersListing, ReadingView } from '../../../shared/meters/views';
import { editMeterCells } from './meters-edits';

export type MeterField = (typeof meterFields)[number];
export type ReadingField = (typeof readingFields)[number];
type Issue = MetersListing['issues'][number];

/** The problems of each reading cell (`<readingId>:<column>`), for classes and hover. */
export function issuesByCell(issues: readonly Issue[]): Map<string, Issue[]> {
  const out = new Map<string, Issue[]>();
  for (const issue of issues) {
    if (!issue.readingId) continue;
    const key = `${issue.readingId}:${issue.column ?? 'start'}`;
    const list = out.get(key);
    if (list) list.push(issue);
    else out.set(key, [issue]);
  }
  return out;
}

function editable<T extends { id: string }>(
  kind: 'meters' | 'readings',
  field: string,
  headerName: string,
  extra: Partial<ColDef<T>> = {},
): ColDef<T> {
  return {
    colId: field,
    headerName,
    editable: true,
    context: { meterField: field },
    valueSetter: (p: ValueSetterParams<T>) => {
      if (!p.data) return false;
      void editMeterCells(kind, [
        { id: p.data.id, field, value: p.newValue as string | number | boolean | null },
      ]);
      return false;
    },
    ...extra,
  };
}

const listEditor = (values: readonly string[]) => ({
  cellEditor: 'agSelectCellEditor',
  cellEditorParams: { values: [...values] },
});

export function meterColumns(assetName: (localId: string) => string): ColDef<MeterView>[] {
  return [
    { colId: 'select', headerName: '', checkboxSelection: true, headerCheckboxSelection: true, width: 44 },
    { colId: 'id', headerName: 'Meter ID', valueGetter: (p) => p.data?.id, width: 130 },
    {
      colId: 'asset',
      headerName: 'Asset',
      valueGetter: (p) => (p.data ? assetName(p.data.assetId) : ''),
      width: 180,
    },
    editable('meters', 'name', 'Name', { valueGetter: (p) => p.data?.name, width: 160 }),
    editable('meters', 'utility', 'Utility', {
      valueGetter: (p) => p.data?.utility,
      valueFormatter: (p) => utilityLabels[p.value as keyof typeof utilityLabels] ?? String(p.value ?? ''),
      ...listEditor(meterUtilities),
      width: 150,
    }),
    editable('meters', 'space', 'Space', {
      valueGetter: (p) => p.data?.space,
      valueFormatter: (p) => spaceLabels[p.value as keyof typeof spaceLabels] ?? String(p.value ?? ''),
      ...listEditor(meterSpaces),
      width: 210,
    }),
    editable('meters', 'areaServed', 'Floor area served', {
      valueGetter: (p) => p.data?.areaServed,
      type: 'rightAligned',
      width: 130,
    }),
    editable('meters', 'unit', 'Unit', { valueGetter: (p) => p.data?.unit, width: 90 }),
    editable('meters', 'energyContentKwh', 'Energy content (kWh per unit)', {
      valueGetter: (p) => p.data?.energyContent?.kwh ?? null,
      type: 'rightAligned',
      width: 150,
    }),
    {
      colId: 'readings',
      headerName: 'Readings',
      valueGetter: (p) => p.data?.readings,
      type: 'rightAligned',
      width: 100,
    },
  ];
}

export function readingColumns(problems: () => Map<string, Issue[]>): ColDef<ReadingView>[] {
  const ruled = (
    field: ReadingField,
    column: Issue['column'],
    header: string,
    extra: Partial<ColDef<ReadingView>>,
  ) =>
    editable<ReadingView>('readings', field, header, {
      cellClassRules: {
        'cell-error': (p) =>
          (problems().get(`${p.data?.id}:${column}`) ?? []).some((i) => i.severity === 'error'),
        'cell-warning': (p) =>
          (problems().get(`${p.data?.id}:${column}`) ?? []).some((i) => i.severity === 'warning'),
      },
      tooltipValueGetter: (p) =>
        (problems().get(`${p.data?.id}:${column}`) ?? []).map((i) => i.message).join('\n') || undefined,
      ...extra,
    });
  return [
    { colId: 'select', headerName: '', checkboxSelection: true, headerCheckboxSelection: true, width: 44 },
    ruled('meterId', 'meterId', 'Meter ID', { valueGetter: (p) => p.data?.meterId, width: 130 }),
    ruled('start', 'start', 'Start', { valueGetter: (p) => p.data?.start, width: 120 }),
    ruled('end', 'end', 'End (inclusive)', { valueGetter: (p) => p.data?.end, width: 130 }),
    ruled('quantity', 'quantity', 'Quantity', {
      valueGetter: (p) => p.data?.quantity,
      type: 'rightAligned',
      width: 120,
    }),
    ruled('unit', 'unit', 'Unit', { valueGetter: (p) => p.data?.unit, width: 90 }),
    editable<ReadingView>('readings', 'estimated', 'Estimated', {
      valueGetter: (p) => (p.data ? (p.data.estimated ? 'yes' : 'no') : ''),
      ...listEditor(['yes', 'no']),
      width: 100,
    }),
    {
      colId: 'source',
      headerName: 'Source',
      valueGetter: (p) => {
        const s = p.data?.source;
        if (!s) return '';
        if (s.kind === 'file') return `${s.file}, row ${s.row}`;
        if (s.kind === 'portfolio_manager') return 'Portfolio Manager';
        return 'Typed';
      },
      width: 200,
    },
  ];
}
