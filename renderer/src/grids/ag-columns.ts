/**
 * Column specs (columns.ts) as AG Grid column definitions: the value comes from the row's document
 * (or a pending typed value), an edit goes to the bridge through `editCells`, and the cell's classes
 * and tooltip come from offline validation, the service's `_validations`, staged changes and
 * conflicts at the cell's document path.
 */
import type {
  CellClassParams,
  ColDef,
  ColGroupDef,
  EditableCallbackParams,
  ValueFormatterParams,
  ValueGetterParams,
  ValueSetterParams,
} from 'ag-grid-community';
import { changedPaths, isCellField, type Scalar } from '../../../shared/sync/asset-doc';
import type { AssetView } from '../../../shared/sync/types';
import { editCells } from '../editing/commands';
import { suppressGridShortcuts } from '../editing/keyboard';
import { pending } from '../editing/pending';
import type { ColumnGroupSpec, FieldColumn } from '../grid-model/columns';
import type { DataColumnContext } from '../grid-model/data-column';
import { isRowEditable, pathOf, rawValueOf, type GridRow } from '../grid-model/rows';
import { ListCellEditor } from './list-editor';
import { isOutlierField, outlierCells } from '../outliers/outlier-cells';
import { rangeClassRules } from '../editing/cell-range';
import { dateProblem, formatValue, parseInput } from '../grid-model/values';
import { notify } from '../store/ui';
import { tooltipText } from '../validation/issues';
import { fieldLabel } from '../validation/labels';
import { isMarked } from '../history/cell-marks';
import { useValidation, validation } from '../validation/validation-store';
import { derivedState, derivedTooltip, hasDerivedCells, type DerivedState } from '../meters/derived-cells';

export type GridColDef = ColDef<GridRow>;

const changedSets = new WeakMap<AssetView, Set<string>>();
const conflictMaps = new WeakMap<AssetView, Map<string, AssetView['conflicts'][number]>>();

export function changedSet(view: AssetView): Set<string> {
  let set = changedSets.get(view);
  if (!set) {
    // A new asset's every value is unsent; main does not list them (electron/workspace/asset-views.ts).
    set = new Set(view.status === 'new' ? changedPaths(null, view.doc) : view.changedPaths);
    changedSets.set(view, set);
  }
  return set;
}

function conflictAt(view: AssetView, path: string) {
  let map = conflictMaps.get(view);
  if (!map) {
    map = new Map(view.conflicts.map((c) => [c.path, c]));
    conflictMaps.set(view, map);
  }
  return map.get(path);
}

/** The value shown in a cell: a pending typed value first, else the document's. */
export function cellValue(row: GridRow, field: string): unknown {
  const typed = pending.get(row.localId, pathOf(row, field));
  return typed ? typed.value : rawValueOf(row, field);
}

interface CellState {
  error: boolean;
  warning: boolean;
  service: boolean;
  changed: boolean;
  saving: boolean;
  conflict: boolean;
}

const cleanState: CellState = {
  error: false,
  warning: false,
  service: false,
  changed: false,
  saving: false,
  conflict: false,
};

/**
 * Cell states by row object and field, for the row's view they were found for: a row takes its
 * asset's next view (a new row object after an edit, the same one changed in place after a push's
 * many rows, `grid-rows.ts`); typed values (pending) and validation results change apart from
 * rows, so their versions reset the cache.
 */
let stateCache = new WeakMap<GridRow, { view: AssetView; byField: Map<string, CellState> }>();
let cachedPending = -1;
let cachedValidation = -1;

