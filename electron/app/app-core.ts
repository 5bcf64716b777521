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
import { PickedFiles, type PickFile } from '../files/picked-files';
import { ResponsesService } from '../responses/responses-service';
import { SyncService } from '../sync/sync-service';
import { WorkbookService, type PickSaveFile } from '../workbook/workbook-service';
import { WorkspaceService } from '../workspace/workspace-service';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embedded-sandbox';
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
}

export interface AppCore {
  handlers: BridgeHandlers;
  events: EventRelay;
  sandbox: EmbeddedSandbox;
  close(): Promise<void>;
}

export async function startAppCore(opts: AppCoreOptions): Promise<AppCore> {
  const events = new EventRelay();
  const assessmentYear = opts.assessmentYear ?? new Date().getUTCFullYear();
  const { dataDir } = opts;
  const sandbox = await startEmbeddedSandbox({ dataDir, assessmentYear });
  const secrets = opts.secrets ?? (await openSecretStore());
  const registry = await openConnectionRegistry({ dataDir, sandboxOrigin: sandbox.baseUrl });

  const session = new SessionService({
    dataDir,
    secrets,
    registry,
    events,
    localSandbox: { ensure: async () => sandbox },
    openBrowser: opts.openBrowser,
  });
  const workspaces = new WorkspaceService({ dataDir, assessmentYear, session, events });
  const sync = new SyncService({ session, workspaces, events });
  const files = new PickedFiles(opts.pickFile);
  const workbook = new WorkbookService({
    dataDir,
    assessmentYear,
    session,
    workspaces,
    files,
    events,
    pickSaveFile: opts.pickSaveFile,
  });
  const responses = new ResponsesService({
    // The same file as the workspace store: responses live beside the assets of the entity.
    workspace: () => workspaces.current,
    client: () => session.client,
    signedIn: () => session.signedIn,
    noteFailure: (error) => session.noteFailure(error),
  });
  const connections = connectionsService({
    registry,
    session,
    onSwitched: () => events.emit('workspace.changed', { reason: 'entity' }),
  });

  session.activeEntityId = () => workspaces.current?.entityId ?? null;
  session.listen({
    activated: (entities) => workspaces.reopen(entities),
    signedOut: () => workspaces.close(),
  });
  workspaces.listen({ closing: () => responses.release() });

  await session.activate(session.activeConnection);

  const handlers: BridgeHandlers = {
    'app.info': () => ({ name: 'Asset Desk', version: opts.version, host: opts.host }),
    ...session.handlers,
    ...connections.handlers,
    ...workspaces.handlers,
    ...sync.handlers,
    ...workbook.handlers,
    ...responses.handlers,
    ...files.handlers,
  };

  return {
    handlers,
    events,
    sandbox,
    async close() {
      session.close();
      workspaces.close();
      await sandbox.server.close();
    },
  };
}
