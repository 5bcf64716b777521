/**
 * Sync of the open workspace with the service: one run at a time, cancellable, paused by a refused
 * token and resumed by itself after the next sign-in. Its slice of the bridge: `sync.*`.
 */
import type { PushMode, SyncReport } from '../../shared/sync/types';
import type { SessionService } from '../auth/session-service';
import { badRequest, forbidden } from '../../shared/errors';
import type { BridgeHandlers, EventSink } from '../bridge/handlers';
import type { OpenWorkspace, WorkspaceService } from '../workspace/workspace-service';
import { freshen } from './fresh-views';
import { OnlineProbe } from './online-probe';

/** What the analyst chose in the review: the deletes confirmed, the held-back assets sent anyway. */
interface SyncChoices {
  deletes: ReadonlySet<number>;
  sendAnyway: ReadonlySet<string>;
}
import { SyncEngine } from './sync-engine';

export type SyncHandlers = Pick<BridgeHandlers, 'sync.review' | 'sync.run' | 'sync.cancel' | 'sync.dryRun'>;

export class SyncService {
  private running: AbortController | undefined;
  /** A sync stopped by a refused token resumes by itself once the user has signed in again. */
  private resumeAfterSignIn: { mode: PushMode; choices: SyncChoices } | undefined;
  private engineOf: { workspace: OpenWorkspace; engine: SyncEngine } | undefined;
  /** While offline after a sync: brings the header back online when the service answers again. */
  private readonly probe: OnlineProbe;

  constructor(
    private readonly deps: {
      session: SessionService;
      workspaces: WorkspaceService;
      events: EventSink;
      probeFirstMs?: number;
    },
  ) {
    this.probe = new OnlineProbe({
      ask: () => deps.session.client.lists(),
      onOnline: () => {
        deps.session.setOnline(true);
        deps.events.emit('session.online', { online: true });
      },
      ...(deps.probeFirstMs === undefined ? {} : { firstMs: deps.probeFirstMs }),
    });
    deps.workspaces.listen({
      // A first open fills the workspace so the analyst starts from what the service holds.
      opened: async (workspace) => {
        if (workspace.store.assetCount() > 0) return;
        try {
          await this.engine(workspace).pull();
          workspace.store.setMeta('last_sync_at', new Date().toISOString());
          // The window may already show the workspace (opened from disk at start): it reloads.
          deps.events.emit('workspace.changed', { reason: 'pull' });
        } catch (error) {
          deps.session.noteFailure(error);
        }
      },
      closing: () => {
        this.running?.abort();
        this.engineOf = undefined;
      },
    });
    deps.session.listen({ signedIn: () => this.resume() });
  }

  readonly handlers: SyncHandlers = {
    // Made in the sync's worker from the click's one plan (review.ts): main sends and receives.
    'sync.review': () => this.engine(this.deps.workspaces.require()).review(),
    'sync.run': ({ mode, confirmDeletes, sendAnyway }) =>
      this.run(mode ?? 'strict', {
        deletes: new Set(confirmDeletes ?? []),
        sendAnyway: new Set(sendAnyway ?? []),
      }),
    'sync.cancel': () => {
      const wasRunning = this.running !== undefined;
      this.running?.abort();
      return wasRunning;
    },
    'sync.dryRun': async () => {
      try {
        return await this.engine(this.deps.workspaces.require()).dryRun();
      } catch (error) {
        this.deps.session.noteFailure(error);
        throw error;
      }
    },
  };

  private engine(workspace: OpenWorkspace): SyncEngine {
    if (this.engineOf?.workspace !== workspace) {
      const { session, workspaces, events } = this.deps;
      this.engineOf = {
        workspace,
        engine: new SyncEngine({
          store: workspace.store,
          client: session.client,
          entityId: workspace.entityId,
          validationContext: (mode) => workspaces.validationContext(workspace.store, mode),
          onProgress: (progress) => events.emit('sync.progress', progress),
        }),
      };
    }
    return this.engineOf.engine;
  }

  /** `deletes`: the service ids the analyst confirmed for deletion; other deletes stay pending. */
  private async run(mode: PushMode, choices: SyncChoices): Promise<SyncReport> {
    const { session, workspaces, events } = this.deps;
    const workspace = workspaces.require();
    if (this.running) throw badRequest('A sync is already running.');
    if (!session.signedIn) throw forbidden('Sign in before syncing.');
    this.running = new AbortController();
    try {
      const report = await this.engine(workspace).sync({ mode, signal: this.running.signal, ...choices });
      this.resumeAfterSignIn = undefined;
      if (report.stopped?.reason === 'unauthorized') {
        session.pause('unauthorized');
        this.resumeAfterSignIn = { mode, choices };
      } else {
        const offline = report.stopped?.offline === true;
        session.setOnline(!offline);
        if (offline) this.probe.start();
        else this.probe.stop();
      }
      if (!report.stopped) {
        report.lastSyncAt = new Date().toISOString();
        workspace.store.setMeta('last_sync_at', report.lastSyncAt);
      }
      if (report.changes) freshen(workspace.store, report.changes, session.client.assetIds.name);
      // The one reload (issue 35): what a pull brought is not named; what the push settled is.
      if (!report.changes || report.changes.pulled) events.emit('workspace.changed', { reason: 'pull' });
      return report;
    } finally {
      this.running = undefined;
    }
  }

  private resume(): void {
    const paused = this.resumeAfterSignIn;
    if (paused === undefined || !this.deps.workspaces.current || !this.deps.session.signedIn) return;
    this.resumeAfterSignIn = undefined;
    this.run(paused.mode, paused.choices)
      // No window call asked for this one, so none takes its views: the window reads the workspace.
      .then((report) => {
        if (report.changes && !report.changes.pulled)
          this.deps.events.emit('workspace.changed', { reason: 'push' });
      })
      .catch((error: unknown) => this.deps.session.noteFailure(error));
  }
}
