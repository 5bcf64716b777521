/**
 * Session and sign-in: the active connection, its token (keychain, or the local sandbox's own), the
 * service client, the entities the sign-in reaches, and whether the service answers. Owns the OAuth
 * flows and the token's expiry watch. Its slice of the bridge: `session.get` and `auth.*`.
 */
import type { SessionState, WorkspaceProblem } from '../../shared/bridge/types';
import type { Entity } from '../../shared/domain';
import { badRequest, errorMessage, notFound } from '../../shared/errors';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import { ApiError, isOfflineError } from '../service-client/errors';
import { SubmissionApiClient } from '../service-client/service-client';
import { AssetIdNaming } from '../../shared/sync/asset-id-name';
import {
  localSandboxIds,
  type Connection,
  type ConnectionRegistry,
  type LocalSandboxId,
} from './connections';
import { readEntityCache, saveEntityCache } from './entity-cache';
import { localSandboxOf, sandboxRunToken, type LocalSandboxAccess } from './local-sandbox';
import { OAuthFlows } from './oauth-flows';
import { throttledRetryNotices, type RetryInfo } from './retry-notices';
import { checkPastedToken } from './partner-token';
import type { SecretStore, SecretStoreStatus, StoredToken } from './secret-store';
import { expiryState, watchExpiry } from './token-lifecycle';

export interface SessionDeps {
  dataDir: string;
  secrets: { store: SecretStore; status: SecretStoreStatus };
  registry: ConnectionRegistry;
  events: EventSink;
  localSandbox: LocalSandboxAccess;
  /** The second built-in sandbox, speaking the real service's names (its own process). */
  localSandboxRealNames?: LocalSandboxAccess | undefined;
  openBrowser?: ((url: string) => Promise<void>) | undefined;
}

/** What the other services hear from the session. */
export interface SessionListener {
  /** At start, before any network: the entities this machine last saw for the active connection. */
  restored?(entities: readonly Entity[]): void;
  /** A connection became active (or was re-entered after a sign-in): its entities are known. */
  activated?(entities: readonly Entity[]): Promise<void>;
  /** The active connection was signed out: nothing may use its token any more. */
  signedOut?(): void;
  /** A new sign-in on the active connection: paused work may go on. */
  signedIn?(): void;
}

export type SessionHandlers = Pick<
  BridgeHandlers,
  | 'session.get'
  | 'auth.signInWithToken'
  | 'auth.signOut'
  | 'auth.startOAuth'
  | 'auth.submitOAuthCode'
  | 'auth.cancelOAuth'
>;

export class SessionService {
  private connection: Connection;
  private token: StoredToken | null = null;
  private clientOf: SubmissionApiClient;
  private entityList: Entity[] = [];
  private isOnline = true;
  private isPaused = false;
  /** Between `restore` and the end of `activate`: the sandbox, the token and the service are on their way. */
  private isConnecting = false;
  private problem: string | undefined;
  /** Local sandboxes signed out of in this run: their own tokens are not used until a sign-in. */
  private readonly sandboxSignedOut = new Set<string>();
  private stopExpiryWatch: (() => void) | undefined;
  private readonly retryNotices: (info: RetryInfo) => void;
  private readonly oauthFlows: OAuthFlows;
  private readonly listeners: SessionListener[] = [];
  /** Filled by the composition root: the open workspace's entity, for `session.get`. */
  activeEntityId: () => number | null = () => null;
  /** The active connection's workspace that could not be opened (set by the app's composition). */
  workspaceProblem: () => WorkspaceProblem | undefined = () => undefined;

  constructor(private readonly deps: SessionDeps) {
    this.connection = deps.registry.active();
    this.retryNotices = throttledRetryNotices(deps.events);
    this.clientOf = this.newClient(this.connection);
    this.oauthFlows = new OAuthFlows(deps.events, deps.openBrowser);
  }

  listen(listener: SessionListener): void {
    this.listeners.push(listener);
  }

  get client(): SubmissionApiClient {
    return this.clientOf;
  }
  get activeConnection(): Connection {
    return this.connection;
  }
  get signedIn(): boolean {
    return this.token !== null;
  }
  get online(): boolean {
    return this.isOnline;
  }
  get entities(): readonly Entity[] {
    return this.entityList;
  }

  /**
   * Remembers what failed so the UI can say it: a service that could not be reached is "offline",
   * a refused token pauses work and asks for a sign-in, anything else is shown as the problem.
   */
  noteFailure(error: unknown): void {
    if (error instanceof ApiError) {
      this.isOnline = !isOfflineError(error);
      if (error.kind === 'unauthorized') this.pause('unauthorized');
    }
    this.problem = errorMessage(error);
  }

  /** Whether the last call reached the service (typed from its error, never guessed from a message). */
  setOnline(online: boolean): void {
    this.isOnline = online;
  }

