/**
 * The app behind the bridge, for any host (Electron's window, the browser host): the composition
 * root. Each concern is a service owning its state and its slice of the bridge; this file builds
 * them, wires what they hear of each other, and proves at compile time (the `BridgeHandlers` type
 * below) that every contract method has exactly one handler. Everything here is plain Node.
 */
import { openConnectionRegistry } from '../auth/connections';
import { connectionsService } from '../auth/connections-service';
import { openSecretStore, type SecretStore, type SecretStoreStatus } from '../auth/secret-store';
import { SessionService } from '../auth/session-service';
import type { BridgeHandlers } from '../bridge/handlers';
import { BrowserTransfers } from '../files/browser-transfers';
import { PickedFiles, type PickFile } from '../files/picked-files';
import { MetersService } from '../meters/meters-service';
import { historyService } from '../history/history-service';
import { ensurePrivateDir } from '../storage/private-files';
import { ResponsesService } from '../responses/responses-service';
import { SyncService } from '../sync/sync-service';
import { portfolioExport } from '../workbook/portfolio-export';
import { WorkbookService, type PickSaveFile } from '../workbook/workbook-service';
import { WorkspaceService } from '../workspace/workspace-service';
import { unsentCount } from '../sync/pending-work';
import { EmbeddedSandbox, type SpawnSandbox } from './embedded-sandbox';
import { EventRelay } from './event-relay';

export interface AppCoreOptions {
  dataDir: string;
  version: string;
  host: 'electron' | 'browser';
  /** Defaults to the current year, as the service's assessment runs. */
  assessmentYear?: number;
  /** Injected where the caller already probed the keychain. */
  secrets?: { store: SecretStore; status: SecretStoreStatus };
  /** The system browser, for OAuth sign-in (Electron: shell.openExternal). */
  openBrowser?: (url: string) => Promise<void>;
  pickSaveFile?: PickSaveFile;
  pickFile?: PickFile;
  /** Starts the embedded sandbox's process (Electron: a utility process); a Node child by default. */
  spawnSandbox?: SpawnSandbox;
}

export interface AppCore {
  /**
   * A window may load and call before the session is up: calls on the workspace wait for `ready`,
   * calls that need the service for `connected`.
   */
  handlers: BridgeHandlers;
  events: EventRelay;
  sandbox: EmbeddedSandbox;
  /** The browser host without injected dialogs: uploads and downloads (its routes serve them). */
  transfers?: BrowserTransfers;
  /** The workspace last worked on is open from disk (no network yet). */
  ready: Promise<void>;
  /** The active connection entered (for the local sandbox: its process started), lists refreshed. */
  connected: Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the services and starts entering the active connection without waiting for it, so a host
 * can open its window at once; `ready` says when the workspace is open, `connected` when the
 * session is up.
 */
export async function startAppCore(opts: AppCoreOptions): Promise<AppCore> {
  const events = new EventRelay();
  const assessmentYear = opts.assessmentYear ?? new Date().getUTCFullYear();
  const { dataDir } = opts;
  // Workspaces, the sandbox's data, uploads and exports live here: for this user only, whichever
  // host runs the core (the browser host's data folder was left 0755 under umask 022).
  ensurePrivateDir(dataDir);
  const sandbox = new EmbeddedSandbox({ dataDir, assessmentYear, spawn: opts.spawnSandbox });
  // The second built-in connection: the same sandbox speaking the real service's names, started
  // (its own process) only when that connection is first used.
  const sandboxRealNames = new EmbeddedSandbox({
    dataDir,
    assessmentYear,
    spawn: opts.spawnSandbox,
    realNames: true,
  });
  const secrets = opts.secrets ?? (await openSecretStore());
  const registry = await openConnectionRegistry({ dataDir });

  const session = new SessionService({
    dataDir,
    secrets,
    registry,
    events,
    localSandbox: sandbox,
    localSandboxRealNames: sandboxRealNames,
    openBrowser: opts.openBrowser,
  });
  const workspaces = new WorkspaceService({
    dataDir,
    assessmentYear,
    session,
    events,
    countUnsent: unsentCount,
  });
  const sync = new SyncService({ session, workspaces, events });
  const files = new PickedFiles(opts.pickFile);
  // A browser has no dialogs main can open: files come as uploads and exports leave as downloads.
  const transfers =
    opts.host === 'browser' && !opts.pickFile && !opts.pickSaveFile
      ? new BrowserTransfers(dataDir, files)
      : undefined;
  await transfers?.open();
  const pickSaveFile: PickSaveFile | undefined = transfers
    ? (request) => transfers.pickSaveFile(request)
    : opts.pickSaveFile;
  const offerDownload = transfers ? (file: string, name: string) => transfers.offer(file, name) : undefined;
  const workbook = new WorkbookService({
    dataDir,
    assessmentYear,
    session,
    workspaces,
    files,
    events,
    pickSaveFile,
    offerDownload,
  });
  const responses = new ResponsesService({
    // The same file as the workspace store: responses live beside the assets of the entity.
    workspace: () => workspaces.current,
    client: () => session.client,
    signedIn: () => session.signedIn,
    noteFailure: (error) => session.noteFailure(error),
  });
  const meters = new MetersService({
    workspace: () => workspaces.require().store,
    files,
    idName: () => session.client.assetIds.name,
    assessmentYear,
  });
  const connections = connectionsService({
    registry,
    session,
    onSwitched: () => events.emit('workspace.changed', { reason: 'entity' }),
  });

  session.activeEntityId = () => workspaces.current?.entityId ?? null;
  session.workspaceProblem = () => workspaces.problem;
  session.listen({
    restored: (entities) => workspaces.restore(entities),
    activated: (entities) => workspaces.reopen(entities),
    signedOut: () => workspaces.close(),
  });
  workspaces.listen({ closing: () => responses.release() });

  // The workspace opens from disk first, so the window draws its grid while the sandbox starts and
  // the service answers; calls that need the service wait for that second part.
  const ready = session.restore();
  // And the window's first reading goes before the session: the sandbox's process, the lists and a
  // first pull would share this machine's cores with it (issue 33: begun once the window drew its
  // first page, they held its last rows back by a second or more). A window that has not asked for
  // the workspace within `connectAfterMs` is not waited for, nor one still reading after `readAllMs`.
  let windowAsked: () => void = () => undefined;
  let windowRead: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (windowAsked = resolve));
  const read = new Promise<void>((resolve) => (windowRead = resolve));
  const connected = ready
    .then(() => (workspaces.current ? untilWindowRead(asked, read) : undefined))
    .then(() => session.activate(session.activeConnection))
    .then(() => events.emit('session.changed', { connectionId: session.activeConnection.id }));

