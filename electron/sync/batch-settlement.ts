import type { Asset } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { ServerVerdict } from '../../shared/sync/types';
import type { AssetRecord } from '../workspace/asset-record';
import type { LedgerPort } from '../workspace/ledger-port';

/** An asset that was sent, as its answer is traced back to it (see batch-answer.ts `SentAsset`). */
type SentRecord = Pick<AssetRecord, 'localId' | 'partnersId' | 'serviceAssetId'>;
import { RemoteMerge } from './remote-merge';

/**
 * The operations a batch answer may apply (see batch-answer.ts), inside the outbox's settlement
 * transaction (`LedgerPort.settleBatch`): the ledger's side of the seam, each one call through it.
 */
export class BatchSettlement {
  /** The assets acknowledged whose copy is now, in substance, the one sent (see `acknowledge`). */
  readonly sameAsSent = new Set<string>();
  private readonly merge: RemoteMerge;

  /**
   * `sent`: the copy each asset carried, as the push kept it (see `LedgerPort.beginBatch`); `docs`:
   * the same copies as parsed when the batch was filled.
   */
  constructor(
    private readonly store: LedgerPort,
    private readonly sent?: ReadonlyMap<string, string>,
    private readonly docs?: ReadonlyMap<string, AssetDoc>,
  ) {
    this.merge = new RemoteMerge(store);
  }

  /**
   * `created`, `always_created`, `updated`, `always_updated`: the service now holds this. `carried`:
   * the asset as the answer's JSON held it, when the answer may be partial (see answer-merge.ts).
   * `anyway`: sent with its errors (the analyst's "send anyway"), the change's source.
   */
  acknowledged(record: SentRecord, asset: Asset, carried?: Record<string, unknown>, anyway = false): void {
    const { localId, serviceAssetId, partnersId } = record;
    // The ids as the batch was filled: with the copy sent, the row's image before is known unread.
    const ids = { serviceAssetId, partnersId, doc: this.docs?.get(localId) };
    if (this.merge.acknowledge(localId, asset, this.sent?.get(localId), carried, anyway, ids))
      this.sameAsSent.add(localId);
  }

  deleted(localId: string): void {
    this.merge.removeGone(localId);
  }

  invalid(localId: string, verdict: ServerVerdict): void {
    this.store.markInvalid(localId, verdict);
  }

  notFound(localId: string): void {
    this.store.markNotFound(localId);
  }
}
