import { randomUUID } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import {
  areaUnitFromName,
  entitySchema,
  listsContext,
  type Entity,
  type ValidationContext,
} from '../../shared/domain';
import type {
  EntitySummary,
  ReferenceData,
  SessionState,
  WorkspaceSnapshot,
} from '../../shared/bridge/types';
import { entryKey, type AssetDoc } from '../../shared/sync/asset-doc';
import type { PushMode, SyncReport } from '../../shared/sync/types';
import type { ImportPreview } from '../../shared/exchange/types';
import { connectionFolder } from './paths';
import {
  customConnectionInputSchema,
  localSandboxId,
  openConnectionRegistry,
  type Connection,
  type ConnectionRegistry,
} from '../auth/connections';
import { AuthError } from '../auth/errors';
import { startOAuthLogin, type OAuthLogin } from '../auth/oauth-login';
import { checkPastedToken } from '../auth/partner-token';
import {
  openSecretStore,
  type SecretStore,
  type SecretStoreStatus,
  type StoredToken,
} from '../auth/secret-store';
import { expiryState, watchExpiry } from '../auth/token-lifecycle';
import { grantableScopes } from '../sandbox/auth/scopes';
import { BridgeError } from '../bridge/dispatch';
import type { BridgeHandlers } from '../bridge/handlers';
import { ApiError } from '../sync/api-errors';
import { SubmissionApiClient } from '../sync/api-client';
import { ResponsesService } from '../responses/responses-service';
import { SyncEngine } from '../sync/sync-engine';
import { WorkspaceStore } from '../workspace/workspace-store';
import { readReference, referenceKey, refreshReference } from '../workspace/reference-lists';
import { importFromExportLink, runServiceExport } from '../exchange/service-export';
import { applyImport, undoImport } from '../workbook/apply-import';
import type { ImportPlan } from '../workbook/import-plan';
import { exportWorkspace, previewImportFile } from '../workbook/workspace-exchange';
import { toAssetView, toReview } from './asset-views';
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
  /** The host's save dialog (Electron: dialog.showSaveDialog); undefined when cancelled. */
  pickSaveFile?: (request: { defaultName: string; extensions: string[] }) => Promise<string | undefined>;
  /** The host's open-file dialog (Electron: dialog.showOpenDialog); undefined when cancelled. */
  pickFile?: (request: { purpose: 'workbook'; extensions: string[] }) => Promise<string | undefined>;
}

export interface AppCore {
  handlers: BridgeHandlers;
  events: EventRelay;
  sandbox: EmbeddedSandbox;
  close(): Promise<void>;
}

interface OpenWorkspace {
  entityId: number;
  store: WorkspaceStore;
  engine: SyncEngine;
}

const pickExtensions: Record<'workbook', string[]> = {
  workbook: ['xlsx', 'csv'],
};

/**
 * The app behind the bridge, for any host: the embedded sandbox, the connections and their secrets,
 * the workspace of the selected entity and its sync. Everything here is plain Node.
 */
