import { UserFacingError } from '../../shared/errors';
import { basename } from 'node:path';
import { z } from 'zod';
import type { ChangeSource } from '../../shared/history/change-source';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { WorkspaceStore } from '../workspace/workspace-store';
import type { ImportPlan } from './import-plan';
import { docHash } from './plan-row';

export type ImportErrorKind = 'rejected' | 'nothing' | 'stale' | 'no_undo' | 'undo_conflict';

export class ImportError extends UserFacingError {
  constructor(
    readonly kind: ImportErrorKind,
    message: string,
    readonly details: { localIds?: string[] } = {},
  ) {
    super(message);
    this.name = 'ImportError';
  }
}

export interface AppliedImport {
  importId: string;
  at: number;
  file: string;
  created: string[];
  updated: string[];
  /** Rejected assets left out (only with `partial`). */
  skipped: number;
}

/**
 * The undo of the last import, kept in the workspace file itself (meta table) so it survives a
 * restart and is written in the same transaction as the import: an import is never recorded without
 * its undo, nor the reverse.
 */
const UNDO_KEY = 'exchange.import.undo';

const undoSchema = z.object({
  importId: z.string(),
  at: z.number(),
  file: z.string(),
  undone: z.boolean(),
  /** Its record (electron/workspace/import-records.ts), marked undone with it. */
  record: z.number().int().optional(),
  entries: z.array(
    z.object({
      localId: z.string(),
      /** null: the import created the asset. */
      before: z.record(z.string(), z.unknown()).nullable(),
      afterHash: z.string(),
    }),
  ),
});
type UndoRecord = z.infer<typeof undoSchema>;

export interface ApplyOptions {
  /** Apply the new and changed assets even though others were rejected (the user chose to). */
  partial?: boolean;
  now?: () => number;
}

/**
 * Applies a previewed plan as one transaction: all of it or (on any failure) none. Refuses a plan
 * whose assets were edited since the preview, so the preview the analyst approved is what happens.
 */
export function applyImport(store: WorkspaceStore, plan: ImportPlan, opts: ApplyOptions = {}): AppliedImport {
  const rejected = plan.counts.rejected;
  const fileErrors = plan.issues.filter((i) => i.severity === 'error').length;
  if (!opts.partial && (rejected > 0 || fileErrors > 0)) {
    const parts = [
      rejected > 0 ? `${rejected} asset${rejected === 1 ? ' was' : 's were'} rejected` : '',
      fileErrors > 0 ? `${fileErrors} column problem${fileErrors === 1 ? '' : 's'}` : '',
    ].filter(Boolean);
    throw new ImportError(
      'rejected',
      `Nothing was imported: ${parts.join(' and ')}. Fix the file, or choose to import the valid rows only.`,
    );
  }
  const work = plan.rows.filter((r) => r.status === 'new' || r.status === 'changed');
  if (work.length === 0)
    throw new ImportError('nothing', 'Nothing to import: the file matches the workspace.');
  const at = (opts.now ?? Date.now)();
  // One undo step in the workspace's history (Ctrl+Z), beside the import's own "Undo import".
  const label = `import of ${work.length} asset${work.length === 1 ? '' : 's'} from ${plan.source.name ?? basename(plan.source.file)}`;
  const file = (plan.source.name ?? basename(plan.source.file)).slice(0, 255);
  return store.step(label, () =>
    store.transaction(() => {
      // Recorded once, in this step (the file is deleted once read): its changes carry the record's id.
      const record = store.imports.begin(plan.source.format === 'csv' ? 'csv' : 'workbook', file);
      const { source } = record;
      const stale: string[] = [];
      for (const row of work) {
        if (row.status !== 'changed' || row.localId === null) continue;
        const record = store.asset(row.localId);
        if (!record || docHash(record.current) !== row.beforeHash) stale.push(row.localId);
      }
      if (stale.length > 0) {
        throw new ImportError(
          'stale',
          `${stale.length} asset${stale.length === 1 ? '' : 's'} changed since the preview; preview the import again.`,
          { localIds: stale },
        );
      }
      const created: string[] = [];
      const updated: string[] = [];
      const entries: UndoRecord['entries'] = [];
      // The cell history keeps the file once (the source) and each cell's sheet and cell beside it.
      for (const row of work) {
        if (!row.doc) continue;
        const places = new Map(row.changes.flatMap((c) => (c.cell ? [[c.path, c.cell] as const] : [])));
        if (row.status === 'new') {
          const record = store.cells.placing(
            () => places,
            () => store.createAsset(row.doc!, source),
          );
          created.push(record.localId);
          entries.push({ localId: record.localId, before: null, afterHash: docHash(record.current) });
        } else if (row.localId !== null) {
          const localId = row.localId;
          const before = store.asset(localId)?.current ?? null;
          store.cells.placing(
            (id) => (id === localId ? places : undefined),
            () => store.replaceDoc(localId, row.doc!, 'import', source),
          );
          updated.push(localId);
          entries.push({ localId, before, afterHash: docHash(row.doc) });
        }
      }
      store.imports.finish(record.id, source, {
        kind: source.kind,
        sheets: plan.source.sheets,
        created: created.length,
        updated: updated.length,
        cells: work.reduce((n, row) => n + (row.doc ? row.changes.length : 0), 0),
        skipped: rejected,
        skippedWhat: rejected === 1 ? 'asset rejected' : 'assets rejected',
        label,
      });
      const undo: UndoRecord = {
        importId: plan.id,
        at,
        file: plan.source.file,
        undone: false,
        record: record.id,
        entries,
      };
      store.setMeta(UNDO_KEY, JSON.stringify(undo));
      return { importId: plan.id, at, file: plan.source.file, created, updated, skipped: rejected };
    }),
  );
}

