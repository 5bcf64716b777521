import {
  hasErrors,
  validateAsset,
  type AssetInput,
  type ValidationContext,
  type Validations,
} from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { PushMode, PushSummary } from '../../shared/sync/types';
import type { AssetRecord } from '../workspace/asset-record';
import type { PendingWork } from '../workspace/pending-work';
import type { WorkspaceStore } from '../workspace/workspace-store';

export interface PlannedItem {
  record: AssetRecord;
  payload: AssetInput | AssetDoc;
}

export interface PlannedBatch {
  creates: PlannedItem[];
  updates: PlannedItem[];
  deletes: PlannedItem[];
}

/**
 * Fills batches from the pending queues, validating each candidate only when its batch is packed:
 * the first batch leaves as soon as it is full, and the rest are validated while it is in flight.
 * Greedy packing in queue order gives the fewest requests the per-field limit allows.
 */
export class BatchPlanner {
  private readonly cursor = { creates: 0, updates: 0, deletes: 0 };

  constructor(
    private readonly work: PendingWork,
    private readonly opts: {
      mode: PushMode;
      size: number;
      store: WorkspaceStore;
      createCtx: ValidationContext;
      updateCtx: ValidationContext;
      blocked: PushSummary['blocked'];
    },
  ) {}

  /** Batches needed if nothing is blocked: the progress total. */
  estimate(): number {
    const { creates, updates, deletes } = this.work;
    return Math.ceil(Math.max(creates.length, updates.length, deletes.length) / this.opts.size);
  }

  next(): PlannedBatch | undefined {
    const batch: PlannedBatch = {
      creates: this.take(this.work.creates, 'creates', (record) => this.createItem(record)),
      updates: this.take(this.work.updates, 'updates', (entry) => this.updateItem(entry)),
      deletes: this.take(this.work.deletes, 'deletes', (record) => ({
        record,
        payload: { service_asset_id: record.serviceAssetId },
      })),
    };
    return batch.creates.length + batch.updates.length + batch.deletes.length > 0 ? batch : undefined;
  }

  private take<T>(
    queue: T[],
    key: keyof BatchPlanner['cursor'],
    toItem: (entry: T) => PlannedItem | undefined,
  ) {
    const items: PlannedItem[] = [];
    while (items.length < this.opts.size && this.cursor[key] < queue.length) {
      const item = toItem(queue[this.cursor[key]++] as T);
      if (item) items.push(item);
    }
    return items;
  }

  private createItem(record: AssetRecord): PlannedItem | undefined {
    const payload = this.opts.store.createPayloadOf(record);
    return this.checked(record, payload, payload, this.opts.createCtx);
  }

  private updateItem({ record, patch }: PendingWork['updates'][number]): PlannedItem | undefined {
    return this.checked(record, record.current ?? {}, patch, this.opts.updateCtx);
  }

  /** Strict mode holds back what the shared rules reject: the service would refuse it anyway. */
  private checked(record: AssetRecord, whole: AssetInput, payload: AssetInput, ctx: ValidationContext) {
    if (this.opts.mode === 'strict') {
      const result = validateAsset(whole, ctx);
      if (hasErrors(result)) {
        this.opts.blocked.push({ localId: record.localId, errors: flattenErrors(result) });
        return undefined;
      }
    }
    return { record, payload };
  }
}

/** The rules' errors keyed by path, as the service keys its own (`annual_data[0].field`). */
function flattenErrors(result: ReturnType<typeof validateAsset>): Validations['errors'] {
  const errors: Validations['errors'] = { ...result.asset.errors };
  result.annualData.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`annual_data[${index}].${field}`] = messages;
  });
  result.certifications.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`certifications[${index}].${field}`] = messages;
  });
  result.energyRatings.forEach((entry, index) => {
    for (const [field, messages] of Object.entries(entry.errors))
      errors[`energy_ratings[${index}].${field}`] = messages;
  });
  return errors;
}
