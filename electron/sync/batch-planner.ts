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
  /** Sent with its errors (always_create / always_update): the analyst chose "send anyway". */
  anyway?: boolean;
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
      /** Assets the analyst chose to send with their errors, through always_create / always_update. */
      sendAnyway?: ReadonlySet<string>;
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
      const errors = heldBackErrors(whole, ctx);
      if (errors) {
        if (this.opts.sendAnyway?.has(record.localId)) return { record, payload, anyway: true };
        this.opts.blocked.push({ localId: record.localId, errors });
        return undefined;
      }
    }
    return { record, payload };
  }
}

/** Why an asset is held back from a strict push (the shared rules' errors), or undefined. */
export function heldBackErrors(whole: AssetInput, ctx: ValidationContext): Validations['errors'] | undefined {
  const result = validateAsset(whole, ctx);
  return hasErrors(result) ? flattenErrors(result) : undefined;
}

/** Of the pending creates and updates, those a strict push would hold back, and why. */
export function heldBackOf(
  work: PendingWork,
  store: WorkspaceStore,
  createCtx: ValidationContext,
  updateCtx: ValidationContext,
): Array<{ localId: string; errors: Validations['errors'] }> {
  const out: Array<{ localId: string; errors: Validations['errors'] }> = [];
  for (const record of work.creates) {
    const errors = heldBackErrors(store.createPayloadOf(record), createCtx);
    if (errors) out.push({ localId: record.localId, errors });
  }
  for (const { record } of work.updates) {
    const errors = heldBackErrors(record.current ?? {}, updateCtx);
    if (errors) out.push({ localId: record.localId, errors });
  }
  return out;
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
