import { useEffect } from 'react';
import { AssetsGrid } from './grids/AssetsGrid';
import { useAppStore } from './store/assets-store';

export function App() {
  const { session, snapshot, status, error, load } = useAppStore();
  useEffect(() => {
    void load();
  }, [load]);
  const assets = snapshot?.assets ?? [];

  return (
    <div className="app">
      <header className="app-header">
        <h1>Asset Desk</h1>
        <span className="entity-name">{snapshot?.entity.name ?? ''}</span>
      </header>
      <main className="app-main">
        {status === 'error' && (
          <p role="alert" className="error">
            Could not load the workspace: {error}
          </p>
        )}
        {session?.problem && <p className="error">{session.problem}</p>}
        <AssetsGrid rows={assets} />
      </main>
      <footer className="status-bar" aria-live="polite">
        {status === 'ready' ? `${assets.length} assets` : status === 'loading' ? 'Loading…' : ''}
      </footer>
    </div>
  );
}
