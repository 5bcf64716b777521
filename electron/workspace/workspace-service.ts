/**
 * The open workspace: one SQLite file per connection and entity, its reference lists and the rules'
 * context, and the analyst's edits. Opening and closing follow the session (connection, sign-in,
 * entity). Its slice of the bridge: `session.selectEntity` and `workspace.*`.
 */
import type { SessionState, WorkspaceProblem, WorkspaceSnapshot } from '../../shared/bridge/types';
import { countNames, workspaceContexts, type Entity, type ValidationContext } from '../../shared/domain';
import type { SessionService } from '../auth/session-service';
import { badRequest, errorMessage, notFound } from '../../shared/errors';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import { workspaceFile } from '../storage/paths';
import { assetViewPage } from './asset-views';
import { assetViewPageText } from './asset-view-text';
import { editHandlers, type EditHandlers } from './edit-handlers';
import { readReference, referenceKey, refreshReference } from './reference-lists';
import { WorkspaceStore } from './workspace-store';
import { damageOf, describeDamage, setAside, type UnsentCounter } from './workspace-damage';

export interface OpenWorkspace {
  connectionId: string;
  entityId: number;
  file: string;
  store: WorkspaceStore;
}

/** What the other services hear of the workspace. */
export interface WorkspaceListener {
  /** A workspace was opened while signed in and online: e.g. fill it with a first pull. */
  opened?(workspace: OpenWorkspace): Promise<void>;
  /** The workspace is about to close: drop anything that belongs to it. */
  closing?(workspace: OpenWorkspace): void;
}

export type WorkspaceHandlers = Pick<
  BridgeHandlers,
  'session.selectEntity' | 'workspace.snapshot' | 'workspace.assets' | 'workspace.rebuild'
> &
  EditHandlers;

export class WorkspaceService {
  private open: OpenWorkspace | undefined;
  private readonly listeners: WorkspaceListener[] = [];
  /** The workspace that could not be opened or read, with its connection: shown until resolved. */
  private trouble: { connectionId: string; problem: WorkspaceProblem } | undefined;

  constructor(
    private readonly deps: {
      dataDir: string;
      assessmentYear: number;
      session: SessionService;
      events: EventSink;
      /** The sync's count of a damaged file's unsent changes (electron/sync/pending-work.ts). */
      countUnsent: UnsentCounter;
    },
  ) {}

  listen(listener: WorkspaceListener): void {
    this.listeners.push(listener);
  }

  get current(): OpenWorkspace | undefined {
    return this.open;
  }

  /** The active connection's workspace that could not be opened, and why (the session shows it). */
  get problem(): WorkspaceProblem | undefined {
    const trouble = this.trouble;
    return trouble?.connectionId === this.deps.session.activeConnection.id ? trouble.problem : undefined;
  }

  /** The open workspace, or a sentence saying why there is none. */
  require(): OpenWorkspace {
    if (!this.open) {
      const problem = this.problem;
      if (problem) throw badRequest(problem.message);
      throw badRequest(
        this.deps.session.signedIn
          ? 'No reporting entity is selected.'
          : 'Sign in to choose a reporting entity.',
      );
    }
    return this.open;
  }

  /** At start, before the network: the first cached entity's workspace, from disk (no first pull). */
  restore(entities: readonly Entity[]): void {
    const entityId = entities[0]?.id;
    if (entityId !== undefined) this.openFile(entityId);
  }

  /** After the session (re)activates: the entity worked on before if still reachable, else the first. */
  async reopen(entities: readonly Entity[]): Promise<void> {
    const before = this.open;
    const preferred = before?.entityId;
    const entityId = entities.find((entity) => entity.id === preferred)?.id ?? entities[0]?.id;
    const { session, events } = this.deps;
    if (before && entityId === preferred && before.connectionId === session.activeConnection.id) {
      // Open already (from disk at start, or before a new sign-in): the file stays open, so edits
      // typed meanwhile go on; what belonged to the old session (a sync run, its client) is
      // dropped with the old handle. The window reloads only if what it shows changed.
      const shown = shownOf(before.store);
      for (const listener of this.listeners) listener.closing?.(before);
      this.open = { ...before };
      const entity = session.entities.find((candidate) => candidate.id === entityId);
      if (entity) before.store.saveEntity(entity);
      await this.connected(this.open);
      if (this.open?.store === before.store && shownOf(before.store) !== shown)
        events.emit('workspace.changed', { reason: 'entity' });
      return;
    }
    this.close();
    if (entityId !== undefined) await this.openEntity(entityId);
    // Another workspace now: a window showing the old one reloads (with none, its session says so).
    if (before && this.open) events.emit('workspace.changed', { reason: 'entity' });
  }