function stateOf(p: CellClassParams<GridRow>, field: string): CellState {
  const row = p.data;
  if (!row) return cleanState;
  const validationVersion = useValidation.getState().version;
  if (cachedPending !== pending.version || cachedValidation !== validationVersion) {
    cachedPending = pending.version;
    cachedValidation = validationVersion;
    stateCache = new WeakMap();
  }
  let cached = stateCache.get(row);
  if (cached?.view !== row.view) {
    cached = { view: row.view, byField: new Map() };
    stateCache.set(row, cached);
  }
  const byField = cached.byField;
  let state = byField.get(field);
  if (state) return state;
  const view = row.view;
  const path = pathOf(row, field);
  const issues = validation.cell(view, path);
  const saving = pending.size > 0 && pending.has(row.localId, path);
  const changed =
    view.status === 'new' ? unsent(row, field) : view.changedPaths.length > 0 && changedSet(view).has(path);
  const conflict = view.conflicts.length > 0 && conflictAt(view, path) !== undefined;
  state =
    !issues && !saving && !changed && !conflict
      ? cleanState
      : {
          error: (issues?.errors.length ?? 0) > 0,
          warning: issues !== undefined && issues.errors.length === 0 && issues.warnings.length > 0,
          service: (issues?.service.length ?? 0) > 0,
          changed,
          saving,
          conflict,
        };
  byField.set(field, state);
  return state;
}

/**
 * A new asset's cell is unsent when it holds a value: what `changedSet` lists for it, asked of the
 * cell alone (a fling draws dozens of new assets a frame; listing each whole document cost more
 * than all other class rules together).
 */
function unsent(row: GridRow, field: string): boolean {
  const value = rawValueOf(row, field);
  return value !== undefined && value !== null && isCellField(row.kind === 'assets' ? 'doc' : 'entry', field);
}

export interface ColumnOptions {
  /** Display text for a stored value (e.g. a scheme id as its name). */
  format?: (value: unknown) => string;
  /** Pasted or typed text as a value (e.g. a scheme name as its id). */
  parse?: (text: unknown) => Scalar;
  /** Dropdown values per row (levels of the row's scheme). */
  valuesFor?: (row: GridRow) => readonly unknown[] | undefined;
  editableFor?: (row: GridRow) => boolean;
}

