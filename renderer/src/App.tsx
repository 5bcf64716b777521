import { useEffect } from 'react';
import { bridge } from './bridge';
import { redo, undo } from './editing/commands';
import { gridCommandOf } from './editing/keyboard';
import { AnnualGrid, AssetsGrid, EntriesGrid } from './grids/WorkspaceGrids';
import { ConnectionsDialog } from './connections/ConnectionsDialog';
import { CellHistoryPanel } from './history/CellHistoryPanel';
import { ImportRecordPanel } from './history/ImportRecordPanel';
import { CellMenu } from './history/CellMenu';
import { connectCellMarks } from './history/cell-marks';
import { ImportExportDialog } from './import-export/ImportExportDialog';
import { FirstRunGuide } from './onboarding/FirstRunGuide';
import { OutliersView } from './outliers/OutliersView';
import { PortfolioView } from './portfolio/PortfolioView';
import { ResponsesView } from './responses/ResponsesView';
import { MetersView } from './meters/MetersView';
import { Header } from './shell/Header';
import { Notices } from './shell/Notices';
import { ConfirmDialog } from './shell/ConfirmDialog';
import { StatusBar } from './shell/StatusBar';
import { Toolbar } from './shell/Toolbar';
import { WorkspaceProblemNotice } from './shell/WorkspaceProblemNotice';
import { SignInDialog } from './sign-in/SignInDialog';
import { notify, useUi } from './store/ui';
import { loadAll, loadSettled, refreshSession, reloadSnapshot, useWorkspace } from './store/workspace';
import { ReviewDialog } from './sync/ReviewDialog';
import { SyncPanel } from './sync/SyncPanel';
import { connectSyncEvents } from './sync/sync-store';
import { ProblemsPanel } from './validation/ProblemsPanel';
import { connectValidation } from './validation/validation-store';

function isTextInput(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el?.tagName && (['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || el.isContentEditable);
}

function useAppWiring(): void {
  useEffect(() => {
    const off = [connectValidation(), connectSyncEvents(), connectCellMarks()];
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    off.push(
      bridge.on('workspace.changed', () => {
        // The one reload: changes from outside (a pull, an import). A push answers with its views
        // (sync-store.ts); views the window takes meanwhile stay (store/workspace.ts `touched`).
        clearTimeout(reloadTimer);
        reloadTimer = setTimeout(() => void reloadSnapshot().catch(() => undefined), 150);
      }),
      bridge.on('auth.signInRequired', () => {
        void refreshSession();
        useUi.setState({ dialog: 'signIn' });
      }),
      bridge.on('app.notice', (n) => notify(n.level, n.message)),
      // The session came up after the window drew the workspace from disk: its sign-in and
      // entities are known now; a first start (nothing on disk yet) loads its workspace here.
      bridge.on('session.changed', () => {
        void loadSettled()
          .then(refreshSession)
          .then((session) => {
            const { status, meta } = useWorkspace.getState();
            if (status !== 'ready' || meta?.entity.id !== session.activeEntityId) return loadAll();
          })
          .catch(() => undefined);
      }),
    );
    const onKey = (e: KeyboardEvent) => {
      if (isTextInput(e.target) || useUi.getState().dialog) return;
      const command = gridCommandOf(e);
      if (command === 'undo') {
        e.preventDefault();
        void undo();
      } else if (command === 'redo') {
        e.preventDefault();
        void redo();
      }
    };
    window.addEventListener('keydown', onKey);
    void loadAll();
    return () => {
      for (const f of off) f();
      window.removeEventListener('keydown', onKey);
      clearTimeout(reloadTimer);
    };
  }, []);
}

export function App() {
  useAppWiring();
  const status = useWorkspace((s) => s.status);
  const error = useWorkspace((s) => s.error);
  const session = useWorkspace((s) => s.session);
  const panel = useUi((s) => s.panel);

  return (
    <div className="app">
      <Header />
      <Toolbar />
      <main className={`app-main${panel ? ' with-panel' : ''}`}>
        <div className="workspace-area">
          {status === 'error' && (
            <p role="alert" className="error">
              Could not load the workspace: {error}
            </p>
          )}
          {session?.problem && <p className="error banner">{session.problem}</p>}
          <WorkspaceProblemNotice />
          {status === 'no-workspace' && <Welcome />}
          {status === 'ready' && <WorkspaceView />}
        </div>
        {panel === 'problems' && status === 'ready' && <ProblemsPanel />}
        {panel === 'sync' && status === 'ready' && <SyncPanel />}
      </main>
      <StatusBar />
      <Notices />
      <SignInDialog />
      <ReviewDialog />
      <ImportExportDialog />
      <ConnectionsDialog />
      <FirstRunGuide />
      <ConfirmDialog />
      <CellHistoryPanel />
      <ImportRecordPanel />
      <CellMenu />
    </div>
  );
}

function WorkspaceView() {
  const tab = useUi((s) => s.tab);
  const meta = useWorkspace((s) => s.meta);
  if (!meta) return null;
  // Keyed by entity so a switch builds the grids afresh with the new entity's units.
  const key = `${meta.connectionId}:${meta.entity.id}`;
  if (tab === 'outliers') return <OutliersView key={key} />;
  if (tab === 'responses') return <ResponsesView key={key} />;
  if (tab === 'portfolio') return <PortfolioView key={key} />;
  if (tab === 'meters') return <MetersView key={key} />;
  return (
    <div className="grid-panel" id="workspace-view" role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {tab === 'assets' && <AssetsGrid key={key} meta={meta} />}
      {tab === 'annual' && <AnnualGrid key={key} meta={meta} />}
      {tab === 'certifications' && <EntriesGrid key={`${key}:c`} meta={meta} collection="certifications" />}
      {tab === 'energy_ratings' && <EntriesGrid key={`${key}:e`} meta={meta} collection="energy_ratings" />}
    </div>
  );
}

function Welcome() {
  const session = useWorkspace((s) => s.session);
  const signedIn = session?.auth.signedIn ?? false;
  if (session?.connecting && !signedIn)
    return (
      <div className="welcome" role="status">
        <h2>Connecting…</h2>
        <p>Reaching the service (or starting the built-in sandbox) for the first time on this machine.</p>
      </div>
    );
  return (
    <div className="welcome">
      <h2>{signedIn ? 'Choose a reporting entity' : 'Sign in to start'}</h2>
      <p>
        {signedIn
          ? 'Pick the entity to work on in the bar above; its assets are kept here for offline work.'
          : session?.activeConnectionId === 'local-sandbox'
            ? "Signed out of the built-in sandbox. Sign in with the browser (the sandbox's portal login is shown there) or paste a token from its portal."
            : "Sign in with the browser, or paste an access token from the service's portal."}
      </p>
      {!signedIn && (
        <button type="button" className="primary" onClick={() => useUi.setState({ dialog: 'signIn' })}>
          Sign in
        </button>
      )}
    </div>
  );
}