  async openEntity(entityId: number): Promise<void> {
    const open = this.openFile(entityId);
    if (open) await this.connected(open);
  }

  /** What needs the service once a workspace is open: the lists, then its listeners (a first pull). */
  private async connected(open: OpenWorkspace): Promise<void> {
    const { session } = this.deps;
    if (!session.signedIn || !session.online) return;
    await this.refreshLists(open.store);
    for (const listener of this.listeners) await listener.opened?.(open);
  }

  /**
   * The entity's SQLite file, opened: everything that needs no network. A file that cannot be
   * opened (damaged, or its folder not writable) leaves no workspace open and says why (`problem`);
   * the app goes on, and every other entity's workspace opens as usual.
   */
  private openFile(entityId: number): OpenWorkspace | undefined {
    this.close();
    const { session } = this.deps;
    const connectionId = session.activeConnection.id;
    const file = workspaceFile(this.deps.dataDir, connectionId, entityId);
    const entity = session.entities.find((candidate) => candidate.id === entityId);
    let store: WorkspaceStore | undefined;
    try {
      store = WorkspaceStore.open(file);
      if (entity) store.saveEntity(entity);
    } catch (error) {
      store?.close();
      if (!this.noteDamage(error, connectionId, entityId, file)) throw error;
      return undefined;
    }
    // Opened: this entity's problem is gone, and so is a refused write of any of this connection's
    // workspaces (they share this folder, which took the write). A damaged file stays to rebuild.
    const trouble = this.trouble;
    if (
      trouble?.connectionId === connectionId &&
      (trouble.problem.entityId === entityId || trouble.problem.kind === 'unwritable')
    )
      this.trouble = undefined;
    this.open = { connectionId, entityId, file, store };
    return this.open;
  }

  /** Records `error` as the workspace's problem when it is one of its file; false for anything else. */
  private noteDamage(error: unknown, connectionId: string, entityId: number, file: string): boolean {
    const kind = damageOf(error);
    if (!kind) return false;
    const entityName =
      this.deps.session.entities.find((candidate) => candidate.id === entityId)?.name ?? null;
    this.trouble = {
      connectionId,
      problem: describeDamage({
        entityId,
        entityName,
        file,
        kind,
        error,
        countUnsent: this.deps.countUnsent,
      }),
    };
    return true;
  }

  /**
   * The open workspace's file failed while in use (corruption in the middle of it): it is closed,
   * left as it is, and the failure becomes the workspace's problem, said in words.
   */
  private guard<T>(run: () => T | Promise<T>): Promise<T> {
    const open = this.open;
    return Promise.resolve()
      .then(run)
      .catch((error: unknown) => {
        if (
          !open ||
          this.open !== open ||
          !this.noteDamage(error, open.connectionId, open.entityId, open.file)
        )
          throw error;
        try {
          this.close();
        } catch {
          /* a damaged file may not close cleanly; it is left as it is */
        }
        this.open = undefined;
        this.deps.events.emit('workspace.changed', { reason: 'entity' });
        throw badRequest(this.problem?.message ?? errorMessage(error));
      });
  }

  /** Moves the damaged file aside, unchanged, and opens the entity afresh (its first pull follows). */
  private async rebuild(): Promise<SessionState> {
    const problem = this.problem;
    if (!problem) throw badRequest('No workspace needs rebuilding.');
    if (!problem.canRebuild) throw badRequest(problem.message);
    try {
      setAside(problem.file);
    } catch (error) {
      throw badRequest(
        `The damaged file could not be moved aside (${errorMessage(error)}), so nothing was rebuilt: ${problem.file}`,
      );
    }
    this.trouble = undefined;
    await this.openEntity(problem.entityId);
    this.deps.events.emit('workspace.changed', { reason: 'entity' });
    return this.deps.session.state();
  }

