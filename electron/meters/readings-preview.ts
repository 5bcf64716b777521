import { randomUUID } from 'node:crypto';
import type { DateOrder, ImportColumn } from '../../shared/meters/import-rows';
import { importColumns, type ReadingsImport } from '../../shared/meters/import-rows';
import { ImportedReadings } from '../../shared/meters/imported-readings';
import type { ReadingsImportPreview } from '../../shared/meters/views';
import { withMetersTab } from '../../shared/meters/workbook-tabs';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import { notFound } from '../../shared/errors';
import type { WorkspaceStore } from '../workspace/workspace-store';
import type { MeterDocChange, MeterStore } from '../workspace/meter-store';
import { parsePortfolioManagerXml } from './portfolio-manager-xml';
import { parseReadingsBytes, parseReadingsTable, parseReadingsText } from './readings-file';
import { planSteps, type ReadingsPlan } from './readings-plan';

/**
 * A readings file's content (CSV or XML text, or an XLSX's rows) read and planned against the
 * workspace: the preview the Import dialog shows, and the plan "Apply" writes. Portfolio Manager's
 * XML needs the asset its meters go to; a CSV's column mapping is the analyst's (remembered per
 * workspace in its meta table) or recognised.
 */

/** The remembered column mapping of the readings import, per workspace (its meta table). */
const mappingKey = 'meters.importMapping';

export type ReadingsContent =
  | { text: string }
  /** A large CSV's bytes (readings-file.ts). */
  | { csv: Buffer }
  | { rows: string[][]; meterRows?: string[][] | null };

/**
 * Runs steps (a generator yielding between pieces of work) in slices of ~10 ms, main answering other
 * calls between them: a preview of a million readings takes seconds.
 */
export async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - slice > 10) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
}

/** The preview of a readings file, as steps (run by `runSliced`). */
export function* previewReadings(args: {
  store: WorkspaceStore;
  meters: MeterStore;
  content: ReadingsContent;
  file: string;
  mapping: Partial<Record<ImportColumn, string>> | undefined;
  dateOrder: DateOrder | undefined;
  chosenAsset: string | undefined;
  id: string;
}): Generator<void, { plan: ReadingsPlan; parsed: ReadingsImport; view: ReadingsImportPreview }> {
  const { store, meters, content, file, mapping, dateOrder, chosenAsset, id } = args;
  const text = 'text' in content ? content.text : '';
  const xml = 'text' in content && /^\s*</.test(text);
  let parsed: ReadingsImport;
  let headers: string[] = [];
  const lookups = assetLookups(store, meters);
  let needsAsset = false;
  if (xml) {
    // Portfolio Manager's meters don't name their asset: the analyst chooses it.
    const record = chosenAsset ? store.asset(chosenAsset) : undefined;
    if (chosenAsset && !record?.current) throw notFound(`No asset ${chosenAsset} in the workspace`);
    needsAsset = !record;
    const asset = {
      partnersId: record?.partnersId === null || !record ? null : String(record.partnersId),
      name: typeof record?.current?.['name'] === 'string' ? record.current['name'] : null,
    };
    const pm = parsePortfolioManagerXml(text, { file, asset });
    parsed = {
      mapping: emptyMapping(),
      needsDateOrder: false,
      ...pm,
      readings: ImportedReadings.from(pm.readings),
    };
    if (needsAsset) {
      parsed = { ...parsed, meters: [], readings: new ImportedReadings() };
      parsed.errors.unshift({
        file,
        row: 1,
        column: null,
        message: 'Choose the asset these Portfolio Manager meters belong to.',
      });
    }
    if (record) lookups.findAsset = () => record.localId;
  } else {
    const remembered = mapping ?? readMapping(store.getMeta(mappingKey));
    if (mapping) store.setMeta(mappingKey, JSON.stringify(mapping));
    const options = {
      file,
      ...(remembered ? { mapping: remembered } : {}),
      ...(dateOrder ? { dateOrder } : {}),
    };
    ({ parsed, headers } =
      'rows' in content
        ? yield* parseReadingsTable(content.rows, options)
        : 'csv' in content
          ? yield* parseReadingsBytes(content.csv, options)
          : yield* parseReadingsText(text, options));
    // Our workbook's Meters tab: the energy content of fuels by volume or mass.
    if ('rows' in content && content.meterRows) parsed = withMetersTab(parsed, content.meterRows, file);
  }
  const plan = yield* planSteps(parsed, lookups, file);
  const meterRows = plan.readings.countsByMeter();
  const names = {} as Record<ImportColumn, string | null>;
  for (const [column, index] of Object.entries(parsed.mapping) as [ImportColumn, number | null][])
    names[column] = index === null ? null : (headers[index] ?? null);
  const view: ReadingsImportPreview = {
    planId: id,
    file,
    format: xml ? 'portfolio_manager' : 'csv',
    needsAsset,
    asset: chosenAsset ?? null,
    headers,
    mapping: names,
    needsDateOrder: parsed.needsDateOrder,
    dateOrder: dateOrder ?? null,
    meters: plan.meters.map((p) => ({
      key: p.key,
      name: p.meter.name,
      asset: p.asset,
      localId: p.meter.assetId,
      isNew: p.isNew,
      readings: meterRows.get(p.meter.id) ?? 0,
    })),
    valid: plan.readings.length,
    duplicates: plan.duplicates,
    problems: plan.problems.slice(0, 1_000),
    unknownAssets: plan.unknownAssets,
    sample: Array.from({ length: Math.min(50, plan.readings.length) }, (_, k) => plan.readings.at(k)).map(
      (r) => ({
        row: r.source.kind === 'file' ? r.source.row : 0,
        meter: r.meterId,
        start: r.start,
        end: r.end,
        quantity: r.quantity,
        unit: r.unit,
        estimated: r.estimated,
      }),
    ),
  };
  return { plan, parsed, view };
}

