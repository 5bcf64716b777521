/**
 * The arguments of the history's bridge methods (`workspace.handCells`, `workspace.exportAuditLog`, `workspace.importRecord`,
 * `workspace.meterCellHistory` in shared/bridge/contract.ts), parsed by the hosts before a handler sees them.
 */
import { z } from 'zod';
import { docPath, localId } from '../bridge/contract-kit';
import { meterFields, readingFields } from '../meters/bridge-args';
import { importId } from './change-source';
import { handCellsBatch } from './hand-cells';

export const historyArgs = {
  /** The rows a grid draws: bounded, a whole workspace's hand cells were millions of rows. */
  handCells: z.object({ ids: z.array(localId).max(handCellsBatch) }).strict(),
  exportAuditLog: z
    .object({
      format: z.enum(['xlsx', 'csv']),
      from: z.number().int().min(0).optional(),
      to: z.number().int().min(0).optional(),
      localIds: z.array(localId).min(1).max(100_000).optional(),
    })
    .strict(),
  /** A meter's or a reading's cell, by its id and the field `meters.edit` writes (the Meters tab's column). */
  meterCellHistory: z.discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('meter'), id: z.string().min(1).max(128), field: z.enum(meterFields) })
      .strict(),
    z
      .object({ kind: z.literal('reading'), id: z.string().min(1).max(128), field: z.enum(readingFields) })
      .strict(),
  ]),
  /**
   * An import's record; with a cell (a history entry's), that cell is found among its changes;
   * `offset`: the first of its changed cells to show (the panel's pages), else around the cell.
   */
  importRecord: z
    .object({
      importId,
      localId: localId.optional(),
      path: docPath.optional(),
      offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    })
    .strict(),
};

/** A meter's or a reading's cell, as `workspace.meterCellHistory` names it. */
export type MeterCell = z.infer<typeof historyArgs.meterCellHistory>;
