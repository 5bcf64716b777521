import type { Asset } from '../../shared/domain';
import type { ServerVerdict } from '../../shared/sync/types';
import type { WorkspaceStore } from './workspace-store';

/** The operations a batch answer may apply, inside the settlement's transaction. */
export class BatchSettlement {
  /** `sent`: the copy each asset carried, as the push kept it (see `WorkspaceStore.settleBatch`). */
  constructor(
    private readonly store: WorkspaceStore,
    private readonly sent?: ReadonlyMap<string, string>,
  ) {}

  /**
   * `created`, `always_created`, `updated`, `always_updated`: the service now holds this. `carried`:
   * the asset as the answer's JSON held it, when the answer may be partial (see answer-merge.ts).
   * `anyway`: sent with its errors (the analyst's "send anyway"), the change's source.
   */
  acknowledged(localId: string, asset: Asset, carried?: Record<string, unknown>, anyway = false): void {
    this.store.acknowledge(localId, asset, this.sent?.get(localId), carried, anyway);
  }

  deleted(localId: string): void {
    this.store.removeGone(localId);
  }

  invalid(localId: string, verdict: ServerVerdict): void {
    this.store.run(
      'UPDATE assets SET server_validations = ? WHERE local_id = ?',
      JSON.stringify(verdict),
      localId,
    );
  }

  notFound(localId: string): void {
    this.store.run('UPDATE assets SET not_found = 1 WHERE local_id = ?', localId);
  }
}
