/**
 * The one contract of the bridge between the renderer and its host (Electron main, or the browser
 * host). Preload, main's handler registration, the browser host and the renderer's HTTP client all
 * iterate `bridgeMethods` / `bridgeEvents`, so adding a method here is the only way to add one.
 *
 * Arguments cross a trust boundary (a compromised renderer can send anything), so each method carries
 * a zod schema that hosts parse with before a handler sees the value. Results flow the other way and
 * are only typed.
 */
import { z } from 'zod';
import {
  event,
  method,
  noArgs,
  localId,
  connectionId,
  historyLabel,
  handSource,
  scalar,
  docPath,
  entryCollection,
  docFields,
  responseId,
  indicatorVariable,
  indicatorValue,
} from './contract-kit';
import type {
  AppInfo,
  AssetPage,
  OAuthFinished,
  OAuthStart,
  PickedFile,
  SessionState,
  WorkspaceSnapshot,
} from './types';
import type {
  AssetView,
  DryRunRow,
  EditOutcome,
  HistoryOutcome,
  HistoryState,
  PendingReview,
  SyncProgress,
  SyncReport,
} from '../sync/types';
import type {
  ImportPreview,
  ImportResult,
  ServiceExportProgressView,
  ServiceExportView,
} from '../workbook/import-export-types';
import type {
  EvidenceItemView,
  ResponseDetail,
  ResponseListItem,
  ResponseValueView,
  ResponsesSyncReport,
} from '../responses/types';
import { metersArgs } from '../meters/bridge-args';
import type {
  DerivedMark,
  FiguresPreview,
  MeterWriteResult,
  MetersListing,
  ReadingsImportPreview,
  ReadingsImportResult,
} from '../meters/views';
import type { CellHistoryEntry } from '../history/change-source';
import { historyArgs } from '../history/bridge-args';
import { portfolioArgs } from '../portfolio/bridge-args';
import type { ImportDetail, ImportSummary } from '../history/import-record';

export type { MeterWriteResult } from '../meters/views';
export type { AppInfo, OAuthFinished, OAuthStart, SessionState, WorkspaceSnapshot } from './types';