export async function startAppCore(opts: AppCoreOptions): Promise<AppCore> {
  const events = new EventRelay();
  const assessmentYear = opts.assessmentYear ?? new Date().getUTCFullYear();
  const sandbox = await startEmbeddedSandbox({ dataDir: opts.dataDir, assessmentYear });
  const secrets = opts.secrets ?? (await openSecretStore());
  const registry: ConnectionRegistry = await openConnectionRegistry({
    dataDir: opts.dataDir,
    sandboxOrigin: sandbox.baseUrl,
  });
  await secrets.store.save(localSandboxId, {
    accessToken: sandbox.token,
    kind: 'sandbox',
    scopes: [...grantableScopes],
    expiresAt: null,
    obtainedAt: new Date().toISOString(),
  });

  let connection: Connection = registry.active();
  let token: StoredToken | null = null;
  let client = newClient(connection);
  let entities: Entity[] = [];
  let online = true;
  let paused = false;
  let problem: string | undefined;
  let workspace: OpenWorkspace | undefined;
  let running: AbortController | undefined;
  const oauthFlows = new Map<string, OAuthLogin>();
  /** Paths the user chose in main's dialog, by the id the renderer holds instead. */
  const pickedFiles = new Map<string, string>();
  /** Import previews waiting for the user's go, by id (only the latest few are kept). */
  const plans = new Map<string, ImportPlan>();
  const downloadDir = join(opts.dataDir, 'exports');
  let stopExpiryWatch: (() => void) | undefined;
  /** A sync stopped by a refused token resumes by itself once the user has signed in again. */
  let resumeAfterSignIn: PushMode | undefined;

  const responses = new ResponsesService({
    // The same file as the workspace store: responses live beside the assets of the entity.
    workspace: () =>
      workspace && {
        entityId: workspace.entityId,
        file: workspaceFile(connection.id, workspace.entityId),
      },
    client: () => client,
    signedIn: () => token !== null,
    noteFailure: (error) => noteFailure(error),
  });

  function workspaceFile(connectionId: string, entityId: number): string {
    return join(connectionFolder(opts.dataDir, connectionId), `entity-${entityId}.sqlite`);
  }

  function newClient(target: Connection): SubmissionApiClient {
    return new SubmissionApiClient({ baseUrl: target.baseUrl, getToken: () => token?.accessToken });
  }

  /** Remembers what failed so the UI can say it; a dropped network is "offline", not an error. */
  function noteFailure(error: unknown): void {
    if (error instanceof ApiError) {
      online = !(error.kind === 'network' || error.kind === 'timeout');
      if (error.kind === 'unauthorized') {
        paused = true;
        events.emit('auth.signInRequired', { connectionId: connection.id, reason: 'unauthorized' });
      }
      problem = error.message;
      return;
    }
    problem = error instanceof Error ? error.message : String(error);
  }

  /** Warns before the token expires and pauses at expiry: OAuth tokens live 2 hours and cannot be refreshed. */
  function watchToken(): void {
    stopExpiryWatch?.();
    stopExpiryWatch = undefined;
    if (!token) return;
    const kind = token.kind;
    stopExpiryWatch = watchExpiry(
      { kind, expiresAt: token.expiresAt },
      {
        onSoon: (state) =>
          events.emit('app.notice', {
            level: 'warning',
            message: `Your ${kind === 'oauth' ? 'OAuth sign-in' : 'access token'} expires at ${state.expiresAt?.toISOString() ?? 'soon'}; sign in again before then to keep syncing.`,
          }),
        onExpired: () => {
          paused = true;
          events.emit('auth.signInRequired', { connectionId: connection.id, reason: 'expired' });
        },
      },
    );
  }

  async function activate(target: Connection): Promise<void> {
    connection = target;
    token = await secrets.store.read(target.id);
    client = newClient(target);
    watchToken();
    paused = false;
    problem = undefined;
    entities = [];
    if (token) {
      try {
        entities = await client.listEntities();
        online = true;
        await saveEntityCache(target.id, entities);
      } catch (error) {
        noteFailure(error);
      }
    }
    if (entities.length === 0) entities = await readEntityCache(target.id);
    const preferred = workspace?.entityId;
    const entityId = entities.find((entity) => entity.id === preferred)?.id ?? entities[0]?.id;
    closeWorkspace();
    if (entityId !== undefined) await openWorkspace(entityId);
  }

  function closeWorkspace(): void {
    running?.abort();
    // A preview belongs to the workspace it was made against: applied to another it would create its new rows there.
    plans.clear();
    responses.release();
    workspace?.store.close();
    workspace = undefined;
  }

  async function openWorkspace(entityId: number): Promise<void> {
    closeWorkspace();
    const store = WorkspaceStore.open(
      join(connectionFolder(opts.dataDir, connection.id), `entity-${entityId}.sqlite`),
    );
    const entity = entities.find((candidate) => candidate.id === entityId);
    if (entity) store.saveEntity(entity);
    const engine = new SyncEngine({
      store,
      client,
      entityId,
      validationContext: (mode) => validationContext(store, mode),
      onProgress: (progress) => events.emit('sync.progress', progress),
    });
    workspace = { entityId, store, engine };
    if (token && online) {
      await refreshLists(store);
      try {
        // A first open fills the workspace so the analyst starts from what the service holds.
        if (store.listAssets().length === 0) {
          await engine.pull();
          store.setMeta('last_sync_at', new Date().toISOString());
        }
      } catch (error) {
        noteFailure(error);
      }
    }
  }

  /** Refreshes the lists; a failure keeps the cached or shipped ones and says so, never blocks. */
  async function refreshLists(store: WorkspaceStore): Promise<void> {
    const reference = await refreshReference(client, referenceOf(store));
    store.saveReference(referenceKey, reference);
    if (reference.problem) events.emit('app.notice', { level: 'warning', message: reference.problem });
  }

  function referenceOf(store: WorkspaceStore): ReferenceData {
    return readReference(store.reference(referenceKey));
  }

  function validationContext(store: WorkspaceStore, mode: 'create' | 'update'): ValidationContext {
    return {
      mode,
      assessmentYear,
      areaUnit: areaUnitFromName(store.entity()?.reporting_preferences.area_units_name ?? 'square metres'),
      ...listsContext(referenceOf(store)),
    };
  }

  async function runSync(mode: PushMode): Promise<SyncReport> {
    const { store, engine } = requireWorkspace();
    if (running) throw new BridgeError({ code: 'bad_request', message: 'A sync is already running.' });
    if (!token) throw new BridgeError({ code: 'forbidden', message: 'Sign in before syncing.' });
    running = new AbortController();
    try {
      const report = await engine.sync({ mode, signal: running.signal });
      resumeAfterSignIn = undefined;
      if (report.stopped?.reason === 'unauthorized') {
        paused = true;
        resumeAfterSignIn = mode;
        events.emit('auth.signInRequired', { connectionId: connection.id, reason: 'unauthorized' });
      } else {
        online = !(report.stopped?.reason === 'error' && /reach|answer in time/.test(report.stopped.message));
      }
      if (!report.stopped) store.setMeta('last_sync_at', new Date().toISOString());
      events.emit('workspace.changed', { reason: 'push' });
      return report;
    } finally {
      running = undefined;
    }
  }

  function resumeSync(): void {
    const mode = resumeAfterSignIn;
    if (mode === undefined || !workspace || !token) return;
    resumeAfterSignIn = undefined;
    runSync(mode).catch((error: unknown) => noteFailure(error));
  }

  /** The entity picker works offline from the last list the service gave (no secrets in it). */
  async function saveEntityCache(connectionId: string, list: Entity[]): Promise<void> {
    const folder = connectionFolder(opts.dataDir, connectionId);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'entities.json'), JSON.stringify(list));
  }

  async function readEntityCache(connectionId: string): Promise<Entity[]> {
    try {
      const text = await readFile(
        join(connectionFolder(opts.dataDir, connectionId), 'entities.json'),
        'utf8',
      );
      const parsed = z.array(entitySchema).safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  }

  /** Keeps a plan for its apply call and gives the renderer the part it shows. */
  function keepPlan(plan: ImportPlan): ImportPreview {
    plans.set(plan.id, plan);
    while (plans.size > 5) plans.delete(plans.keys().next().value as string);
    return toPreview(plan);
  }

  /** Workbook, download and service failures reach the user as their own clear sentence. */
  async function exchangeCall<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof BridgeError) throw error;
      if (error instanceof ApiError) noteFailure(error);
      throw new BridgeError({
        code: 'bad_request',
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  function requireWorkspace(): OpenWorkspace {
    if (!workspace) {
      throw new BridgeError({
        code: 'bad_request',
        message: token ? 'No reporting entity is selected.' : 'Sign in to choose a reporting entity.',
      });
    }
    return workspace;
  }

  function sessionState(): SessionState {
    const expiry = token
      ? expiryState({ kind: token.kind, expiresAt: token.expiresAt }, new Date()).level
      : 'unknown';
    return {
      connections: registry.list().map((candidate) => ({
        id: candidate.id,
        name: candidate.name,
        kind: candidate.kind,
        baseUrl: candidate.baseUrl,
        portalUrl: candidate.portalUrl,
        active: candidate.id === connection.id,
      })),
      activeConnectionId: connection.id,
      auth: {
        signedIn: token !== null,
        kind: token?.kind,
        scopes: token?.scopes ?? [],
        expiresAt: token?.expiresAt ?? null,
        expiry,
        storage: secrets.store.backend,
        paused,
      },
      keychain: secrets.status.available
        ? { available: true }
        : { available: false, message: secrets.status.message },
      entities: entities.map(summarizeEntity),
      activeEntityId: workspace?.entityId ?? null,
      online,
      problem,
    };
  }

  function view(store: WorkspaceStore, localId: string) {
    const record = store.asset(localId);
    return record ? toAssetView(record, store) : null;
  }

  function mustView(store: WorkspaceStore, localId: string) {
    const result = view(store, localId);
    if (!result)
      throw new BridgeError({ code: 'not_found', message: `No asset ${localId} in the workspace` });
    return result;
  }

  function editEntries(
    localId: string,
    collection: 'certifications' | 'energy_ratings',
    edit: (list: Record<string, unknown>[]) => void,
  ) {
    const { store } = requireWorkspace();
    const record = store.asset(localId);
    if (!record?.current)
      throw new BridgeError({ code: 'not_found', message: `No editable asset ${localId}` });
    const doc: AssetDoc = structuredClone(record.current);
    const list = Array.isArray(doc[collection]) ? (doc[collection] as Record<string, unknown>[]) : [];
    edit(list);
    doc[collection] = list;
    store.replaceDoc(localId, doc, `${collection}-edit`);
    return mustView(store, localId);
  }

  await activate(connection);

  const handlers: BridgeHandlers = {
    'app.info': () => ({ name: 'Asset Desk', version: opts.version, host: opts.host }),
    'session.get': () => sessionState(),
    'session.selectEntity': async ({ entityId }) => {
      if (!entities.some((entity) => entity.id === entityId) && workspace?.entityId !== entityId) {
        throw new BridgeError({
          code: 'not_found',
          message: `Entity ${entityId} is not reachable with this sign-in`,
        });
      }
      await openWorkspace(entityId);
      events.emit('workspace.changed', { reason: 'entity' });
      return sessionState();
    },
    'connections.add': async (input) => {
      const parsed = customConnectionInputSchema.safeParse(input);
      if (!parsed.success) {
        throw new BridgeError({
          code: 'bad_request',
          message: `Check the connection: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
        });
      }
      const added = await registry.addCustom(parsed.data);
      await registry.setActive(added.id);
      await activate(added);
      return sessionState();
    },
    'connections.select': async ({ connectionId }) => {
      const target = registry.get(connectionId);
      if (!target) throw new BridgeError({ code: 'not_found', message: `No connection ${connectionId}` });
      await registry.setActive(target.id);
      await activate(target);
      events.emit('workspace.changed', { reason: 'entity' });
      return sessionState();
    },
    'connections.remove': async ({ connectionId }) => {
      if (connectionId === localSandboxId) {
        throw new BridgeError({ code: 'bad_request', message: 'The local sandbox is built in and stays.' });
      }
      await secrets.store.delete(connectionId).catch(() => false);
      await registry.removeCustom(connectionId);
      if (connectionId === connection.id) await activate(registry.active());
      return sessionState();
    },
    'auth.signInWithToken': async ({ connectionId, token: pasted, expiresOn }) => {
      const target = registry.get(connectionId);
      if (!target) throw new BridgeError({ code: 'not_found', message: `No connection ${connectionId}` });
      // A refused token is the user's input being wrong, not a fault of the app.
      const check = await checkPastedToken({
        connection: target,
        accessToken: pasted,
        partnerExpiresOn: expiresOn,
      }).catch((error: unknown) => {
        if (error instanceof AuthError)
          throw new BridgeError({ code: 'bad_request', message: error.message });
        throw error;
      });
      await secrets.store.save(target.id, {
        accessToken: pasted,
        kind: check.kind,
        scopes: check.scopes,
        expiresAt: check.expiresAt ? check.expiresAt.toISOString() : null,
        obtainedAt: new Date().toISOString(),
      });
      if (target.id !== connection.id) await registry.setActive(target.id);
      await activate(target);
      resumeSync();
      return sessionState();
    },
    'auth.signOut': async ({ connectionId }) => {
      await secrets.store.delete(connectionId);
      if (connectionId === connection.id) {
        token = null;
        closeWorkspace();
      }
      return sessionState();
    },
    'auth.startOAuth': async ({ connectionId, redirect, clientId, clientSecret }) => {
      const target = registry.get(connectionId);
      if (!target) throw new BridgeError({ code: 'not_found', message: `No connection ${connectionId}` });
      const client =
        target.id === localSandboxId
          ? sandbox.oauthClient
          : clientId && clientSecret
            ? { clientId, clientSecret }
            : undefined;
      if (!client) {
        throw new BridgeError({
          code: 'bad_request',
          message: 'Enter the client id and secret of the OAuth application registered in the portal.',
        });
      }
      const openBrowser = opts.openBrowser;
      if (!openBrowser)
        throw new BridgeError({ code: 'bad_request', message: 'No browser to sign in with.' });
      const flowId = randomUUID();
      const login = await startOAuthLogin({
        connection: target,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        scopes: [...grantableScopes],
        openBrowser,
        redirect: redirect ?? 'loopback',
      });
      oauthFlows.set(flowId, login);
      login.result.then(
        async (tokenSet) => {
          oauthFlows.delete(flowId);
          await secrets.store.save(target.id, {
            accessToken: tokenSet.accessToken,
            kind: 'oauth',
            scopes: tokenSet.scopes,
            expiresAt: tokenSet.expiresAt.toISOString(),
            obtainedAt: tokenSet.obtainedAt.toISOString(),
          });
          if (target.id !== connection.id) await registry.setActive(target.id);
          await activate(target);
          events.emit('auth.oauthFinished', { flowId, ok: true });
          resumeSync();
        },
        (error: unknown) => {
          oauthFlows.delete(flowId);
          events.emit('auth.oauthFinished', {
            flowId,
            ok: false,
            code: error instanceof AuthError ? error.code : 'server_error',
            message: error instanceof Error ? error.message : String(error),
          });
        },
      );
      return {
        flowId,
        mode: login.mode,
        authorizeUrl: login.authorizeUrl,
        browserOpened: login.browserOpened,
        fallbackReason: login.fallbackReason,
      };
    },
    'auth.submitOAuthCode': ({ flowId, code }) => {
      const login = oauthFlows.get(flowId);
      if (!login) return false;
      login.submitCode(code);
      return true;
    },
    'auth.cancelOAuth': ({ flowId }) => {
      const login = oauthFlows.get(flowId);
      login?.cancel();
      return login !== undefined;
    },
    'workspace.snapshot': (): WorkspaceSnapshot => {
      const { store } = requireWorkspace();
      const entity = store.entity();
      if (!entity)
        throw new BridgeError({ code: 'bad_request', message: 'The entity has not been loaded yet.' });
      return {
        connectionId: connection.id,
        entity,
        assessmentYear,
        reference: referenceOf(store),
        assets: store.listAssets().map((record) => toAssetView(record, store)),
        lastSyncAt: store.getMeta('last_sync_at') ?? null,
      };
    },
    'workspace.edit': ({ edits }) => {
      const { store } = requireWorkspace();
      try {
        store.setValues(edits);
      } catch (error) {
        throw new BridgeError({
          code: 'bad_request',
          message: error instanceof Error ? error.message : String(error),
        });
      }
      return [...new Set(edits.map((edit) => edit.localId))].map((id) => mustView(store, id));
    },
    'workspace.createAsset': ({ fields }) => {
      const { store } = requireWorkspace();
      const record = store.createAsset({ ...fields, annual_data: [], certifications: [] });
      return mustView(store, record.localId);
    },
    'workspace.deleteAssets': ({ localIds }) => {
      const { store } = requireWorkspace();
      store.transaction(() => {
        for (const id of localIds) if (store.asset(id)) store.deleteAsset(id);
      });
      return localIds;
    },
    'workspace.revertAsset': ({ localId }) => {
      const { store } = requireWorkspace();
      store.revertAsset(localId);
      return view(store, localId);
    },
    'workspace.addEntry': ({ localId, collection, fields }) =>
      editEntries(localId, collection, (list) => list.push({ ...fields, _key: randomUUID().slice(0, 8) })),
    'workspace.removeEntry': ({ localId, collection, key }) =>
      editEntries(localId, collection, (list) => {
        const index = list.findIndex((entry) => entryKey(collection, entry) === key);
        if (index >= 0) list.splice(index, 1);
      }),
    'workspace.resolveConflict': ({ localId, path, choice }) => {
      const { store } = requireWorkspace();
      store.resolveConflict(localId, path, choice);
      return view(store, localId);
    },
    'workspace.resolveRemoteDeletion': ({ localId, choice }) => {
      const { store } = requireWorkspace();
      store.resolveRemoteDeletion(localId, choice);
      return view(store, localId);
    },
    'sync.review': () => toReview(requireWorkspace().store.pending()),
    'sync.run': ({ mode }) => runSync(mode ?? 'strict'),
    'sync.cancel': () => {
      const wasRunning = running !== undefined;
      running?.abort();
      return wasRunning;
    },
    'responses.list': () => responses.list(),
    'responses.open': ({ responseId }) => responses.open(responseId),
    'responses.setValue': ({ responseId, variable, value }) =>
      responses.setValue(responseId, variable, value),
    'responses.resolveConflict': ({ responseId, variable, choice }) =>
      responses.resolveConflict(responseId, variable, choice),
    'responses.revertValue': ({ responseId, variable }) => responses.revertValue(responseId, variable),
    'responses.sync': () => responses.sync(),
    'workbook.export': async ({ format }) => {
      const { store } = requireWorkspace();
      if (!opts.pickSaveFile)
        throw new BridgeError({ code: 'bad_request', message: 'This host has no save dialog.' });
      const entity = store.entity();
      const defaultName = `${(entity?.name ?? 'assets').replace(/[^\w.-]+/g, ' ').trim()} ${new Date().toISOString().slice(0, 10)}.${format}`;
      const file = await opts.pickSaveFile({ defaultName, extensions: [format] });
      if (file === undefined) return null;
      const written = await exchangeCall(() =>
        exportWorkspace(store, file, { format, fallbackYear: assessmentYear - 1 }),
      );
      return { fileName: basename(written.file), assets: written.assets };
    },
    'workbook.previewImport': async ({ fileId }) => {
      const { store } = requireWorkspace();
      const file = pickedFiles.get(fileId);
      if (file === undefined) {
        throw new BridgeError({
          code: 'not_found',
          message: 'That file is no longer chosen: pick it again.',
        });
      }
      return keepPlan(await exchangeCall(() => previewImportFile(store, file)));
    },
    'workbook.applyImport': async ({ planId, partial }) => {
      const { store } = requireWorkspace();
      const plan = plans.get(planId);
      if (!plan)
        throw new BridgeError({ code: 'not_found', message: 'That preview is gone: read the file again.' });
      const applied = await exchangeCall(async () => applyImport(store, plan, { partial: partial ?? false }));
      plans.delete(planId);
      events.emit('workspace.changed', { reason: 'import' });
      return {
        importId: applied.importId,
        created: applied.created.length,
        updated: applied.updated.length,
        skipped: applied.skipped,
      };
    },
    'workbook.undoImport': async () => {
      const { store } = requireWorkspace();
      const undone = await exchangeCall(async () => undoImport(store));
      events.emit('workspace.changed', { reason: 'import' });
      return undone;
    },
    'exchange.serviceExport': async ({ publicCallbackUrl }) => {
      const { store, entityId } = requireWorkspace();
      const result = await exchangeCall(() =>
        runServiceExport({
          client,
          entityId,
          downloadDir,
          publicCallbackUrl: publicCallbackUrl ?? null,
          onProgress: (progress) => events.emit('exchange.progress', progress),
        }),
      );
      if (result.kind === 'awaiting-link') return result;
      const preview = keepPlan(await exchangeCall(() => previewImportFile(store, result.file)));
      return { kind: 'downloaded', fileName: basename(result.file), bytes: result.bytes, preview };
    },
    'exchange.importLink': async ({ url }) => {
      const { store } = requireWorkspace();
      const { plan } = await exchangeCall(() => importFromExportLink(url, { store, downloadDir }));
      return keepPlan(plan);
    },
    'files.pick': async ({ purpose }) => {
      if (!opts.pickFile)
        throw new BridgeError({ code: 'bad_request', message: 'This host has no file dialog.' });
      const path = await opts.pickFile({ purpose, extensions: pickExtensions[purpose] });
      if (path === undefined) return null;
      const fileId = randomUUID();
      pickedFiles.set(fileId, path);
      const size = await stat(path).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
      return { fileId, name: basename(path), size };
    },
    'responses.addEvidence': (args) => responses.addEvidence(args),
    'sync.dryRun': async () => {
      const { engine } = requireWorkspace();
      try {
        return await engine.dryRun();
      } catch (error) {
        noteFailure(error);
        throw new BridgeError({
          code: 'bad_request',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    },
  };

  return {
    handlers,
    events,
    sandbox,
    async close() {
      stopExpiryWatch?.();
      for (const login of oauthFlows.values()) login.cancel();
      closeWorkspace();
      await sandbox.server.close();
    },
  };
}

function toPreview(plan: ImportPlan): ImportPreview {
  return {
    planId: plan.id,
    fileName: basename(plan.source.file),
    format: plan.source.format,
    counts: plan.counts,
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

function summarizeEntity(entity: Entity): EntitySummary {
  const prefs = entity.reporting_preferences;
  return {
    id: entity.id,
    name: entity.name,
    currency: prefs.currency,
    areaUnit: prefs.area_units_name,
    reportingPeriod: prefs.reporting_period,
  };
}
