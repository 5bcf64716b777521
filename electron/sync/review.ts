/**
 * The review of what a sync would send ("what will be sent", the header's Sync, the delete
 * confirmation), made in the sync's worker from the click's one plan (pending-plan.ts): main only
 * sends the rules' contexts and receives the review.
 */
import type { ValidationContext } from '../../shared/domain';
import { entryKey, type AssetDoc } from '../../shared/sync/asset-doc';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { PendingReview } from '../../shared/sync/types';
import { toReview } from '../workspace/asset-views';
import type { LedgerPort } from '../workspace/ledger-port';
import { heldBackOf } from './batch-planner';
import { reviewOfPlan } from './pending-plan';

/**
 * What a sync to a service reading the id as `idName` would send, with the assets a strict push
 * would hold back and why. `key`: what the contexts are (the review is kept with the plan by it).
 */
export function reviewPending(
  store: LedgerPort,
  idName: AssetIdName,
  contexts: { createCtx: ValidationContext; updateCtx: ValidationContext; key: string },
): PendingReview {
  return reviewOfPlan(store, idName, contexts.key, (work) => {
    // Pending for this connection's service: what it no longer takes is kept here (see asset-id-name.ts).
    const review = toReview(work, idName);
    const names = new Map([...review.creates, ...review.updates].map((r) => [r.localId, r.name]));
    const docs = new Map<string, AssetDoc | null>([
      ...work.creates.map((record) => [record.localId, record.current] as const),
      ...work.updates.map(({ record }) => [record.localId, record.current] as const),
    ]);
    review.heldBack = heldBackOf(work, store, contexts.createCtx, contexts.updateCtx).map(
      ({ localId, errors }) => ({
        localId,
        name: names.get(localId) ?? localId,
        // The grid's paths (`annual_data/2024/en_cov_wf`), which the review words with the columns' labels.
        errors: Object.entries(errors).map(([path, messages]) => ({
          path: docPathOf(docs.get(localId) ?? null, path),
          messages,
        })),
      }),
    );
    return review;
  });
}

/**
 * A rule's API path (`annual_data[5].en_cov_wf`, `certifications[0].year`, `asset_size`) as the
 * document path the grid and the review use (`annual_data/2024/en_cov_wf`, `certifications/new:k/year`,
 * `size`), by the asset's own records. A path it cannot place stays as it was.
 */
export function docPathOf(doc: AssetDoc | null, apiPath: string): string {
  if (apiPath === 'asset_size') return 'size';
  const m = /^(annual_data|certifications|energy_ratings)\[(\d+)\]\.(\w+)$/.exec(apiPath);
  if (!m) return apiPath;
  const collection = m[1] as 'annual_data' | 'certifications' | 'energy_ratings';
  const list = doc?.[collection];
  const entry = Array.isArray(list) ? (list[Number(m[2])] as Record<string, unknown> | undefined) : undefined;
  if (!entry || typeof entry !== 'object') return apiPath;
  return `${collection}/${entryKey(collection, entry)}/${m[3]}`;
}