export const bridgeMethods = {
  'app.info': method<AppInfo>()(noArgs),
  /**
   * The window shows every asset of the workspace it asked for (or stopped reading them, and says
   * why): main starts what waited for it, the session (electron/app/app-core.ts, the start order).
   */
  'app.workspaceShown': method<boolean>()(noArgs),
  'session.get': method<SessionState>()(noArgs),
  'session.selectEntity': method<SessionState>()(
    z.object({ entityId: z.number().int().positive() }).strict(),
  ),
  /** A custom connection: the real service's sandbox or production. URLs are checked in main. */
  'connections.add': method<SessionState>()(
    z
      .object({
        name: z.string().min(1).max(80),
        baseUrl: z.string().min(1).max(500),
        portalUrl: z.string().min(1).max(500),
        authUrl: z.string().min(1).max(500),
        /** Stated by the real service's preset: the name its service gives the asset id. */
        assetIdName: z.enum(['gresb_asset_id', 'service_asset_id']).optional(),
      })
      .strict(),
  ),
  'connections.select': method<SessionState>()(z.object({ connectionId }).strict()),
  'connections.remove': method<SessionState>()(z.object({ connectionId }).strict()),
  'auth.signInWithToken': method<SessionState>()(
    z
      .object({
        connectionId,
        token: z.string().min(8).max(4_096),
        expiresOn: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
      })
      .strict(),
  ),
  'auth.signOut': method<SessionState>()(z.object({ connectionId }).strict()),
  /** Opens the system browser on the portal's authorize page; the result comes as auth.oauthFinished. */
  'auth.startOAuth': method<OAuthStart>()(
    z
      .object({
        connectionId,
        redirect: z.enum(['loopback', 'oob']).optional(),
        /** For a custom connection: the OAuth application the user registered in its portal. */
        clientId: z.string().min(1).max(200).optional(),
        clientSecret: z.string().min(1).max(500).optional(),
      })
      .strict(),
  ),
  'auth.submitOAuthCode': method<boolean>()(
    z.object({ flowId: z.string().min(1).max(64), code: z.string().min(1).max(500) }).strict(),
  ),
  'auth.cancelOAuth': method<boolean>()(z.object({ flowId: z.string().min(1).max(64) }).strict()),
  /**
   * The open workspace. With `limit`, its first assets only: the window draws them while it reads
   * the rest with `workspace.assets` (a 100k-row workspace is 30 MB of views); with `laterPages`,
   * where each later page of about one size, at most that, starts (`pageStarts`).
   */
  'workspace.snapshot': method<WorkspaceSnapshot>()(
    z
      .object({
        limit: z.number().int().min(1).max(1_000_000).optional(),
        laterPages: z.number().int().min(1).max(1_000_000).optional(),
      })
      .strict(),
  ),
  /**
   * The assets after a snapshot's (or page's) `next`, at most `limit` of them; with `through`, none
   * past that row (the next of a snapshot's `pageStarts`: the window asks for every page at once).
   */
  'workspace.assets': method<AssetPage>()(
    z
      .object({
        after: z.number().int().min(0),
        limit: z.number().int().min(1).max(1_000_000),
        through: z.number().int().min(0).optional(),
      })
      .strict(),
  ),
  /**
   * Cell edits as one undo step: the assets as they are now and main's history. `source`: what the
   * analyst's hand did (typed by default); main labels the step from it ("paste of 9 cells").
   */
  'workspace.edit': method<EditOutcome>()(
    z
      .object({
        edits: z
          .array(z.object({ localId, path: docPath, value: scalar }).strict())
          .min(1)
          .max(100_000),
        source: handSource.optional(),
        /** A named action's label ("add year 2024") instead of main's cells label. */
        label: historyLabel.optional(),
      })
      .strict(),
  ),
  'workspace.createAsset': method<AssetView>()(z.object({ fields: docFields.optional() }).strict()),
  /** New assets with their cell edits and edits of others, in one transaction and one undo step. */
  'workspace.createAssets': method<EditOutcome>()(
    z
      .object({
        rows: z
          .array(
            z
              .object({
                fields: docFields,
                edits: z.array(z.object({ path: docPath, value: scalar }).strict()).max(100_000),
              })
              .strict(),
          )
          .min(1)
          .max(20_000),
        edits: z.array(z.object({ localId, path: docPath, value: scalar }).strict()).max(100_000),
        source: handSource.optional(),
        /** A named action's label; main labels it otherwise ("adding an asset", "paste of 9 cells"). */
        label: historyLabel.optional(),
      })
      .strict(),
  ),
  /** Undo and redo live in main (the workspace's journal); the renderer keeps no history. */
  'workspace.undo': method<HistoryOutcome>()(noArgs),
  'workspace.redo': method<HistoryOutcome>()(noArgs),
  'workspace.history': method<HistoryState>()(noArgs),
  /** The workspace whose file is damaged: the file moved aside unchanged, the entity pulled again. */
  'workspace.rebuild': method<SessionState>()(noArgs),
  'workspace.deleteAssets': method<string[]>()(
    z.object({ localIds: z.array(localId).min(1).max(100_000) }).strict(),
  ),
  'workspace.revertAsset': method<AssetView | null>()(z.object({ localId }).strict()),
  'workspace.addEntry': method<AssetView>()(
    z.object({ localId, collection: entryCollection, fields: docFields }).strict(),
  ),
  'workspace.removeEntry': method<AssetView>()(
    z.object({ localId, collection: entryCollection, key: z.string().min(1).max(80) }).strict(),
  ),
  'workspace.resolveConflict': method<AssetView | null>()(
    z.object({ localId, path: docPath, choice: z.enum(['mine', 'theirs']) }).strict(),
  ),
  'workspace.resolveRemoteDeletion': method<AssetView | null>()(
    z.object({ localId, choice: z.enum(['mine', 'theirs']) }).strict(),
  ),
  /** A cell's history, newest first: each value with its source and time (issue 31). */
  'workspace.cellHistory': method<CellHistoryEntry[]>()(z.object({ localId, path: docPath }).strict()),
  /** A portfolio answer's history, newest first. */
  'workspace.answerHistory': method<CellHistoryEntry[]>()(
    z.object({ responseId, variable: indicatorVariable }).strict(),
  ),
  /** A meter's or a reading's cell history (the Meters tab), newest first. */
  'workspace.meterCellHistory': method<CellHistoryEntry[]>()(historyArgs.meterCellHistory),
  /**
   * The given assets' cells whose value came from the analyst's hand, by asset (none: left out); the
   * grid marks every other cell with a value. Asked for the rows drawn only.
   */
  'workspace.handCells': method<Record<string, string[]>>()(historyArgs.handCells),
  /**
   * Every change of a period (epoch ms, `from` inclusive, `to` exclusive) or of the given assets, as
   * an audit log (CSV or XLSX) in main's save dialog; null when cancelled.
   */
  'workspace.exportAuditLog': method<{ fileName: string; changes: number; downloadId?: string } | null>()(
    historyArgs.exportAuditLog,
  ),
  /** An applied import's record (the file is gone): what it changed, its cell highlighted if given. */
  'workspace.importRecord': method<ImportDetail>()(historyArgs.importRecord),
  /** The workspace's latest imports, newest first (the Import dialog's "Recent imports"). */
  'workspace.recentImports': method<ImportSummary[]>()(noArgs),
  'sync.review': method<PendingReview>()(noArgs),
  'sync.run': method<SyncReport>()(
    z
      .object({
        mode: z.enum(['strict', 'always']).optional(),
        /** Service ids the analyst confirmed for deletion; any other pending delete stays pending. */
        confirmDeletes: z.array(z.number().int().positive()).max(100_000).optional(),
        /** Held-back assets to send anyway, with their errors (always_create / always_update). */
        sendAnyway: z.array(localId).max(100_000).optional(),
      })
      .strict(),
  ),
  'sync.cancel': method<boolean>()(noArgs),
  'sync.dryRun': method<DryRunRow[]>()(noArgs),
  /** The entity's portfolio responses (the first call reads them from the service). */
  'responses.list': method<ResponseListItem[]>()(noArgs),
  'responses.open': method<ResponseDetail>()(z.object({ responseId }).strict()),
  /** Stored offline and sent by responses.sync; refused for a historical (read-only) response. */
  'responses.setValue': method<ResponseValueView>()(
    z.object({ responseId, variable: indicatorVariable, value: indicatorValue }).strict(),
  ),
  'responses.resolveConflict': method<ResponseValueView>()(
    z.object({ responseId, variable: indicatorVariable, choice: z.enum(['mine', 'theirs']) }).strict(),
  ),
  'responses.revertValue': method<ResponseValueView>()(
    z.object({ responseId, variable: indicatorVariable }).strict(),
  ),
  'responses.sync': method<ResponsesSyncReport>()(noArgs),
  /** The Portfolio view's tables as an XLSX workbook (a tab each) in main's save dialog; null when cancelled. */
  'portfolio.export': method<{ fileName: string; tables: number; downloadId?: string } | null>()(
    portfolioArgs.export,
  ),
  /** Writes the workspace to a file chosen in main's save dialog (`sourcesTab`: an .xlsx's); null: cancelled. */
  'workbook.export': method<{ fileName: string; assets: number; downloadId?: string } | null>()(
    z.object({ format: z.enum(['xlsx', 'csv']), sourcesTab: z.boolean().optional() }).strict(),
  ),
  /**
   * Reads a picked workbook (files.pick) into a preview; nothing changes until it is applied. Given
   * an earlier preview's `planId` instead, reads its file again; `matchByName` matches blank-ID rows
   * named like one synced asset to it (the preview's offer) instead of making them problems.
   */
  'workbook.previewImport': method<ImportPreview>()(
    z.union([
      z.object({ fileId: z.string().min(1).max(64), matchByName: z.boolean().optional() }).strict(),
      z.object({ planId: z.string().min(1).max(64), matchByName: z.boolean() }).strict(),
    ]),
  ),
  'workbook.applyImport': method<ImportResult>()(
    z.object({ planId: z.string().min(1).max(64), partial: z.boolean().optional() }).strict(),
  ),
  'workbook.undoImport': method<{ removed: number; restored: number }>()(noArgs),
  /** The service's own export, delivered to a loopback callback (or to a public URL the user set). */
  'serviceExport.start': method<ServiceExportView>()(
    z.object({ publicCallbackUrl: z.string().url().max(2_000).optional() }).strict(),
  ),
  /** A link the service delivered to the public callback URL, pasted by the user. */
  'serviceExport.importLink': method<ImportPreview>()(
    z.object({ url: z.string().url().max(4_000) }).strict(),
  ),
  /** Main's own file dialog; the chosen path stays in main, the renderer gets an id and a name. */
  'files.pick': method<PickedFile | null>()(z.object({ purpose: z.enum(['workbook', 'readings']) }).strict()),
  /**
   * Evidence for an indicator, as the service takes it: a link with its type (F: a file hosted at
   * that URL, H: a web page), never an upload. A path on this computer is refused with what to do.
   */
  'responses.addEvidence': method<EvidenceItemView>()(
    z
      .object({
        responseId,
        variable: indicatorVariable,
        evidenceType: z.enum(['F', 'H']),
        /** Checked in main, so a pasted local path gets the plain explanation rather than a schema error. */
        url: z.string().min(1).max(4_000),
        notes: z.string().max(4_000).optional(),
        share: z.boolean().optional(),
      })
      .strict(),
  ),
  // Meters and readings (issue 32, electron/meters/): local documents, undone by workspace.undo. A
  // write answers the assets whose derived annual cells it changed (`views`).
  'meters.list': method<MetersListing & { truncated: boolean }>()(metersArgs.list),
  'meters.saveMeters': method<MeterWriteResult>()(metersArgs.saveMeters),
  'meters.edit': method<MeterWriteResult>()(metersArgs.edit),
  'meters.addReadings': method<MeterWriteResult>()(metersArgs.addReadings),
  'meters.delete': method<MeterWriteResult>()(metersArgs.delete),
  /** A picked readings CSV (or an earlier preview with a corrected mapping or day/month order). */
  'meters.previewImport': method<ReadingsImportPreview>()(metersArgs.previewImport),
  'meters.applyImport': method<ReadingsImportResult & MeterWriteResult>()(metersArgs.applyImport),
  /** The derived annual cells of assets against their copies (the "Apply meter figures" preview). */
  'meters.figures': method<FiguresPreview>()(metersArgs.figures),
  'meters.applyFigures': method<MeterWriteResult>()(metersArgs.applyFigures),
  /** What meters last wrote into assets' cells (all assets without `assetIds`): the mark and its hover. */
  'meters.derived': method<DerivedMark[]>()(metersArgs.derived),
} as const;

