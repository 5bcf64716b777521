/**
 * The arguments of the history's bridge methods (`workspace.exportAuditLog`, `workspace.importRecord`
 * in shared/bridge/contract.ts), parsed by the hosts before a handler sees them.
 */
import { z } from 'zod';
import { docPath, localId } from '../bridge/contract-kit';
import { importId } from './change-source';

export const historyArgs = {
  exportAuditLog: z
    .object({
      format: z.enum(['xlsx', 'csv']),
      from: z.number().int().min(0).optional(),
      to: z.number().int().min(0).optional(),
      localIds: z.array(localId).min(1).max(100_000).optional(),
    })
    .strict(),
  /** An import's record; with a cell (a history entry's), that cell is found among its changes. */
  importRecord: z.object({ importId, localId: localId.optional(), path: docPath.optional() }).strict(),
};
