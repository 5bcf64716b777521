import { randomUUID } from 'node:crypto';
import { checkReadings } from '../../shared/meters/rules';
import { runSteps, type ImportIssue, type ReadingsImport } from '../../shared/meters/import-rows';
import type { ImportedReadings } from '../../shared/meters/imported-readings';
import type { Meter, Reading } from '../../shared/meters/types';
import type { StoredReading } from '../workspace/meter-store';

/**
 * A parsed readings file (shared/meters/import-rows.ts) against the workspace: which meters are
 * new and which known, which asset each goes to, which readings are added, and which are the same
 * reading again (already in the workspace, or twice in the file: flagged, not added). Pure: the
 * service hands it the workspace's meters, their readings and a way to find an asset.
 */

export interface PlannedMeter {
  key: string;
  meter: Meter;
  isNew: boolean;
  /** The file's words for the asset (partners id or name). */
  asset: string;
}

export interface ReadingsPlan {
  meters: PlannedMeter[];
  /** Readings to add, in the file's order (made from the parsed file as they are read: no copy). */
  readings: PlannedReadings;
  duplicates: number;
  problems: ImportIssue[];
  unknownAssets: string[];
}

/** A reading of the plan, as it will be stored once given its id. */
export type PlannedReading = Omit<StoredReading, 'id'>;

/**
 * The plan's readings as indexes into the parsed file's readings (1.44 M readings are 6 MB here,
 * not a second copy of every reading): each is made when it is read, with its planned meter's id.
 */
export class PlannedReadings implements Iterable<PlannedReading> {
  constructor(
    private readonly parsed: ImportedReadings,
    private readonly taken: Int32Array,
    private readonly meterIds: ReadonlyMap<string, string>,
  ) {}

  private counts: Map<string, number> | undefined;

  get length(): number {
    return this.taken.length;
  }

  at(k: number): PlannedReading {
    const r = this.parsed.at(this.taken[k] as number);
    return {
      meterId: this.meterIds.get(r.meterKey) as string,
      start: r.start,
      end: r.end,
      quantity: r.quantity,
      unit: r.unit,
      estimated: r.estimated,
      source: r.source,
    };
  }

  *[Symbol.iterator](): Iterator<PlannedReading> {
    for (let k = 0; k < this.taken.length; k++) yield this.at(k);
  }

  /**
   * How many readings each planned meter adds, by its id: counted once (a pass over 1.44 M readings
   * is ~100 ms of main's thread), by `countSteps` inside the sliced plan, or here when asked first.
   */
  countsByMeter(): Map<string, number> {
    if (!this.counts) runSteps(this.countSteps());
    return this.counts as Map<string, number>;
  }

  /** The count of `countsByMeter` as steps: it yields every 64 K readings. */
  *countSteps(): Generator<void, void> {
    if (this.counts) return;
    // Counted by the number of the meter key's text (no string looked up per reading).
    const byKey = new Int32Array(this.parsed.textCount);
    for (let k = 0; k < this.taken.length; k++) {
      if ((k & 65535) === 65535) yield;
      const key = this.parsed.meterKeyId(this.taken[k] as number);
      byKey[key] = (byKey[key] as number) + 1;
    }
    const out = new Map<string, number>();
    byKey.forEach((n, key) => {
      if (n === 0) return;
      const id = this.meterIds.get(this.parsed.textOf(key)) as string;
      out.set(id, (out.get(id) ?? 0) + n);
    });
    this.counts = out;
  }

  /** The planned meters' ids that have readings to add. */
  meterIdsUsed(): Set<string> {
    return new Set(this.countsByMeter().keys());
  }
}

export interface PlanLookups {
  /** The asset's local id for a partners id or a name; null when the workspace has none. */
  findAsset(asset: { partnersId: string | null; name: string | null }): string | null;
  /** The workspace's meters of those ids (asked once for all the file's ids). */
  metersById(ids: readonly string[]): ReadonlyMap<string, Meter>;
  /** The workspace's meters of an asset (a file without meter ids matches them by name). */
  metersOf(localId: string): readonly Meter[];
  readingsOf(meterIds: readonly string[]): readonly StoredReading[];
}

