import { meterSheets } from './meter-workbook';
import { sourcesSheets } from './sources-sheet';
import { extname } from 'node:path';
import { areaUnitFromName } from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import type { WorkspaceStore } from '../workspace/workspace-store';
import type { ImportPlan } from './import-plan';
import type { ParsedWorkbook } from './sheet-parser';
import { allYears } from '../../shared/workbook/layout';
import { schemeList } from '../../shared/workbook/write-workbook';
import type { PreviewOptions } from './preview-file';
import { checkSize } from './read-workbook';
import {
  runWorkbookJob,
  type ExportSummary,
  type ExportWorkspaceOptions,
  type WriteJob,
} from './workbook-jobs';
import { DEFAULT_MAX_IMPORT_BYTES } from './workbook-limits';
import { readReference, referenceKey } from '../workspace/reference-lists';
import { writeThenRename } from '../storage/write-then-rename';

/** The entry points the app's handlers call: export the workspace, preview a file against it. */

export type { ExchangeFormat, PreviewOptions } from './preview-file';

/** The workspace's assets as documents, with the ids the sheets match on. Deleted assets are left out. */
export function workspaceDocs(store: WorkspaceStore): AssetDoc[] {
  const docs: AssetDoc[] = [];
  for (const record of store.listAssets()) {
    if (!record.current) continue;
    docs.push({
      ...record.current,
      service_asset_id: record.serviceAssetId,
      partners_id: record.partnersId ?? record.current.partners_id ?? null,
    });
  }
  return docs;
}

function areaUnitLabel(store: WorkspaceStore): string | undefined {
  const name = store.entity()?.reporting_preferences.area_units_name;
  if (!name) return undefined;
  return areaUnitFromName(name) === 'sqft' ? 'sq ft' : 'm²';
}

/** What an export writes, gathered from a workspace: the write job and what it will report. */
export function exportJob(
  store: WorkspaceStore,
  file: string,
  opts: ExportWorkspaceOptions = {},
): { job: WriteJob; summary: ExportSummary } {
  const docs = workspaceDocs(store);
  const years = [...(opts.years ?? allYears(docs, opts.fallbackYear ?? new Date().getUTCFullYear() - 1))];
  const unit = areaUnitLabel(store);
  const format = opts.format ?? (extname(file).toLowerCase() === '.csv' ? 'csv' : 'xlsx');
  const reference = readReference(store.reference(referenceKey));
  const summary = { file, assets: docs.length, years };
  if (format === 'csv')
    return {
      job: { job: 'write-csv', file, docs, opts: { years, ...(unit ? { areaUnitLabel: unit } : {}) } },
      summary,
    };
  const entity = store.entity();
  const xlsxOpts = {
    years,
    title: entity ? `Assets of ${entity.name}` : 'Assets',
    ...(unit ? { areaUnitLabel: unit } : {}),
    // The meters travel with the assets (issue 32): Meters and Readings tabs, when there are meters.
    extraSheets: opts.sourcesTab ? [...meterSheets(store), ...sourcesSheets(store)] : meterSheets(store),
    lists: {
      property_type_code: reference.propertyTypes,
      country: reference.countries,
      certification_id: schemeList(reference.certifications),
      energy_rating_id: schemeList(reference.energyRatings),
    },
  };
  return { job: { job: 'write-xlsx', file, docs, opts: xlsxOpts }, summary };
}

/**
 * Writes the workspace to `file` in a worker thread. Given the workspace's own file, the worker also
 * reads the assets from it (SQLite in WAL mode lets it read beside main), so main's event loop does
 * nothing heavy at all; without it, main gathers the documents and the worker writes them.
 */
export async function exportWorkspace(
  store: WorkspaceStore,
  file: string,
  opts: ExportWorkspaceOptions & { workspaceFile?: string } = {},
): Promise<ExportSummary> {
  const { workspaceFile, ...rest } = opts;
  // Never written in place: a failed export leaves the user's earlier file as it was.
  let summary: ExportSummary | undefined;
  await writeThenRename(file, async (tmp) => {
    if (workspaceFile) {
      summary = await runWorkbookJob({ job: 'export-workspace', workspaceFile, file: tmp, opts: rest });
      return;
    }
    const planned = exportJob(store, tmp, rest);
    await runWorkbookJob(planned.job);
    summary = planned.summary;
  });
  return { ...summary!, file };
}

/** Reads a workbook or CSV in a worker thread and compares it with the workspace: nothing is changed yet. */
export async function previewImportFile(
  store: WorkspaceStore,
  file: string,
  opts: PreviewOptions & { workspaceFile?: string } = {},
): Promise<ImportPlan> {
  // The size alone refuses a file at once, without starting a worker (an asynchronous stat).
  await checkSize(file, opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES);
  const { workspaceFile, ...given } = opts;
  // Certification and rating cells name their scheme: read back by the workspace's lists.
  const reference = readReference(store.reference(referenceKey));
  const rest = {
    schemes: { certifications: reference.certifications, energy_ratings: reference.energyRatings },
    ...given,
  };
  // Given the workspace's file, the worker reads the records itself (see `exportWorkspace`).
  if (workspaceFile) return runWorkbookJob({ job: 'preview', file, opts: rest, workspaceFile });
  return runWorkbookJob({ job: 'preview', file, opts: rest, records: store.listAssets() });
}

/** Plans a kept preview again from what it read, in a worker thread, matching rows by name or not. */
export async function replanImport(
  store: WorkspaceStore,
  plan: ImportPlan & { parsed: ParsedWorkbook },
  opts: { matchByName: boolean; workspaceFile?: string },
): Promise<ImportPlan> {
  const job = {
    job: 'replan',
    parsed: plan.parsed,
    source: plan.source,
    matchByName: opts.matchByName,
  } as const;
  if (opts.workspaceFile) return runWorkbookJob({ ...job, workspaceFile: opts.workspaceFile });
  return runWorkbookJob({ ...job, records: store.listAssets() });
}
