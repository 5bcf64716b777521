/**
 * What a data column carries in its `context`: its spec and how pasted text becomes a value and a
 * value becomes copied text. Copy, paste, fill and clear find the columns they may write through it.
 */
import type { Column } from 'ag-grid-community';
import type { Scalar } from '../../../shared/sync/asset-doc';
import type { FieldColumn } from './columns';
import type { GridRow } from './rows';

export interface DataColumnContext {
  spec: FieldColumn;
  parse(text: string): Scalar;
  format(value: unknown): string;
  /** What a cell says on hover (grids/cell-tooltips.ts shows it). */
  tooltip?: (row: GridRow) => string | undefined;
}

export function dataColumnOf(column: Column | null | undefined): DataColumnContext | undefined {
  const ctx = column?.getColDef().context as Partial<DataColumnContext> | undefined;
  return ctx && ctx.spec && typeof ctx.parse === 'function' ? (ctx as DataColumnContext) : undefined;
}
