/**
 * The Meters and Readings grids' columns: each carries its editing column in `context.cell` (the
 * shared editing commands read it, `meter-editing.ts`); an editable one names the field `meters.edit`
 * takes (shared/meters/bridge-args.ts), and values go to main as typed, read there the way the import
 * reads them. Reading cells carry the reading rules' problems (shared/meters/rules.ts).
 */
import type { ColDef, ValueSetterParams } from 'ag-grid-community';
import type { meterFields, readingFields } from '../../../shared/meters/bridge-args';
import { meterSpaces, meterUtilities, spaceLabels, utilityLabels } from '../../../shared/meters/types';
import type { MeterView, MetersListing, ReadingView } from '../../../shared/meters/views';
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { EditColumn } from '../editing/grid-editing';
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

/** A meter or reading column: how its cell reads, shows and is written (`editing/grid-editing.ts`). */
interface CellSpec<T> {
  field: string;
  header: string;
  value(row: T): Scalar;
  format?: (value: unknown) => string;
  /** Written through `meters.edit` (the field is one it takes); else read-only. */
  editable?: boolean;
  /** False when the field can't be empty: a clear (Delete) leaves it. */
  clearable?: boolean;
}

const plainText = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/**
 * A column whose `context.cell` is its editing column (`meter-editing.ts` reads it): values go to
 * main as text, read there the way the import reads them, so the cell parses nothing itself.
 */
function column<T extends { id: string }>(
  kind: 'meters' | 'readings',
  spec: CellSpec<T>,
  extra: Partial<ColDef<T>> = {},
): ColDef<T> {
  const format = spec.format ?? plainText;
  const editable = spec.editable ?? false;
  const cell: EditColumn<T> = {
    field: spec.field,
    editable,
    ...(spec.clearable === false ? { clearable: false } : {}),
    value: spec.value,
    format,
    parse: (text) => text,
  };
  return {
    colId: spec.field,
    headerName: spec.header,
    editable,
    context: { cell },
    valueGetter: (p) => (p.data ? spec.value(p.data) : null),
    valueFormatter: (p) => format(p.value),
    ...(editable
      ? {
          valueSetter: (p: ValueSetterParams<T>) => {
            if (p.data)
              void editMeterCells(
                kind,
                [{ id: p.data.id, field: spec.field, value: p.newValue as Scalar }],
                'typed',
              );
            return false;
          },
        }
      : {}),
    ...extra,
  };
}

const listEditor = (values: readonly string[]) => ({
  cellEditor: 'agSelectCellEditor',
  cellEditorParams: { values: [...values] },
});

const tickBox = {
  colId: 'select',
  headerName: '',
  checkboxSelection: true,
  headerCheckboxSelection: true,
  width: 44,
};

export function meterColumns(assetName: (localId: string) => string): ColDef<MeterView>[] {
  const meter = (spec: CellSpec<MeterView>, extra: Partial<ColDef<MeterView>> = {}) =>
    column<MeterView>('meters', spec, extra);
  // A code from a list, shown by its label (a label or a code is taken back), never empty.
  const codes = <K extends 'utility' | 'space'>(
    field: K,
    header: string,
    list: readonly MeterView[K][],
    labels: Record<MeterView[K], string>,
    width: number,
  ) =>
    meter(
      {
        field,
        header,
        value: (m) => m[field],
        format: (v) => labels[v as MeterView[K]] ?? plainText(v),
        editable: true,
        clearable: false,
      },
      { ...listEditor(list), width },
    );
  return [
    tickBox,
    meter({ field: 'id', header: 'Meter ID', value: (m) => m.id }, { width: 130 }),
    meter({ field: 'asset', header: 'Asset', value: (m) => assetName(m.assetId) }, { width: 180 }),
    meter({ field: 'name', header: 'Name', value: (m) => m.name, editable: true }, { width: 160 }),
    codes('utility', 'Utility', meterUtilities, utilityLabels, 150),
    codes('space', 'Space', meterSpaces, spaceLabels, 210),
    meter(
      { field: 'areaServed', header: 'Floor area served', value: (m) => m.areaServed, editable: true },
      { type: 'rightAligned', width: 130 },
    ),
    meter(
      { field: 'unit', header: 'Unit', value: (m) => m.unit, editable: true, clearable: false },
      { width: 90 },
    ),
    meter(
      {
        field: 'energyContentKwh',
        header: 'Energy content (kWh per unit)',
        value: (m) => m.energyContent?.kwh ?? null,
        editable: true,
      },
      { type: 'rightAligned', width: 150 },
    ),
    meter(
      { field: 'readings', header: 'Readings', value: (m) => m.readings },
      { type: 'rightAligned', width: 100 },
    ),
  ];
}

export function readingColumns(problems: () => Map<string, Issue[]>): ColDef<ReadingView>[] {
  const issuesOf = (p: { data?: ReadingView | undefined }, field: ReadingField): Issue[] =>
    problems().get(`${p.data?.id}:${field}`) ?? [];
  // A field the reading rules check: their problems in the cell's colour and on hover.
  const ruled = (
    spec: CellSpec<ReadingView> & { field: ReadingField },
    extra: Partial<ColDef<ReadingView>>,
  ) =>
    column<ReadingView>(
      'readings',
      { ...spec, editable: true, clearable: false },
      {
        cellClassRules: {
          'cell-error': (p) => issuesOf(p, spec.field).some((i) => i.severity === 'error'),
          'cell-warning': (p) => issuesOf(p, spec.field).some((i) => i.severity === 'warning'),
        },
        tooltipValueGetter: (p) =>
          issuesOf(p, spec.field)
            .map((i) => i.message)
            .join('\n') || undefined,
        ...extra,
      },
    );
  return [
    tickBox,
    ruled({ field: 'meterId', header: 'Meter ID', value: (r) => r.meterId }, { width: 130 }),
    ruled({ field: 'start', header: 'Start', value: (r) => r.start }, { width: 120 }),
    ruled({ field: 'end', header: 'End (inclusive)', value: (r) => r.end }, { width: 130 }),
    ruled(
      { field: 'quantity', header: 'Quantity', value: (r) => r.quantity },
      { type: 'rightAligned', width: 120 },
    ),
    ruled({ field: 'unit', header: 'Unit', value: (r) => r.unit }, { width: 90 }),
    column<ReadingView>(
      'readings',
      { field: 'estimated', header: 'Estimated', value: (r) => (r.estimated ? 'yes' : 'no'), editable: true },
      { ...listEditor(['yes', 'no']), width: 100 },
    ),
    column<ReadingView>(
      'readings',
      { field: 'source', header: 'Source', value: (r) => sourceText(r.source) },
      { width: 200 },
    ),
  ];
}

function sourceText(source: ReadingView['source']): string {
  if (source.kind === 'file') return `${source.file}, row ${source.row}`;
  if (source.kind === 'portfolio_manager') return 'Portfolio Manager';
  return 'Typed';
}
