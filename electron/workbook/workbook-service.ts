/**
 * The workspace as a spreadsheet: export (XLSX or CSV through the host's save dialog), import of a
 * chosen file through a preview the user applies or not, undo of the last import, and the service's
 * own export delivered to a callback. Its slice of the bridge: `workbook.*` and `serviceExport.*`.
 */
import { basename, join } from 'node:path';
import type { ImportPreview } from '../../shared/workbook/import-export-types';
import type { SessionService } from '../auth/session-service';
import { badRequest, notFound } from '../../shared/errors';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import { runServiceExport } from '../service-export/service-export';
import { importFromExportLink } from './export-link';
import type { PickedFiles } from '../files/picked-files';
import { ApiError } from '../service-client/errors';
import type { WorkspaceService } from '../workspace/workspace-service';
import { applyImport, undoImport } from './apply-import';
import type { ImportPlan } from './import-plan';
import { exportWorkspace, previewImportFile, replanImport } from './workspace-workbook';

/** The host's save dialog (Electron: dialog.showSaveDialog); undefined when cancelled. */
export type PickSaveFile = (request: {
  defaultName: string;
  extensions: string[];
}) => Promise<string | undefined>;

export type WorkbookHandlers = Pick<
  BridgeHandlers,
  | 'workbook.export'
  | 'workbook.previewImport'
  | 'workbook.applyImport'
  | 'workbook.undoImport'
  | 'serviceExport.start'
  | 'serviceExport.importLink'
>;

/** Previews kept for their apply call: the latest few. */
const keptPlans = 5;

export class WorkbookService {
  private readonly plans = new Map<string, ImportPlan>();
  private readonly downloadDir: string;

  constructor(
    private readonly deps: {
      dataDir: string;
      assessmentYear: number;
      session: SessionService;
      workspaces: WorkspaceService;
      files: PickedFiles;
      events: EventSink;
      pickSaveFile?: PickSaveFile | undefined;
      /** The browser host: the written file becomes a one-time download; answers its id. */
      offerDownload?: ((file: string, name: string) => string) | undefined;
    },
  ) {
    this.downloadDir = join(deps.dataDir, 'exports');
    // A preview belongs to the workspace it was made against: applied to another it would create
    // its new rows there.
    deps.workspaces.listen({ closing: () => this.plans.clear() });
  }

  /** Keeps a plan for its apply call and gives the renderer the part it shows. */
  private keep(plan: ImportPlan): ImportPreview {
    this.plans.set(plan.id, plan);
    while (this.plans.size > keptPlans) this.plans.delete(this.plans.keys().next().value as string);
    return toPreview(plan);
  }

  /** A call to the service: its failure also tells the session (offline, sign-in needed). */
  private async throughService<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApiError) this.deps.session.noteFailure(error);
      throw error;
    }
  }

  readonly handlers: WorkbookHandlers = {
    'workbook.export': async ({ format, sourcesTab }) => {
      const { store, file: workspaceFile } = this.deps.workspaces.require();
      if (!this.deps.pickSaveFile) throw badRequest('This host has no save dialog.');
      const offerDownload = this.deps.offerDownload;
      const entity = store.entity();
      const defaultName = `${(entity?.name ?? 'assets').replace(/[^\w.-]+/g, ' ').trim()} ${new Date().toISOString().slice(0, 10)}.${format}`;
      const file = await this.deps.pickSaveFile({ defaultName, extensions: [format] });
      if (file === undefined) return null;
      // Off main's event loop: the worker reads the workspace's file and writes the book.
      const written = await exportWorkspace(store, file, {
        format,
        fallbackYear: this.deps.assessmentYear - 1,
        workspaceFile,
        sourcesTab: format === 'xlsx' && sourcesTab === true,
      });
      if (offerDownload) {
        const downloadId = offerDownload(written.file, defaultName);
        return { fileName: defaultName, assets: written.assets, downloadId };
      }
      return { fileName: basename(written.file), assets: written.assets };
    },
    'workbook.previewImport': async (args) => {
      const { store, file: workspaceFile } = this.deps.workspaces.require();
      const matchByName = args.matchByName ?? false;
      if ('planId' in args) {
        // The offer taken (or undone): the same rows planned again; the new plan takes the old one's place.
        const earlier = this.plans.get(args.planId);
        if (!earlier?.parsed) throw notFound('That preview is gone: read the file again.');
        const plan = await replanImport(
          store,
          { ...earlier, parsed: earlier.parsed },
          { matchByName, workspaceFile },
        );
        // Taken back, the offer stands again: the plan by name keeps what was read too.
        plan.parsed = earlier.parsed;
        this.plans.delete(args.planId);
        return this.keep(plan);
      }
      const { fileId } = args;
      const file = this.deps.files.path(fileId);
      const name = this.deps.files.name(fileId);
      try {
        const plan = await previewImportFile(store, file, { workspaceFile, matchByName });
        plan.source.name = name;
        return this.keep(plan);
      } finally {
        // The plan holds what was read: an uploaded copy is no longer needed, read or refused.
        await this.deps.files.used(fileId);
      }
    },
    'workbook.applyImport': async ({ planId, partial }) => {
      const { store } = this.deps.workspaces.require();
      const plan = this.plans.get(planId);
      if (!plan) throw notFound('That preview is gone: read the file again.');
      const applied = applyImport(store, plan, { partial: partial ?? false });
      this.plans.delete(planId);
      this.deps.events.emit('workspace.changed', { reason: 'import' });
      return {
        importId: applied.importId,
        created: applied.created.length,
        updated: applied.updated.length,
        skipped: applied.skipped,
      };
    },
    'workbook.undoImport': async () => {
      const { store } = this.deps.workspaces.require();
      const undone = undoImport(store);
      this.deps.events.emit('workspace.changed', { reason: 'import' });
      return undone;
    },
    'serviceExport.start': async ({ publicCallbackUrl }) => {
      const { store, entityId, file: workspaceFile } = this.deps.workspaces.require();
      const result = await this.throughService(() =>
        runServiceExport({
          client: this.deps.session.client,
          entityId,
          downloadDir: this.downloadDir,
          publicCallbackUrl: publicCallbackUrl ?? null,
          onProgress: (progress) => this.deps.events.emit('serviceExport.progress', progress),
        }),
      );
      if (result.kind === 'awaiting-link') return result;
      const preview = this.keep(await previewImportFile(store, result.file, { workspaceFile }));
      return { kind: 'downloaded', fileName: basename(result.file), bytes: result.bytes, preview };
    },
    'serviceExport.importLink': async ({ url }) => {
      const { store, file: workspaceFile } = this.deps.workspaces.require();
      const { plan } = await importFromExportLink(url, {
        store,
        workspaceFile,
        downloadDir: this.downloadDir,
      });
      return this.keep(plan);
    },
  };
}

function toPreview(plan: ImportPlan): ImportPreview {
  return {
    planId: plan.id,
    fileName: plan.source.name ?? basename(plan.source.file),
    format: plan.source.format,
    counts: plan.counts,
    nameMatches: plan.nameMatches,
    matchByName: plan.matchByName,
    canApply: plan.canApply,
    issues: plan.issues,
    rows: plan.rows.map(({ status, localId, serviceAssetId, name, changes, errors }) => ({
      status,
      localId,
      serviceAssetId,
      name,
      changes,
      errors,
    })),
  };
}