  /** Stops using the token and asks for a sign-in (a 401 or an expired token). */
  pause(reason: 'unauthorized' | 'expired'): void {
    this.isPaused = true;
    this.deps.events.emit('auth.signInRequired', { connectionId: this.connection.id, reason });
  }

  /**
   * Makes `target` the working connection: its token, its client, its entities (live or cached).
   * The local sandbox's process starts here, on its connection's first use.
   */
  async activate(chosen: Connection): Promise<void> {
    this.isConnecting = true;
    try {
      await this.connect(chosen);
    } finally {
      this.isConnecting = false;
    }
  }

  /**
   * At start, before any network: the active connection's entities as this machine last saw them,
   * so the workspace (and the window's grid) open from disk at once. `activate` follows, in the
   * background: the sandbox's process, the token, the service's entities, the lists, a first pull.
   */
  async restore(): Promise<void> {
    this.isConnecting = true;
    this.entityList = await readEntityCache(this.deps.dataDir, this.connection.id);
    for (const listener of this.listeners) listener.restored?.(this.entityList);
  }

  private async connect(chosen: Connection): Promise<void> {
    let target = chosen;
    let startProblem: string | undefined;
    const local = localSandboxOf(target, this.deps);
    if (local) {
      try {
        target = this.deps.registry.setSandboxOrigin((await local.access.ensure()).baseUrl, local.id);
      } catch (error) {
        startProblem = errorMessage(error);
      }
    }
    this.connection = target;
    this.token = await this.readToken(target).catch(() => null);
    this.clientOf = this.newClient(target);
    this.watchToken();
    this.isPaused = false;
    this.problem = startProblem;
    this.entityList = [];
    if (this.token) {
      try {
        this.entityList = await this.clientOf.listEntities();
        this.isOnline = true;
        await saveEntityCache(this.deps.dataDir, target.id, this.entityList);
      } catch (error) {
        this.noteFailure(error);
      }
    }
    if (this.entityList.length === 0) this.entityList = await readEntityCache(this.deps.dataDir, target.id);
    for (const listener of this.listeners) await listener.activated?.(this.entityList);
  }

  state(): SessionState {
    const token = this.token;
    const expiry = token
      ? expiryState({ kind: token.kind, expiresAt: token.expiresAt }, new Date()).level
      : 'unknown';
    const { secrets, registry } = this.deps;
    return {
      connections: registry.list().map((candidate) => ({
        id: candidate.id,
        name: candidate.name,
        kind: candidate.kind,
        baseUrl: candidate.baseUrl,
        portalUrl: candidate.portalUrl,
        active: candidate.id === this.connection.id,
        // The active one's as its client knows it now (it may have learned it since the list was read).
        assetIdName: candidate.id === this.connection.id ? this.clientOf.assetIds.state : candidate.assetIds,
      })),
      activeConnectionId: this.connection.id,
      auth: {
        signedIn: token !== null,
        kind: token?.kind,
        scopes: token?.scopes ?? [],
        expiresAt: token?.expiresAt ?? null,
        expiry,
        storage: secrets.store.backend,
        paused: this.isPaused,
      },
      keychain: secrets.status.available
        ? { available: true }
        : { available: false, message: secrets.status.message },
      entities: this.entityList.map(summarizeEntity),
      activeEntityId: this.activeEntityId(),
      online: this.isOnline,
      connecting: this.isConnecting,
      problem: this.problem,
      workspaceProblem: this.workspaceProblem(),
    };
  }

  /** Forgets a connection's secrets (it is being removed). */
  async forget(connectionId: string): Promise<void> {
    await this.deps.secrets.store.delete(connectionId).catch(() => false);
  }

  close(): void {
    this.stopExpiryWatch?.();
    this.oauthFlows.close();
  }

  readonly handlers: SessionHandlers = {
    'session.get': () => this.state(),
    'auth.signInWithToken': async ({ connectionId, token: pasted, expiresOn }) => {
      const target = this.mustGet(connectionId);
      // A refused token is the user's input being wrong (an AuthError, shown as it is).
      const check = await checkPastedToken({
        connection: target,
        accessToken: pasted,
        partnerExpiresOn: expiresOn,
      });
      await this.signedInto(target, {
        accessToken: pasted,
        kind: check.kind,
        scopes: check.scopes,
        expiresAt: check.expiresAt ? check.expiresAt.toISOString() : null,
        obtainedAt: new Date().toISOString(),
      });
      return this.state();
    },
    'auth.signOut': async ({ connectionId }) => {
      await this.deps.secrets.store.delete(connectionId);
      if (localSandboxIds.includes(connectionId)) this.sandboxSignedOut.add(connectionId);
      if (connectionId === this.connection.id) {
        this.token = null;
        for (const listener of this.listeners) listener.signedOut?.();
      }
      return this.state();
    },
    'auth.startOAuth': async ({ connectionId, redirect, clientId, clientSecret }) => {
      const target = this.mustGet(connectionId);
      const sandbox = await localSandboxOf(target, this.deps)?.access.ensure();
      const client = sandbox
        ? sandbox.oauthClient
        : clientId && clientSecret
          ? { clientId, clientSecret }
          : undefined;
      if (!client)
        throw badRequest('Enter the client id and secret of the OAuth application registered in the portal.');
      return this.oauthFlows.start({
        connection: target,
        client,
        redirect: redirect ?? 'loopback',
        portalLogin: sandbox?.demoUser,
        signedIn: (token) => this.signedInto(target, token),
      });
    },
    'auth.submitOAuthCode': ({ flowId, code }) => this.oauthFlows.submitCode(flowId, code),
    'auth.cancelOAuth': ({ flowId }) => this.oauthFlows.cancel(flowId),
  };