const sameKey = (r: {
  meterId: string;
  start: string;
  end: string;
  quantity: number;
  unit: string;
}): string =>
  `${r.meterId}\u0000${r.start}\u0000${r.end}\u0000${r.quantity}\u0000${r.unit.trim().toLowerCase()}`;

export function planReadings(parsed: ReadingsImport, lookups: PlanLookups, file: string): ReadingsPlan {
  return runSteps(planSteps(parsed, lookups, file));
}

/** `planReadings` as steps (it yields every few meters; see readingsRows). */
export function* planSteps(
  parsed: ReadingsImport,
  lookups: PlanLookups,
  file: string,
): Generator<void, ReadingsPlan> {
  const problems: ImportIssue[] = [...parsed.errors];
  const unknown = new Set<string>();
  const byKey = new Map<string, PlannedMeter>();
  const knownById = lookups.metersById(parsed.meters.flatMap((m) => (m.meterId === null ? [] : [m.meterId])));
  for (const [n, imported] of parsed.meters.entries()) {
    if ((n & 255) === 255) yield;
    const assetWords = imported.asset.partnersId ?? imported.asset.name ?? '';
    const localId = lookups.findAsset(imported.asset);
    if (localId === null) {
      unknown.add(assetWords);
      problems.push({
        file,
        row: imported.row,
        column: imported.asset.partnersId !== null ? 'asset_partners_id' : 'asset_name',
        message: `No asset "${assetWords}" in the workspace: add it first, or leave its readings out.`,
      });
      continue;
    }
    const known =
      imported.meterId !== null
        ? knownById.get(imported.meterId)
        : lookups.metersOf(localId).find((m) => m.name === imported.name);
    if (known && known.assetId !== localId) {
      problems.push({
        file,
        row: imported.row,
        column: 'meter_id',
        message: `Meter ${known.id} belongs to another asset in the workspace.`,
      });
      continue;
    }
    const meter: Meter = known ?? {
      id: imported.meterId ?? `m-${randomUUID()}`,
      name: imported.name,
      assetId: localId,
      utility: imported.utility,
      space: imported.space,
      areaServed: imported.areaServed,
      unit: imported.unit,
      energyContent: imported.energyContent ?? null,
    };
    byKey.set(imported.key, { key: imported.key, meter, isNew: !known, asset: assetWords });
  }

  // Per meter, in the file's order: the same reading again (in the workspace or earlier in the file)
  // is flagged and not added; one overlapping another of its meter is an error, not added. Each
  // meter's keys are let go once it is done, so a million readings never hold a million keys.
  const existingOf = new Map<string, StoredReading[]>();
  for (const r of lookups.readingsOf([...byKey.values()].filter((p) => !p.isNew).map((p) => p.meter.id))) {
    const list = existingOf.get(r.meterId);
    if (list) list.push(r);
    else existingOf.set(r.meterId, [r]);
  }
  // By the meter's id: two of the file's keys (an id, a name) may name one meter of the workspace.
  // Each planned meter is a slot; a reading's slot is found by the number of its key's text, and the
  // readings are sorted by slot (a count, then a place each, in the file's order): no array per meter.
  const meterIds = new Map<string, string>();
  for (const [key, planned] of byKey) meterIds.set(key, planned.meter.id);
  const imported = parsed.readings;
  const slotOfId = new Map<string, number>();
  const slotMeters: Meter[] = [];
  const slotOfText = new Int32Array(imported.textCount).fill(-1);
  for (let t = 0; t < imported.textCount; t++) {
    const planned = byKey.get(imported.textOf(t));
    if (!planned) continue;
    let slot = slotOfId.get(planned.meter.id);
    if (slot === undefined) {
      slot = slotMeters.push(planned.meter) - 1;
      slotOfId.set(planned.meter.id, slot);
    }
    slotOfText[t] = slot;
  }
  yield;
  const { firsts, order } = bySlot(imported, slotOfText, slotMeters.length);
  yield;
  const keep = new Uint8Array(parsed.readings.length);
  let duplicates = 0;
  // The meters in runs of 1,024 between steps, each read by a plain function (see readingsRows).
  for (let slot = 0; slot < slotMeters.length; slot += 1024) {
    checkSlots(slot, Math.min(slot + 1024, slotMeters.length));
    yield;
  }
  const readings = new PlannedReadings(parsed.readings, takenOf(keep), meterIds);
  yield* readings.countSteps();
  return {
    meters: [...byKey.values()],
    readings,
    duplicates,
    problems: problems.sort((a, b) => a.row - b.row),
    unknownAssets: [...unknown],
  };

  function checkSlots(from: number, to: number): void {
    for (let slot = from; slot < to; slot++)
      checkMeter(slotMeters[slot] as Meter, order.subarray(firsts[slot], firsts[slot + 1]));
  }

  /** A meter's readings of the file (`indexes`, in the file's order) checked and kept or flagged. */
  function checkMeter(meter: Meter, indexes: Int32Array): void {
    const planned = { meter };
    const existing = existingOf.get(planned.meter.id) ?? [];
    if (existing.length === 0 && inOrderApart(parsed.readings, indexes)) {
      for (let k = 0; k < indexes.length; k++) keep[indexes[k] as number] = 1;
      return;
    }
    const seen = new Set(existing.map(sameKey));
    const readings: Reading[] = [];
    const kept: number[] = [];
    for (const i of indexes) {
      const r = parsed.readings.at(i);
      const reading = { ...r, meterId: planned.meter.id };
      const same = sameKey(reading);
      if (seen.has(same)) {
        duplicates++;
        problems.push({
          file,
          row: r.source.row,
          column: null,
          message: 'The same reading is already in the workspace or earlier in this file: not added.',
        });
        continue;
      }
      seen.add(same);
      readings.push(reading);
      kept.push(i);
    }
    const all = [...existing, ...readings];
    const overlapping = new Set<number>();
    for (const issue of checkReadings([planned.meter], all)) {
      if (issue.rule !== 'overlap' || issue.reading === null || issue.reading < existing.length) continue;
      const k = issue.reading - existing.length;
      overlapping.add(k);
      problems.push({
        file,
        row: parsed.readings.row(kept[k] as number),
        column: 'start_date',
        message: issue.message,
      });
    }
    kept.forEach((i, k) => {
      if (!overlapping.has(k)) keep[i] = 1;
    });
  }
}