function readUndo(store: WorkspaceStore): UndoRecord | undefined {
  const text = store.getMeta(UNDO_KEY);
  if (!text) return undefined;
  const parsed = undoSchema.safeParse(JSON.parse(text));
  return parsed.success && !parsed.data.undone ? parsed.data : undefined;
}

/** What the UI offers to undo: the last import, unless it was undone already. */
export function lastImport(
  store: WorkspaceStore,
): { importId: string; at: number; file: string; created: number; updated: number } | undefined {
  const undo = readUndo(store);
  if (!undo) return undefined;
  return {
    importId: undo.importId,
    at: undo.at,
    file: undo.file,
    created: undo.entries.filter((e) => e.before === null).length,
    updated: undo.entries.filter((e) => e.before !== null).length,
  };
}

/**
 * Undoes the last import as one transaction: assets it created are removed, assets it changed get
 * their previous copy back. Refused (nothing touched) when an affected asset was edited or sent since,
 * because undoing would then silently throw that later work away.
 */
export function undoImport(store: WorkspaceStore, importId?: string): { removed: number; restored: number } {
  const undo = readUndo(store);
  if (!undo || (importId !== undefined && undo.importId !== importId)) {
    throw new ImportError(
      'no_undo',
      'There is no import to undo (only the most recent import can be undone).',
    );
  }
  return store.transaction(() => {
    const conflicts: string[] = [];
    for (const e of undo.entries) {
      const record = store.asset(e.localId);
      const moved = !record || docHash(record.current) !== e.afterHash;
      const sent = e.before === null && (record?.serviceAssetId !== null || record?.inFlight !== null);
      if (moved || sent) conflicts.push(e.localId);
    }
    if (conflicts.length > 0) {
      throw new ImportError(
        'undo_conflict',
        `The import cannot be undone: ${conflicts.length} of its assets ${conflicts.length === 1 ? 'was' : 'were'} edited or sent since. Undo those edits first, or change the assets by hand.`,
        { localIds: conflicts },
      );
    }
    let removed = 0;
    let restored = 0;
    const undone: ChangeSource = { kind: 'undo' };
    for (const e of undo.entries) {
      if (e.before === null) {
        store.deleteAsset(e.localId, undone);
        removed++;
      } else {
        store.replaceDoc(e.localId, e.before as AssetDoc, 'undo-import', undone);
        restored++;
      }
    }
    store.setMeta(UNDO_KEY, JSON.stringify({ ...undo, undone: true }));
    if (undo.record !== undefined) store.imports.markUndone(undo.record);
    return { removed, restored };
  });
}