export const bridgeEvents = {
  'app.notice': event<{ level: 'info' | 'warning' | 'error'; message: string }>(),
  'sync.progress': event<SyncProgress>(),
  /** The session was (re)established at start: its sign-in, entities and online state are known. */
  'session.changed': event<{ connectionId: string }>(),
  /** The service answered again after being unreachable (the header shows online). */
  'session.online': event<{ online: boolean }>(),
  /**
   * Assets changed by something other than the renderer's own calls (a pull, an import, another
   * entity, a sync resumed by itself after sign-in): the one reason the window reads the workspace
   * again (a sync the window asked for answers with the views its push changed).
   */
  'workspace.changed': event<{ reason: 'pull' | 'push' | 'import' | 'entity' }>(),
  'auth.signInRequired': event<{ connectionId: string; reason: 'unauthorized' | 'expired' }>(),
  'auth.oauthFinished': event<OAuthFinished>(),
  'serviceExport.progress': event<ServiceExportProgressView>(),
} as const;

export type BridgeMethods = typeof bridgeMethods;
export type BridgeMethodName = keyof BridgeMethods;
export type BridgeEvents = typeof bridgeEvents;
export type BridgeEventName = keyof BridgeEvents;

export type MethodArgs<N extends BridgeMethodName> = z.input<BridgeMethods[N]['args']>;
export type ParsedArgs<N extends BridgeMethodName> = z.output<BridgeMethods[N]['args']>;
export type MethodResult<N extends BridgeMethodName> = NonNullable<BridgeMethods[N]['result']>['value'];
export type EventPayload<N extends BridgeEventName> = NonNullable<BridgeEvents[N]['payload']>;

export const bridgeMethodNames = Object.keys(bridgeMethods) as BridgeMethodName[];
export const bridgeEventNames = Object.keys(bridgeEvents) as BridgeEventName[];

/** What the renderer sees as `window.assetDesk`, whichever host it runs in. */
export interface BridgeApi {
  methods: { [N in BridgeMethodName]: (args: MethodArgs<N>) => Promise<MethodResult<N>> };
  on<N extends BridgeEventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** IPC channel names; one prefix per direction so a listener can never be mistaken for a handler. */
export const invokeChannel = (name: BridgeMethodName): string => `bridge:invoke:${name}`;
export const eventChannel = (name: BridgeEventName): string => `bridge:event:${name}`;

export function isBridgeMethodName(value: unknown): value is BridgeMethodName {
  return typeof value === 'string' && Object.hasOwn(bridgeMethods, value);
}

export function isBridgeEventName(value: unknown): value is BridgeEventName {
  return typeof value === 'string' && Object.hasOwn(bridgeEvents, value);
}

/** Errors cross the bridge as plain data: Electron strips custom error fields, HTTP has no classes. */
export interface BridgeErrorBody {
  code: 'bad_request' | 'not_found' | 'forbidden' | 'internal';
  message: string;
}
