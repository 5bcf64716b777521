/**
 * The Import / Export dialog's state, outside the component so an import's result (and its undo) and a
 * running service export survive closing and reopening the dialog.
 */
import { create } from 'zustand';
import type { PickedFile } from '../../../shared/bridge/types';
import type {
  ImportPreview,
  ImportResult,
  ServiceExportProgressView,
} from '../../../shared/workbook/import-export-types';
import { bridge } from '../bridge';
import { saveDownload, uploadFile } from '../bridge/browser-files';
import { reloadSnapshot, useWorkspace, type WorkspaceState } from '../store/workspace';
import { errorMessage } from '../../../shared/errors';

export type ExportFormat = 'xlsx' | 'csv';
export type PreviewSource = 'file' | 'service' | 'link';
/** Where an error is shown: beside the control whose action failed. */
export type ErrorPlace = 'export' | 'import' | 'service' | 'apply';
export type BusyWith = 'export' | 'pick' | 'service' | 'link' | 'apply' | 'undo' | 'match';

export interface ImportExportState {
  busy: BusyWith | null;
  format: ExportFormat;
  /** An .xlsx export also gets a Sources tab (issue 31): off by default. */
  sourcesTab: boolean;
  /** The last export: what was written, or that the save dialog was cancelled. */
  exported: { fileName: string; assets: number } | 'cancelled' | null;
  picked: PickedFile | null;
  preview: ImportPreview | null;
  source: PreviewSource | null;
  /** The user chose to apply the valid rows and skip the rejected ones. */
  partial: boolean;
  showUnchanged: boolean;
  progress: ServiceExportProgressView | null;
  serviceFile: { fileName: string; bytes: number } | null;
  awaitingLink: { callbackUrl: string; message: string } | null;
  applied: (ImportResult & { fileName: string }) | null;
  undone: { removed: number; restored: number } | null;
  error: { place: ErrorPlace; message: string } | null;
  /**
   * The connection and entity the preview and the applied import belong to: main keeps plans and the
   * undo per workspace, so after an entity switch they must not be offered against the new one.
   */
  workspaceKey: string | null;
}

const initial: ImportExportState = {
  busy: null,
  format: 'xlsx',
  sourcesTab: false,
  exported: null,
  picked: null,
  preview: null,
  source: null,
  partial: false,
  showUnchanged: false,
  progress: null,
  serviceFile: null,
  awaitingLink: null,
  applied: null,
  undone: null,
  error: null,
  workspaceKey: null,
};

export const useImportExport = create<ImportExportState>(() => initial);

const messageOf = (error: unknown): string => errorMessage(error);

/** Runs one action at a time; its failure becomes the message shown at `place`. */
async function run(busy: BusyWith, place: ErrorPlace, action: () => Promise<void>): Promise<void> {
  if (useImportExport.getState().busy) return;
  useImportExport.setState({ busy, error: null });
  try {
    await action();
  } catch (error) {
    useImportExport.setState({ error: { place, message: messageOf(error) } });
  } finally {
    useImportExport.setState({ busy: null });
  }
}

export function workspaceKeyOf(state: WorkspaceState): string | null {
  return state.meta ? `${state.meta.connectionId}:${state.meta.entity.id}` : null;
}

function showPreview(preview: ImportPreview, source: PreviewSource): void {
  const key = workspaceKeyOf(useWorkspace.getState());
  const { applied, workspaceKey } = useImportExport.getState();
  useImportExport.setState({
    preview,
    source,
    partial: false,
    showUnchanged: false,
    workspaceKey: key,
    // An import applied in another workspace cannot be undone from this one.
    ...(applied && workspaceKey !== key ? { applied: null, undone: null } : {}),
  });
}

export function setFormat(format: ExportFormat): void {
  useImportExport.setState({ format });
}

export function setSourcesTab(sourcesTab: boolean): void {
  useImportExport.setState({ sourcesTab });
}

export function setPartial(partial: boolean): void {
  useImportExport.setState({ partial });
}

export function setShowUnchanged(showUnchanged: boolean): void {
  useImportExport.setState({ showUnchanged });
}

export function exportWorkbook(): Promise<void> {
  return run('export', 'export', async () => {
    useImportExport.setState({ exported: null });
    const { format, sourcesTab } = useImportExport.getState();
    const written = await bridge.methods['workbook.export']({
      format,
      ...(format === 'xlsx' && sourcesTab ? { sourcesTab } : {}),
    });
    // The browser host wrote it for a download: the browser saves it where the user keeps downloads.
    if (written?.downloadId) await saveDownload(written.downloadId, written.fileName);
    useImportExport.setState({ exported: written ?? 'cancelled' });
  });
}

/** Main's file dialog picks the workbook; in the browser host, `file` is what the page's input chose. */
export function chooseWorkbook(file?: File): Promise<void> {
  return run('pick', 'import', async () => {
    const picked = file
      ? await uploadFile(file)
      : await bridge.methods['files.pick']({ purpose: 'workbook' });
    if (!picked) return;
    // A preview of the previous file would be mistaken for this one's if this one fails.
    useImportExport.setState({ picked, preview: null, source: null });
    showPreview(await bridge.methods['workbook.previewImport']({ fileId: picked.fileId }), 'file');
  });
}

/**
 * The preview's offer: blank-ID rows named like one synced asset are matched to it by name (or, taken
 * back, are problems again). Main plans the same rows again; the preview is replaced.
 */
export function matchRowsByName(matchByName: boolean): Promise<void> {
  return run('match', 'apply', async () => {
    const { preview, source } = useImportExport.getState();
    if (!preview) return;
    const next = await bridge.methods['workbook.previewImport']({ planId: preview.planId, matchByName });
    showPreview(next, source ?? 'file');
  });
}

export function runServiceExport(publicCallbackUrl: string): Promise<void> {
  return run('service', 'service', async () => {
    useImportExport.setState({ progress: null, serviceFile: null, awaitingLink: null });
    const off = bridge.on('serviceExport.progress', (progress) => useImportExport.setState({ progress }));
    try {
      const url = publicCallbackUrl.trim();
      const result = await bridge.methods['serviceExport.start'](url ? { publicCallbackUrl: url } : {});
      if (result.kind === 'awaiting-link') {
        useImportExport.setState({
          awaitingLink: { callbackUrl: result.callbackUrl, message: result.message },
        });
        return;
      }
      useImportExport.setState({ serviceFile: { fileName: result.fileName, bytes: result.bytes } });
      showPreview(result.preview, 'service');
    } finally {
      off();
    }
  });
}

export function importLink(url: string): Promise<void> {
  return run('link', 'service', async () => {
    showPreview(await bridge.methods['serviceExport.importLink']({ url: url.trim() }), 'link');
  });
}

export function applyPreview(): Promise<void> {
  return run('apply', 'apply', async () => {
    const { preview, partial } = useImportExport.getState();
    if (!preview) return;
    const result = await bridge.methods['workbook.applyImport']({
      planId: preview.planId,
      ...(partial ? { partial: true } : {}),
    });
    // The plan is spent in main: a second apply of this preview would be refused.
    useImportExport.setState({
      applied: { ...result, fileName: preview.fileName },
      undone: null,
      preview: null,
      source: null,
      partial: false,
    });
    await reloadSnapshot();
  });
}

export function undoLastImport(): Promise<void> {
  return run('undo', 'apply', async () => {
    const undone = await bridge.methods['workbook.undoImport']({});
    useImportExport.setState({ undone, applied: null });
    await reloadSnapshot();
  });
}
