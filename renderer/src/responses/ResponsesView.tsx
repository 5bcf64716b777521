/** Portfolio responses: list, open, answer offline, sync with lock_version, add evidence links. */
import { useEffect } from 'react';
import { ResponseDetailPane } from './ResponseDetail';
import { ResponseList } from './ResponseList';
import { loadList, resetResponses, syncResponses, useResponses } from './responses-store';
import { SyncSummary } from './SyncSummary';
import './responses.css';

export function ResponsesView() {
  const syncing = useResponses((s) => s.syncing);
  const pending = useResponses((s) => (s.list ?? []).reduce((n, r) => n + r.modified, 0));
  useEffect(() => {
    // The view is keyed by entity: a fresh mount starts from that entity's responses.
    resetResponses();
    void loadList();
  }, []);
  return (
    <div
      className="responses-view"
      data-testid="responses-view"
      id="workspace-view"
      role="tabpanel"
      aria-labelledby="tab-responses"
    >
      <div className="responses-toolbar">
        <button
          type="button"
          className="primary"
          data-testid="responses-sync"
          disabled={syncing}
          aria-busy={syncing}
          onClick={() => void syncResponses()}
        >
          {syncing ? 'Syncing responses…' : 'Sync responses'}
        </button>
        <span className="hint" data-testid="responses-pending">
          {pending} answer{pending === 1 ? '' : 's'} waiting to be sent
        </span>
        <SyncSummary />
      </div>
      <div className="responses-body">
        <ResponseList />
        <ResponseDetailPane />
      </div>
    </div>
  );
}
