/**
 * The review of what a sync would send ("what will be sent", the header's Sync, the delete
 * confirmation), made in the sync's worker from the click's one plan (pending-plan.ts): main only
 * sends the rules' contexts and receives the review.
 */
import type { ValidationContext } from '../../shared/domain';
import { changedPaths, entryKey, flattenDoc, type AssetDoc } from '../../shared/sync/asset-doc';
import { isRemovedFieldPath, specIdName, type AssetIdName } from '../../shared/sync/asset-id-name';
import type { PendingReview } from '../../shared/sync/types';
import type { AssetRecord } from '../workspace/asset-record';
import type { LedgerPort } from '../workspace/ledger-port';
import { heldBackOf } from './batch-planner';
import { reviewOfPlan } from './pending-plan';
import type { PendingWork } from './pending-work';

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

const nameOf = (record: AssetRecord): string => {
  const name = (record.current ?? record.base)?.['name'];
  return typeof name === 'string' && name !== '' ? name : '(unnamed asset)';
};

/**
 * What the next push would send, grouped for the "what will be sent" review. For a service reading
 * the id as `idName`, the changes it no longer takes are listed apart, as kept here.
 */
export function toReview(work: PendingWork, idName: AssetIdName = specIdName): PendingReview {
  const sent = (path: string) => idName === specIdName || !isRemovedFieldPath(path);
  const keptHere: NonNullable<PendingReview['keptHere']> = [];
  const updates = work.updates.map(({ record }) => {
    const paths = changedPaths(record.base, record.current);
    const kept = paths.filter((path) => !sent(path));
    if (kept.length > 0) keptHere.push({ localId: record.localId, name: nameOf(record), changedPaths: kept });
    return {
      localId: record.localId,
      name: nameOf(record),
      changedPaths: paths.filter(sent),
      changes: fieldChanges(record.base, record.current).filter((change) => sent(change.path)),
    };
  });
  for (const record of work.localOnly)
    keptHere.push({
      localId: record.localId,
      name: nameOf(record),
      changedPaths: changedPaths(record.base, record.current),
    });
  return {
    creates: work.creates.map((record) => ({ localId: record.localId, name: nameOf(record) })),
    updates,
    deletes: work.deletes.map((record) => ({
      localId: record.localId,
      name: nameOf(record),
      serviceAssetId: record.serviceAssetId,
    })),
    conflicted: work.conflicted.map((record) => ({ localId: record.localId, name: nameOf(record) })),
    keptHere,
  };
}

/** Each changed cell of an asset, old -> new, as text (an entry added or removed shows as one line). */
function fieldChanges(
  base: AssetDoc | null,
  current: AssetDoc | null,
): Array<{ path: string; before: string; after: string }> {
  const before = flattenDoc(base);
  const after = flattenDoc(current);
  const out: Array<{ path: string; before: string; after: string }> = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const from = before.get(path) ?? null;
    const to = after.get(path) ?? null;
    if (from !== to)
      out.push({
        path,
        before: from === null ? '(empty)' : String(from),
        after: to === null ? '(empty)' : String(to),
      });
  }
  return out;
}