/**
 * The readings sorted by their meter's slot, in the file's order within each (a count, then a place
 * each): slot s's readings are `order[firsts[s]]` to before `order[firsts[s + 1]]`.
 */
function bySlot(
  imported: ImportedReadings,
  slotOfText: Int32Array,
  slots: number,
): { firsts: Int32Array; order: Int32Array } {
  const firsts = new Int32Array(slots + 1);
  for (let i = 0; i < imported.length; i++) {
    const slot = slotOfText[imported.meterKeyId(i)] as number;
    if (slot >= 0) firsts[slot + 1] = (firsts[slot + 1] as number) + 1;
  }
  for (let s = 0; s < slots; s++) firsts[s + 1] = (firsts[s + 1] as number) + (firsts[s] as number);
  const order = new Int32Array(firsts[slots] as number);
  const next = firsts.slice(0, slots);
  for (let i = 0; i < imported.length; i++) {
    const slot = slotOfText[imported.meterKeyId(i)] as number;
    if (slot < 0) continue;
    const at = next[slot] as number;
    order[at] = i;
    next[slot] = at + 1;
  }
  return { firsts, order };
}

/** The indexes of the readings kept, in order. */
function takenOf(keep: Uint8Array): Int32Array {
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i] as number;
  const taken = new Int32Array(count);
  for (let i = 0, k = 0; i < keep.length; i++) if (keep[i]) taken[k++] = i;
  return taken;
}

/**
 * Whether a new meter's readings follow one another in the file's order, each starting after the
 * last has ended (a meter's bills as files list them): then none is the same as another (their
 * starts differ) and none overlaps another, which is what the checks below would find, without a
 * key, a copy or a sort per reading. Anything else (dates out of order, a bad date) takes the checks.
 */
function inOrderApart(readings: ImportedReadings, indexes: Int32Array): boolean {
  let reach = -Infinity;
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k] as number;
    const start = readings.startDay(i);
    const end = readings.endDay(i);
    // NaN fails every comparison: a date that can't be read goes the long way.
    if (!(start > reach && end >= start)) return false;
    reach = end;
  }
  return true;
}
