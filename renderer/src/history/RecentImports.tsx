/**
 * The Import dialog's "Recent imports": the workspace's latest imports (read when opened), each
 * opening its record (ImportRecordPanel.tsx), as "Show the import" does from a cell's history.
 */
import { useState } from 'react';
import type { ImportSummary } from '../../../shared/history/import-record';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { openImportRecord } from './cell-history-ui';
import { importFacts, timeOf } from './history-words';

export function RecentImports() {
  const [list, setList] = useState<ImportSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = (open: boolean) => {
    if (!open) return;
    setError(null);
    bridge.methods['workspace.recentImports']({}).then(setList, (err: unknown) =>
      setError(errorMessage(err)),
    );
  };
  return (
    <details
      className="recent-imports"
      data-testid="recent-imports"
      onToggle={(e) => read(e.currentTarget.open)}
    >
      <summary>Recent imports</summary>
      {error && <p className="error">{error}</p>}
      {list?.length === 0 && <p className="hint">No import applied to this workspace yet.</p>}
      {list && list.length > 0 && (
        <ul>
          {list.map((item) => (
            <li key={item.importId}>
              <button
                type="button"
                className="link-button"
                data-testid="recent-import"
                title={importFacts(item)}
                onClick={() => openImportRecord({ importId: item.importId })}
              >
                {item.file}
              </button>{' '}
              <span className="hint">
                {timeOf(item.at)}
                {item.step === 'undone' ? ', undone' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
