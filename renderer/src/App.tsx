import { useEffect } from 'react';
import { AssetsGrid } from './grids/AssetsGrid';
import { useAssetsStore } from './store/assets-store';

export function App() {
  const { rows, status, error, load } = useAssetsStore();
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="app">
      <header className="app-header">
        <h1>Asset Desk</h1>
      </header>
      <main className="app-main">
        {status === 'error' && (
          <p role="alert" className="error">
            Could not load assets: {error}
          </p>
        )}
        <AssetsGrid rows={rows} />
      </main>
      <footer className="status-bar" aria-live="polite">
        {status === 'ready' ? `${rows.length} assets` : status === 'loading' ? 'Loading…' : ''}
      </footer>
    </div>
  );
}