export function toColDef(spec: FieldColumn, opts: ColumnOptions = {}): GridColDef {
  const field = spec.field;
  const format = opts.format ?? formatValue;
  const parse = opts.parse ?? ((text: unknown) => parseInput(text, spec.type));
  const tooltip = (row: GridRow): string | undefined => {
    const path = pathOf(row, field);
    const lines: string[] = [];
    const text = tooltipText(validation.cell(row.view, path));
    if (text) lines.push(text);
    const conflict = conflictAt(row.view, path);
    if (conflict)
      lines.push(`Conflict — mine: ${formatValue(conflict.mine)}, theirs: ${formatValue(conflict.theirs)}`);
    const derived =
      row.kind === 'annual' ? derivedTooltip(row.localId, path, cellValue(row, field)) : undefined;
    if (derived) lines.push(derived);
    if (row.view.keptHere?.includes(path)) lines.push('Kept here; this service no longer takes it');
    else if (changedSet(row.view).has(path)) lines.push('Changed here, not synced yet');
    // The asset's name is often longer than its column: shown whole on hover.
    if (field === 'name' && typeof row.view.doc['name'] === 'string') lines.unshift(row.view.doc['name']);
    return lines.length > 0 ? lines.join('\n') : undefined;
  };
  const context: DataColumnContext = { spec, parse: (text) => parse(text), format, tooltip };
  const isNumber = spec.type === 'number' || spec.type === 'integer';
  const selectValues = (row: GridRow | undefined): readonly unknown[] | undefined => {
    const dynamic = row && opts.valuesFor?.(row);
    if (dynamic) return dynamic;
    if (spec.type === 'boolean') return [null, true, false];
    if (spec.codes) return [null, ...spec.codes];
    return undefined;
  };
  return {
    colId: spec.id,
    headerName: spec.headerName,
    headerTooltip: spec.headerTooltip,
    width: spec.width,
    pinned: spec.pinned ?? null,
    lockPinned: spec.pinned !== undefined,
    context,
    filter: isNumber ? 'agNumberColumnFilter' : 'agTextColumnFilter',
    cellDataType: false,
    type: isNumber ? 'rightAligned' : undefined,
    valueGetter: (p: ValueGetterParams<GridRow>) => {
      if (!p.data) return null;
      const value = cellValue(p.data, field);
      // Sorting and the number filter compare numbers; text that is not a number sorts as text.
      return value === undefined ? null : value;
    },
    valueFormatter: (p: ValueFormatterParams<GridRow>) => format(p.value),
    filterValueGetter: (p: ValueGetterParams<GridRow>) => {
      if (!p.data) return null;
      const value = cellValue(p.data, field);
      if (isNumber) return typeof value === 'number' ? value : null;
      return format(value);
    },
    editable: (p: EditableCallbackParams<GridRow>) =>
      spec.editable && isRowEditable(p.data) && (opts.editableFor?.(p.data!) ?? true),
    cellEditorSelector: (p) => {
      const values = selectValues(p.data);
      // Lists get type-ahead by code or label; yes/no also takes the words Excel takes
      // (true/false/yes/no/1/0, any case), so typing FALSE + Enter sets it.
      if (values && spec.type === 'boolean')
        return { component: ListCellEditor, params: { values, format, parse }, popup: true };
      if (values) return { component: ListCellEditor, params: { values, format }, popup: true };
      return { component: 'agTextCellEditor' };
    },
    valueSetter: (p: ValueSetterParams<GridRow>) => {
      if (!p.data) return false;
      // A typed date that could be read two ways is refused with the reason, nothing guessed.
      const problem = spec.type === 'date' ? dateProblem(p.newValue) : null;
      if (problem) {
        notify('warning', `${fieldLabel(field)}: ${problem}. Nothing was changed.`);
        return false;
      }
      const value = parse(p.newValue);
      void editCells([{ localId: p.data.localId, path: pathOf(p.data, field), value }], 'typed');
      return true;
    },
    suppressKeyboardEvent: suppressGridShortcuts,
    // One lookup per cell draw, shared by every rule (scrolling draws thousands of cells a second).
    cellClassRules: {
      'cell-error': (p) => stateOf(p, field).error,
      'cell-warning': (p) => stateOf(p, field).warning,
      'cell-service-error': (p) => stateOf(p, field).service,
      'cell-changed': (p) => stateOf(p, field).changed,
      'cell-saving': (p) => stateOf(p, field).saving,
      'cell-conflict': (p) => stateOf(p, field).conflict,
      'cell-readonly': (p) => !spec.editable || !isRowEditable(p.data),
      ...rangeClassRules,
      // Written by meters (issue 32), or the analyst's override of such a value.
      'cell-derived': (p) => derivedOf(p.data, field) === 'derived',
      'cell-override': (p) => derivedOf(p.data, field) === 'override',
      // A value not from the analyst's hand (the service's, an import's...): its history says whose.
      'cell-sourced': (p) =>
        p.data !== undefined && isMarked(p.data.localId, pathOf(p.data, field), cellValue(p.data, field)),
      // The consumption behind an intensity or like-for-like outlier (see the Outliers tab); only
      // consumption columns have the rule (a rule costs every cell drawn a call and a class toggle).
      ...(isOutlierField(field)
        ? {
            'cell-outlier': (p: CellClassParams<GridRow>) =>
              p.data?.kind === 'annual' && outlierCells(p.data.view).has(pathOf(p.data, field)),
          }
        : {}),
    },
  };
}

/** An annual cell's meters state; an asset meters never wrote is passed over without its path. */
function derivedOf(row: GridRow | undefined, field: string): DerivedState {
  if (row?.kind !== 'annual' || !hasDerivedCells(row.localId)) return null;
  return derivedState(row.localId, pathOf(row, field), cellValue(row, field));
}

/**
 * Topic groups that collapse to their first column (the chevron in the group's header), open at
 * first; which are closed is remembered per workspace (column-prefs.ts).
 */
export function toColGroupDefs(groups: readonly ColumnGroupSpec[]): ColGroupDef<GridRow>[] {
  return groups.map((group) => ({
    groupId: group.id,
    headerName: group.headerName,
    headerClass: `group-${group.id}`,
    openByDefault: true,
    children: group.children.map((spec, i) =>
      i === 0 ? toColDef(spec) : { ...toColDef(spec), columnGroupShow: 'open' as const },
    ),
  }));
}
