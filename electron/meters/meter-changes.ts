import type { z } from 'zod';
import type { metersArgs } from '../../shared/meters/bridge-args';
import { notFound } from '../../shared/errors';
import type { MeterDocChange, MeterStore, StoredReading } from '../workspace/meter-store';
import { applyMeterEdit, applyReadingEdit } from './meter-edits';

type EditArgs = z.infer<typeof metersArgs.edit>;
type DeleteArgs = z.infer<typeof metersArgs.delete>;

/**
 * The document changes of one `meters.edit` (a typed cell, or a paste, fill, replace or clear of
 * many): each meter or reading edited once however many of its cells changed, and a reading moved
 * to another asset's meter gone from the one asset and added to the other (each asset's figures
 * are recomputed).
 */
export function editChanges(
  meters: MeterStore,
  { meters: meterEdits = [], readings: readingEdits = [] }: EditArgs,
): MeterDocChange[] {
  const changes: MeterDocChange[] = [];
  const nextMeters = new Map<string, ReturnType<typeof applyMeterEdit>>();
  for (const edit of meterEdits) {
    const before = meters.meter(edit.id);
    if (!before) throw notFound(`No meter ${edit.id} in the workspace`);
    nextMeters.set(edit.id, applyMeterEdit(nextMeters.get(edit.id) ?? before, edit.field, edit.value));
  }
  for (const [id, after] of nextMeters)
    changes.push({ kind: 'meter', id, assetId: after.assetId, before: meters.meter(id) ?? null, after });
  const nextReadings = new Map<string, StoredReading>();
  for (const edit of readingEdits) {
    const before = meters.reading(edit.id);
    if (!before) throw notFound(`No reading ${edit.id} in the workspace`);
    nextReadings.set(edit.id, applyReadingEdit(nextReadings.get(edit.id) ?? before, edit.field, edit.value));
  }
  for (const [id, after] of nextReadings) {
    const before = meters.reading(id) ?? null;
    const meter = meters.meter(after.meterId);
    if (!meter) throw notFound(`No meter ${after.meterId} in the workspace`);
    const oldAsset = before ? meters.meter(before.meterId)?.assetId : undefined;
    if (oldAsset && oldAsset !== meter.assetId) {
      changes.push({ kind: 'reading', id, assetId: oldAsset, before, after: null });
      changes.push({ kind: 'reading', id, assetId: meter.assetId, before: null, after });
    } else changes.push({ kind: 'reading', id, assetId: meter.assetId, before, after });
  }
  return changes;
}

/** The changes of a delete: a meter goes with its readings; a reading named twice goes once. */
export function deleteChanges(
  meters: MeterStore,
  { meterIds = [], readingIds = [] }: DeleteArgs,
): MeterDocChange[] {
  const changes: MeterDocChange[] = [];
  const gone = new Set<string>();
  for (const id of meterIds) {
    const meter = meters.meter(id);
    if (!meter) continue;
    for (const r of meters.readingsOf([id])) {
      gone.add(r.id);
      changes.push({ kind: 'reading', id: r.id, assetId: meter.assetId, before: r, after: null });
    }
    changes.push({ kind: 'meter', id, assetId: meter.assetId, before: meter, after: null });
  }
  for (const id of readingIds) {
    const reading = meters.reading(id);
    if (!reading || gone.has(id)) continue;
    const assetId = meters.meter(reading.meterId)?.assetId ?? '';
    changes.push({ kind: 'reading', id, assetId, before: reading, after: null });
  }
  return changes;
}
