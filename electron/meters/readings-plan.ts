import { randomUUID } from 'node:crypto';
import { checkReadings } from '../../shared/meters/rules';
import type { ImportIssue, ReadingsImport } from '../../shared/meters/import-rows';
import type { Meter } from '../../shared/meters/types';
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
  /** Readings to add, with their new ids. */
  readings: StoredReading[];
  duplicates: number;
  problems: ImportIssue[];
  unknownAssets: string[];
}

export interface PlanLookups {
  /** The asset's local id for a partners id or a name; null when the workspace has none. */
  findAsset(asset: { partnersId: string | null; name: string | null }): string | null;
  meter(id: string): Meter | undefined;
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
  const problems: ImportIssue[] = [...parsed.errors];
  const unknown = new Set<string>();
  const byKey = new Map<string, PlannedMeter>();
  for (const imported of parsed.meters) {
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
      (imported.meterId !== null ? lookups.meter(imported.meterId) : undefined) ??
      lookups.metersOf(localId).find((m) => imported.meterId === null && m.name === imported.name);
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

  const existing = lookups.readingsOf([...byKey.values()].filter((p) => !p.isNew).map((p) => p.meter.id));
  const seen = new Set(existing.map(sameKey));
  const readings: StoredReading[] = [];
  let duplicates = 0;
  for (const r of parsed.readings) {
    const planned = byKey.get(r.meterKey);
    if (!planned) continue;
    const reading: StoredReading = {
      id: `r-${randomUUID()}`,
      meterId: planned.meter.id,
      start: r.start,
      end: r.end,
      quantity: r.quantity,
      unit: r.unit,
      estimated: r.estimated,
      source: r.source,
    };
    const key = sameKey(reading);
    if (seen.has(key)) {
      duplicates++;
      problems.push({
        file,
        row: r.source.row,
        column: null,
        message: 'The same reading is already in the workspace or earlier in this file: not added.',
      });
      continue;
    }
    seen.add(key);
    readings.push(reading);
  }

  // Overlaps with the meter's readings (in the workspace or the file) are errors: not added.
  const meters = [...byKey.values()].map((p) => p.meter);
  const all = [...existing, ...readings];
  const overlapping = new Set<number>();
  for (const issue of checkReadings(meters, all)) {
    if (issue.rule !== 'overlap' || issue.reading === null || issue.reading < existing.length) continue;
    overlapping.add(issue.reading - existing.length);
    const reading = readings[issue.reading - existing.length] as StoredReading;
    problems.push({
      file,
      row: reading.source.kind === 'file' ? reading.source.row : 0,
      column: 'start_date',
      message: issue.message,
    });
  }
  return {
    meters: [...byKey.values()],
    readings: readings.filter((_, i) => !overlapping.has(i)),
    duplicates,
    problems: problems.sort((a, b) => a.row - b.row),
    unknownAssets: [...unknown],
  };
}
