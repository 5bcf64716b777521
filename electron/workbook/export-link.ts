/**
 * An export link the service delivered (pasted by the analyst): downloaded by the service export's
 * rules (http(s) only, size-bounded), then previewed against the workspace like any workbook;
 * `applyImport` then applies the plan the analyst approved.
 */
import { downloadExportLink, type ServiceExportOptions } from '../service-export/service-export';
import type { Downloaded } from '../service-export/download';
import type { WorkspaceStore } from '../workspace/workspace-store';
import type { ImportPlan } from './import-plan';
import { previewImportFile } from './workspace-workbook';

export async function importFromExportLink(
  url: string,
  opts: Pick<ServiceExportOptions, 'downloadDir' | 'maxDownloadBytes' | 'downloadTimeoutMs' | 'signal'> & {
    store: WorkspaceStore;
    /** The workspace's file: the preview's worker reads the assets from it, off main's event loop. */
    workspaceFile?: string;
    maxImportBytes?: number;
    onProgress?: (received: number, total: number | null) => void;
  },
): Promise<Downloaded & { plan: ImportPlan }> {
  const downloaded = await downloadExportLink(url, opts);
  const plan = await previewImportFile(opts.store, downloaded.file, {
    ...(opts.maxImportBytes ? { maxBytes: opts.maxImportBytes } : {}),
    ...(opts.workspaceFile ? { workspaceFile: opts.workspaceFile } : {}),
  });
  return { ...downloaded, plan };
}
