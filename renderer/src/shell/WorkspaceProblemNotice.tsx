import { useState } from 'react';
import { bridge } from '../bridge';
import { errorMessage } from '../../../shared/errors';
import { loadAll, useWorkspace } from '../store/workspace';

/**
 * A workspace whose file could not be opened: which one and why (main's sentence), and what can be
 * done — rebuild a damaged one from the service, or try again once its folder is writable. The rest
 * of the app (other entities, the connection) stays usable around it.
 */
export function WorkspaceProblemNotice() {
  const problem = useWorkspace((s) => s.session?.workspaceProblem);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  if (!problem) return null;
  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
      await loadAll();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="error banner workspace-problem" role="alert">
      <p>{problem.message}</p>
      {problem.canRebuild ? (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => void act(() => bridge.methods['workspace.rebuild']({}))}
        >
          {busy ? 'Rebuilding…' : 'Rebuild from the service'}
        </button>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void act(() => bridge.methods['session.selectEntity']({ entityId: problem.entityId }))
          }
        >
          Try again
        </button>
      )}
      {failure && <p className="error">{failure}</p>}
    </div>
  );
}