  close(): void {
    const open = this.open;
    if (!open) return;
    for (const listener of this.listeners) listener.closing?.(open);
    open.store.close();
    this.open = undefined;
  }

  /**
   * The rules' context, the same the grid builds: lists, area unit, assessment year, and the names
   * the workspace uses (push refuses a duplicate name as the grid shows it).
   */
  validationContext(store: WorkspaceStore, mode: 'create' | 'update'): ValidationContext {
    // The names alone, read by SQLite: parsing 20k documents to count them stalled main ~300 ms.
    const names = countNames(store.currentNames());
    return workspaceContexts({
      assessmentYear: this.deps.assessmentYear,
      areaUnitsName: store.entity()?.reporting_preferences.area_units_name,
      reportingPeriodMonth: store.entity()?.reporting_preferences.reporting_period_month,
      lists: readReference(store.reference(referenceKey)),
      isNameTaken: (name) => (names.get(name.trim()) ?? 0) > 1,
    })[mode];
  }

  /** Refreshes the lists; a failure keeps the cached or shipped ones and says so, never blocks. */
  private async refreshLists(store: WorkspaceStore): Promise<void> {
    const reference = await refreshReference(
      this.deps.session.client,
      readReference(store.reference(referenceKey)),
    );
    store.saveReference(referenceKey, reference);
    if (reference.problem)
      this.deps.events.emit('app.notice', { level: 'warning', message: reference.problem });
  }

  /** The name the connection's service reads the asset id under: what it no longer takes is kept here. */
  private idName() {
    return this.deps.session.client.assetIds.name;
  }

  readonly handlers: WorkspaceHandlers = guarded((run) => this.guard(run), {
    'workspace.rebuild': () => this.rebuild(),
    'session.selectEntity': async ({ entityId }) => {
      const { session, events } = this.deps;
      if (!session.entities.some((entity) => entity.id === entityId) && this.open?.entityId !== entityId)
        throw notFound(`Entity ${entityId} is not reachable with this sign-in`);
      await this.openEntity(entityId);
      events.emit('workspace.changed', { reason: 'entity' });
      return session.state();
    },
    'workspace.snapshot': ({ limit, laterPages }): WorkspaceSnapshot => {
      const { store, connectionId } = this.require();
      const entity = store.entity();
      if (!entity) throw badRequest('The entity has not been loaded yet.');
      const first = assetViewPage(store, 0, limit, this.idName());
      const total = store.assetCount();
      return {
        connectionId,
        entity,
        assessmentYear: this.deps.assessmentYear,
        reference: readReference(store.reference(referenceKey)),
        ...first,
        total,
        pageStarts:
          first.next === null || laterPages === undefined
            ? []
            : store.pageStarts(first.next, evenPages(total - first.assets.length, laterPages)),
        lastSyncAt: store.getMeta('last_sync_at') ?? null,
      };
    },
    'workspace.assets': ({ after, limit, through }) =>
      assetViewPageText(this.require().store, after, limit, this.idName(), through),
    ...editHandlers(
      () => this.require().store,
      () => this.idName(),
    ),
  });
}

/**
 * The size of pages of at most `most` rows over `left` rows, all of about one size: each page costs
 * the window a message whatever its size, and a last page of a few hundred rows cost one of its own.
 */
function evenPages(left: number, most: number): number {
  const rows = Math.max(1, left);
  return Math.ceil(rows / Math.ceil(rows / most));
}

/** Every handler run through `guard` (a failure of the workspace's file becomes its problem). */
function guarded<H extends Record<string, (args: never) => unknown>>(
  guard: <T>(run: () => T | Promise<T>) => Promise<T>,
  handlers: H,
): H {
  const out: Record<string, (args: never) => unknown> = {};
  for (const [name, handler] of Object.entries(handlers))
    out[name] = (args: never) => guard(() => handler(args));
  return out as H;
}

/** What a snapshot shows besides the assets: the entity and its lists (not when they were fetched). */
function shownOf(store: WorkspaceStore): string {
  const { fetchedAt: _at, problem: _problem, ...lists } = readReference(store.reference(referenceKey));
  return JSON.stringify([store.entity(), lists]);
}