  const handlers: BridgeHandlers = afterReady(ready, connected, {
    'app.info': () => ({
      name: 'Asset Desk',
      version: opts.version,
      host: opts.host,
      fileDialogs: transfers === undefined,
    }),
    ...session.handlers,
    ...connections.handlers,
    ...workspaces.handlers,
    // The window has every row once it says so (it has drawn the snapshot's last page), or once
    // its snapshot was whole.
    'workspace.snapshot': async (args) => {
      windowAsked();
      const snapshot = await workspaces.handlers['workspace.snapshot'](args);
      if (snapshot.next === null) windowRead();
      return snapshot;
    },
    'app.workspaceShown': () => {
      windowRead();
      return true;
    },
    ...sync.handlers,
    ...workbook.handlers,
    ...responses.handlers,
    ...meters.handlers,
    ...files.handlers,
    ...portfolioExport({ pickSaveFile, offerDownload }).handlers,
    ...historyService({ store: () => workspaces.require().store, pickSaveFile, offerDownload }).handlers,
  });

  return {
    handlers,
    events,
    sandbox,
    ...(transfers ? { transfers } : {}),
    ready,
    connected,
    async close() {
      await connected.catch(() => undefined);
      session.close();
      workspaces.close();
      await Promise.all([sandbox.close(), sandboxRealNames.close()]);
      // Uploads and unfetched exports are this run's alone: none outlives it.
      await transfers?.close();
    },
  };
}

const connectAfterMs = 2_000;
const readAllMs = 10_000;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Until the window has read every row (see `startAppCore`'s start order), or it is late. */
async function untilWindowRead(asked: Promise<void>, read: Promise<void>): Promise<void> {
  const asking = await Promise.race([asked.then(() => true), delay(connectAfterMs).then(() => false)]);
  if (asking) await Promise.race([read, delay(readAllMs)]);
}

/** What works from disk alone, while the session connects: the grids, edits, undo, the workbook. */
function fromDisk(method: string): boolean {
  return (
    [
      'app.info',
      'app.workspaceShown',
      'session.get',
      'sync.review',
      'portfolio.export',
      'files.pick',
    ].includes(method) ||
    method.startsWith('workspace.') ||
    method.startsWith('meters.') ||
    method.startsWith('workbook.')
  );
}

/** Each handler, run once the workspace is open (`ready`) or, when it needs the service, connected. */
function afterReady(
  ready: Promise<void>,
  connected: Promise<void>,
  handlers: BridgeHandlers,
): BridgeHandlers {
  const wrapped: Record<string, (args: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers) as [string, (args: unknown) => unknown][]) {
    const gate = fromDisk(name) ? ready : connected;
    wrapped[name] = async (args) => {
      await gate;
      return handler(args);
    };
  }
  return wrapped as unknown as BridgeHandlers;
}