  /** A new sign-in: saved for the connection, which becomes the active one; paused work goes on. */
  private async signedInto(target: Connection, token: StoredToken): Promise<void> {
    await this.deps.secrets.store.save(target.id, token);
    this.sandboxSignedOut.delete(target.id);
    if (target.id !== this.connection.id) await this.deps.registry.setActive(target.id);
    await this.activate(target);
    for (const listener of this.listeners) listener.signedIn?.();
  }

  /**
   * The connection's token: the keychain's, or for the local sandbox (unless signed out of it) the
   * sandbox's own token for this run, which never goes to the keychain.
   */
  private async readToken(target: Connection): Promise<StoredToken | null> {
    const stored = await this.deps.secrets.store.read(target.id);
    const local = localSandboxOf(target, this.deps);
    if (stored || !local || this.sandboxSignedOut.has(target.id)) return stored;
    return sandboxRunToken((await local.access.ensure()).token);
  }

  private newClient(target: Connection): SubmissionApiClient {
    const local = localSandboxOf(target, this.deps);
    const sandbox = local ? this.sandboxAddress(target, local) : undefined;
    const { registry } = this.deps;
    return new SubmissionApiClient({
      // Read per request, after getToken (the embedded sandbox may have moved to a new port).
      get baseUrl() {
        return sandbox?.baseUrl ?? target.baseUrl;
      },
      // The name its service gives the asset id: as the connection says, then as its answers show (kept).
      assetIds: new AssetIdNaming(target.assetIds, (learned) => {
        registry.learnAssetIdName(target.id, learned).catch(() => undefined);
      }),
      getToken: sandbox ? () => sandbox.token() : () => this.token?.accessToken,
      onRetry: this.retryNotices,
    });
  }

  /**
   * The embedded sandbox's address and token, checked before each request: its process answered on
   * that port just now, or it is started again (a new port and token, issue 29), and the session's
   * token and the connection's origin follow it.
   */
  private sandboxAddress(
    target: Connection,
    local: { id: LocalSandboxId; access: LocalSandboxAccess },
  ): { baseUrl: string; token(): Promise<string | undefined> } {
    const address = {
      baseUrl: target.baseUrl,
      token: async (): Promise<string | undefined> => {
        const run = await local.access.ensure();
        if (run.baseUrl !== address.baseUrl) {
          address.baseUrl = run.baseUrl;
          if (this.connection.id === local.id)
            this.connection = this.deps.registry.setSandboxOrigin(run.baseUrl, local.id);
        }
        const token = this.token;
        if (token?.kind === 'sandbox' && token.accessToken !== run.token)
          this.token = { ...token, accessToken: run.token };
        return this.token?.accessToken;
      },
    };
    return address;
  }

  private mustGet(connectionId: string): Connection {
    const target = this.deps.registry.get(connectionId);
    if (!target) throw notFound(`No connection ${connectionId}`);
    return target;
  }

  /** Warns before the token expires and pauses at expiry: OAuth tokens live 2 hours and cannot be refreshed. */
  private watchToken(): void {
    this.stopExpiryWatch?.();
    this.stopExpiryWatch = undefined;
    const token = this.token;
    if (!token) return;
    const kind = token.kind;
    this.stopExpiryWatch = watchExpiry(
      { kind, expiresAt: token.expiresAt },
      {
        onSoon: (state) =>
          this.deps.events.emit('app.notice', {
            level: 'warning',
            message: `Your ${kind === 'oauth' ? 'OAuth sign-in' : 'access token'} expires at ${state.expiresAt?.toISOString() ?? 'soon'}; sign in again before then to keep syncing.`,
          }),
        onExpired: () => this.pause('expired'),
      },
    );
  }
}

function summarizeEntity(entity: Entity) {
  const prefs = entity.reporting_preferences;
  return {
    id: entity.id,
    name: entity.name,
    currency: prefs.currency,
    areaUnit: prefs.area_units_name,
    reportingPeriod: prefs.reporting_period,
  };
}