/**
 * The new meters and the readings of a plan, as changes, made one at a time as the step writes them
 * (a reading gets its id here): an import of a million readings never holds a million changes.
 */
export function* importChanges(plan: ReadingsPlan): Generator<MeterDocChange> {
  const used = plan.readings.meterIdsUsed();
  const assetOf = new Map(plan.meters.map((p) => [p.meter.id, p.meter.assetId]));
  for (const p of plan.meters)
    if (p.isNew && used.has(p.meter.id))
      yield { kind: 'meter', id: p.meter.id, assetId: p.meter.assetId, before: null, after: p.meter };
  for (const r of plan.readings) {
    const after = { id: `r-${randomUUID()}`, ...r };
    yield { kind: 'reading', id: after.id, assetId: assetOf.get(r.meterId) ?? '', before: null, after };
  }
}

/**
 * New assets for the file's words the workspace has no asset for: named by the file's asset name,
 * with its partners id where that is one (a number); the analyst fills in the rest in the grids.
 */
export function createdAssets(parsed: ReadingsImport, unknown: ReadonlySet<string>): AssetDoc[] {
  const out = new Map<string, AssetDoc>();
  for (const m of parsed.meters) {
    const words = m.asset.partnersId ?? m.asset.name ?? '';
    if (!unknown.has(words) || out.has(words)) continue;
    const id =
      m.asset.partnersId !== null && /^\d{1,15}$/.test(m.asset.partnersId.trim())
        ? Number(m.asset.partnersId)
        : null;
    out.set(words, { name: m.asset.name ?? words, ...(id !== null ? { partners_id: id } : {}) });
  }
  return [...out.values()];
}

function emptyMapping(): Record<ImportColumn, number | null> {
  return Object.fromEntries(importColumns.map((c) => [c, null])) as Record<ImportColumn, number | null>;
}

/** The plan's new meters that have readings to add (those the import writes). */
export function countNew(plan: ReadingsPlan): number {
  const used = plan.readings.meterIdsUsed();
  return plan.meters.filter((p) => p.isNew && used.has(p.meter.id)).length;
}

export function countOf(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function readMapping(text: string | undefined): Partial<Record<ImportColumn, string>> | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null
      ? (value as Partial<Record<ImportColumn, string>>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** How the import finds the workspace's assets: by partners id, or by a name only one asset has. */
export function assetLookups(store: WorkspaceStore, meters: MeterStore) {
  const byPartners = new Map<string, string>();
  const byName = new Map<string, string | null>();
  for (const record of store.listAssets()) {
    if (!record.current) continue;
    if (record.partnersId !== null) byPartners.set(String(record.partnersId), record.localId);
    const name = record.current['name'];
    if (typeof name === 'string') {
      const key = name.trim().toLowerCase();
      byName.set(key, byName.has(key) ? null : record.localId);
    }
  }
  return {
    findAsset: (asset: { partnersId: string | null; name: string | null }) =>
      (asset.partnersId !== null ? byPartners.get(asset.partnersId.trim()) : undefined) ??
      (asset.name !== null ? (byName.get(asset.name.trim().toLowerCase()) ?? null) : null),
    metersById: (ids: readonly string[]) => meters.metersById(ids),
    metersOf: (localId: string) => meters.meters(localId),
    readingsOf: (ids: readonly string[]) => meters.readingsOf(ids),
  };
}
