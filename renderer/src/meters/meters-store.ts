/**
 * Meters in the renderer (issue 32): what meters last wrote into the annual cells (the derived
 * marks and their hover), the readings import's preview from the Import dialog, and the Meters
 * tab's listing. Main keeps everything (electron/meters/); this holds what is shown.
 */
import { create } from 'zustand';
import type { MeterWriteResult } from '../../../shared/bridge/contract';
import type { ImportColumn, DateOrder } from '../../../shared/meters/import-rows';
import type { DerivedMark, MetersListing, ReadingsImportPreview } from '../../../shared/meters/views';
import type { PickedFile } from '../../../shared/bridge/types';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { uploadFile } from '../bridge/browser-files';
import { joinHistory, refreshHistory } from '../editing/commands';
import { applyViews, useWorkspace } from '../store/workspace';
import { notify } from '../store/ui';

export interface MetersState {
  /** localId -> document path (`annual_data/2024/en_abs_we`) -> what meters wrote there. */
  marks: Map<string, Map<string, DerivedMark>>;
  /** Bumped when marks change, so the grids draw their cells again. */
  marksVersion: number;
  listing: (MetersListing & { truncated: boolean }) | null;
  /** The Meters tab shows this asset's meters only (null: all). */
  listingAsset: string | null;
  picked: PickedFile | null;
  preview: ReadingsImportPreview | null;
  applied: {
    file: string;
    readings: number;
    meters: number;
    written: number;
    held: MeterWriteResult['held'];
  } | null;
  busy: 'pick' | 'preview' | 'apply' | null;
  error: string | null;
}

export const useMeters = create<MetersState>(() => ({
  marks: new Map(),
  marksVersion: 0,
  listing: null,
  listingAsset: null,
  picked: null,
  preview: null,
  applied: null,
  busy: null,
  error: null,
}));

const pathOfMark = (mark: DerivedMark): string => `annual_data/${mark.year}/${mark.field}`;

/** Reads the marks of `assetIds` again (all assets without), replacing theirs. */
export async function loadMarks(assetIds?: readonly string[]): Promise<void> {
  const list = await bridge.methods['meters.derived'](assetIds ? { assetIds: [...assetIds] } : {});
  const marks = assetIds ? new Map(useMeters.getState().marks) : new Map<string, Map<string, DerivedMark>>();
  for (const id of assetIds ?? []) marks.delete(id);
  for (const mark of list) {
    let byPath = marks.get(mark.localId);
    if (!byPath) marks.set(mark.localId, (byPath = new Map()));
    byPath.set(pathOfMark(mark), mark);
  }
  useMeters.setState((s) => ({ marks, marksVersion: s.marksVersion + 1 }));
}

export function markAt(localId: string, path: string): DerivedMark | undefined {
  return useMeters.getState().marks.get(localId)?.get(path);
}

/** After a meters write: the assets' views, their marks, the toolbar's undo label, the listing. */
export async function afterWrite(result: MeterWriteResult): Promise<void> {
  applyViews(result.views);
  await refreshHistory();
  await loadMarks(result.views.map((v) => v.localId));
  await loadListing();
}

export async function loadListing(): Promise<void> {
  const assetId = useMeters.getState().listingAsset;
  useMeters.setState({ listing: await bridge.methods['meters.list'](assetId ? { assetId } : {}) });
}

/** The Meters tab on one asset's meters (the way from a derived cell to its readings), or all. */
export function showMetersOf(assetId: string | null): Promise<void> {
  useMeters.setState({ listingAsset: assetId });
  return loadListing();
}

async function busy(kind: NonNullable<MetersState['busy']>, action: () => Promise<void>): Promise<void> {
  if (useMeters.getState().busy) return;
  useMeters.setState({ busy: kind, error: null });
  try {
    await action();
  } catch (error) {
    useMeters.setState({ error: errorMessage(error) });
  } finally {
    useMeters.setState({ busy: null });
  }
}

