import type { BatchResponse } from '../../shared/domain';
import type { PushSummary } from '../../shared/sync/types';
import { verdictOf } from '../../shared/sync/server-verdict';
import type { AssetRecord } from '../workspace/asset-record';
import type { BatchSettlement } from './batch-settlement';

/** What settling needs of an asset that was sent: how its answer is traced back to it. */
export type SentAsset = Pick<AssetRecord, 'localId' | 'partnersId' | 'serviceAssetId'>;

/** A batch as settling needs it (a planned batch, or its lean copy kept while it is out). */
export interface SentBatch {
  creates: ReadonlyArray<{ record: SentAsset }>;
  updates: ReadonlyArray<{ record: SentAsset }>;
  deletes: ReadonlyArray<{ record: SentAsset }>;
}

/**
 * Applies the service's answer to a batch, inside its settlement: each asset in the answer is traced
 * back to the record it came from (new assets by partners_id, others by service id) and counted.
 * `json`: the answer as its JSON held it, which says what each answered asset carried (an answer
 * may be trimmed: see electron/sync/answer-merge.ts). Returns the creates to reconcile: those
 * left untraced when the answer created assets without saying whose they are.
 */
export function applyBatchAnswer(
  tx: BatchSettlement,
  batch: SentBatch,
  answer: BatchResponse,
  summary: PushSummary,
  json?: unknown,
): string[] {
  const carried = (list: 'created' | 'always_created' | 'updated' | 'always_updated', i: number) => {
    const items = isObject(json) ? json[list] : undefined;
    const item: unknown = Array.isArray(items) ? items[i] : undefined;
    return isObject(item) ? item : undefined;
  };
  const byPartner = indexBy(
    batch.creates.map((i) => i.record),
    (record) => record.partnersId,
  );
  const byService = indexBy(
    [...batch.updates, ...batch.deletes].map((i) => i.record),
    (record) => record.serviceAssetId,
  );
  /** New assets the answer created that cannot be traced back (trimmed of their partners_id). */
  let untraced = 0;
  const settled = new Set<string>();
  for (const list of ['created', 'always_created'] as const) {
    answer[list].forEach((asset, i) => {
      const record = findRecord(asset, byPartner, new Map());
      if (record) {
        tx.acknowledged(record, asset, carried(list, i), list === 'always_created');
        settled.add(record.localId);
      } else untraced++;
      summary.created++;
    });
  }
  for (const list of ['updated', 'always_updated'] as const) {
    answer[list].forEach((asset, i) => {
      const record = findRecord(asset, new Map(), byService);
      if (record) tx.acknowledged(record, asset, carried(list, i), list === 'always_updated');
      summary.updated++;
    });
  }
  for (const asset of answer.deleted) {
    const record = findRecord(asset, new Map(), byService);
    if (record) tx.deleted(record.localId);
    summary.deleted++;
  }
  for (const asset of answer.invalid) {
    const record = findRecord(asset, byPartner, byService);
    if (record) {
      tx.invalid(record.localId, verdictOf(asset));
      settled.add(record.localId);
    }
    summary.invalid++;
  }
  const deleting = new Set(batch.deletes.map((i) => i.record.localId));
  for (const asset of answer.not_found) {
    const record = findRecord(asset, new Map(), byService);
    if (!record) continue;
    // A delete of an asset the service no longer has has done its job.
    if (deleting.has(record.localId)) tx.deleted(record.localId);
    else tx.notFound(record.localId);
    summary.notFound++;
  }
  // Created, but which of ours is which cannot be told: as with a lost answer, the next pull finds
  // them by partners_id (never sent twice). The creates left unsettled, for that reconcile.
  return untraced === 0
    ? []
    : batch.creates.map((i) => i.record.localId).filter((localId) => !settled.has(localId));
}

export function indexBy<K, R extends SentAsset>(
  records: readonly R[],
  key: (record: R) => K | null,
): Map<K, R> {
  const map = new Map<K, R>();
  for (const record of records) {
    const value = key(record);
    if (value !== null) map.set(value, record);
  }
  return map;
}

/**
 * The record an answered asset came from: by service id, else by partners_id (a create's answer is
 * the first place its service id appears).
 */
export function findRecord<R extends SentAsset>(
  asset: { service_asset_id?: unknown; partners_id?: unknown },
  byPartner: Map<number | null, R>,
  byService: Map<number | null, R>,
): R | undefined {
  if (typeof asset.service_asset_id === 'number') {
    const record = byService.get(asset.service_asset_id);
    if (record) return record;
  }
  if (typeof asset.partners_id === 'number') return byPartner.get(asset.partners_id);
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