/** Main's dialog (or, in the browser host, the page's file input) picks the readings file. */
export function chooseReadings(file?: File): Promise<void> {
  return busy('pick', async () => {
    const picked = file
      ? await uploadFile(file)
      : await bridge.methods['files.pick']({ purpose: 'readings' });
    if (!picked) return;
    useMeters.setState({ picked, preview: null, applied: null });
    useMeters.setState({ preview: await bridge.methods['meters.previewImport']({ fileId: picked.fileId }) });
  });
}

/** The analyst corrected the mapping or answered the day/month question: read the file again. */
export function previewAgain(change: {
  mapping?: Partial<Record<ImportColumn, string>>;
  dateOrder?: DateOrder;
  /** Portfolio Manager's XML: the asset its meters go to. */
  asset?: string;
}) {
  return busy('preview', async () => {
    const { preview } = useMeters.getState();
    if (!preview) return;
    const mapping: Partial<Record<ImportColumn, string>> = {};
    for (const [column, header] of Object.entries(preview.mapping) as [ImportColumn, string | null][])
      if (header) mapping[column] = header;
    if (preview.format === 'portfolio_manager') {
      const asset = change.asset ?? preview.asset;
      useMeters.setState({
        preview: await bridge.methods['meters.previewImport']({
          planId: preview.planId,
          ...(asset ? { asset } : {}),
        }),
      });
      return;
    }
    const next = await bridge.methods['meters.previewImport']({
      planId: preview.planId,
      mapping: { ...mapping, ...change.mapping },
      ...((change.dateOrder ?? preview.dateOrder)
        ? { dateOrder: change.dateOrder ?? preview.dateOrder ?? 'dmy' }
        : {}),
    });
    useMeters.setState({ preview: next });
  });
}

/** `createAssets`: also create the assets the file names and the workspace doesn't have. */
export function applyReadings(createAssets = false): Promise<void> {
  return busy('apply', async () => {
    const { preview } = useMeters.getState();
    if (!preview) return;
    const result = await bridge.methods['meters.applyImport']({
      planId: preview.planId,
      ...(createAssets ? { createAssets } : {}),
    });
    useMeters.setState({
      preview: null,
      applied: {
        file: preview.file,
        readings: result.readings,
        meters: result.meters,
        written: result.figures.written,
        held: result.held,
      },
    });
    await afterWrite(result);
    notify('info', `Imported ${result.readings} readings from ${preview.file}.`);
  });
}

/** "Apply meter figures" for the assets whose held cells the analyst saw old -> new. */
export function applyHeldFigures(): Promise<void> {
  return busy('apply', async () => {
    const held = useMeters.getState().applied?.held ?? [];
    const assetIds = [...new Set(held.map((c) => c.localId))];
    if (assetIds.length === 0) return;
    const years = [...new Set(held.map((c) => c.year))];
    const result = await bridge.methods['meters.applyFigures']({ assetIds, years, replaceTyped: true });
    useMeters.setState((s) => ({ applied: s.applied ? { ...s.applied, held: [] } : null }));
    await afterWrite(result);
  });
}

// Undo and redo move derived cells with their step: the marks of the assets it touched are read again.
joinHistory({
  settled: () => Promise.resolve(),
  changed: (outcome) => {
    const ids = [...outcome.views.map((v) => v.localId), ...outcome.removed];
    if (ids.length > 0) void loadMarks(ids).catch(() => undefined);
    if (useMeters.getState().listing) void loadListing().catch(() => undefined);
  },
});

// Another workspace (or the same one read again): its marks, from main.
let shownKey: string | null = null;
useWorkspace.subscribe((state) => {
  const key = state.meta ? `${state.meta.connectionId}:${state.meta.entity.id}` : null;
  if (key === shownKey) return;
  shownKey = key;
  useMeters.setState({
    marks: new Map(),
    listing: null,
    listingAsset: null,
    preview: null,
    applied: null,
    picked: null,
  });
  if (key)
    void Promise.all([loadMarks(), loadListing()]).catch((error: unknown) =>
      notify('warning', `Meters: ${errorMessage(error)}`),
    );
});
