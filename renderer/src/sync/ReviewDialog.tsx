/**
 * "What will be sent": one table of asset · field · old → new for what goes (creates, updates,
 * deletes), then what is held back with its reasons and "Send anyway", in the columns' words. The
 * counts are honest: an asset held back is counted there, not among the updates.
 */
import { cellOfPath } from '../grid-model/rows';
import { useModalDialog } from '../shell/use-modal-dialog';
import { jumpTo, setPanel } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import { syncResponses } from '../responses/responses-store';
import { runSync, toggleSendAnyway, useSync } from './sync-store';
import { isRecordPath, reviewLabel, reviewMessage, reviewValue, type ReviewContext } from './review-words';

export function ReviewDialog() {
  const review = useSync((s) => s.review);
  const sendAnyway = useSync((s) => s.sendAnyway);
  const answers = useSync((s) => s.pendingAnswers);
  const assets = useWorkspace((s) => s.assets);
  const reference = useWorkspace((s) => s.meta?.reference);
  const { ref, close } = useModalDialog('review');
  // One Sync for everything pending: the assets, then the portfolio responses' answers.
  const syncNow = async () => {
    close();
    setPanel('sync');
    await runSync();
    if (answers > 0) await syncResponses();
  };
  const go = (localId: string, path: string) => {
    close();
    jumpTo(localId, path, cellOfPath(localId, path).grid);
  };
  const contextOf = (localId: string): ReviewContext => {
    const view = assets.get(localId);
    return { docs: [view?.doc], reference };
  };

  const heldBack = review?.heldBack ?? [];
  const held = new Set(heldBack.filter((b) => !sendAnyway.includes(b.localId)).map((b) => b.localId));
  const creates = (review?.creates ?? []).filter((c) => !held.has(c.localId));
  const updates = (review?.updates ?? []).filter((u) => !held.has(u.localId));
  const deletes = review?.deletes ?? [];
  const conflicted = review?.conflicted ?? [];
  const keptHere = review?.keptHere ?? [];
  const counts: Array<[string, string, number]> = [
    ['create', 'Create', creates.length],
    ['update', 'Update', updates.length],
    ['delete', 'Delete', deletes.length],
    ['held', 'Held back', held.size],
    ['conflicts', 'Conflicts', conflicted.length],
  ];

  return (
    <dialog
      ref={ref}
      className="dialog review-dialog"
      aria-labelledby="review-title"
      onClose={close}
      data-testid="review-dialog"
    >
      <h2 id="review-title">What will be sent</h2>
      {!review ? (
        <p>Loading…</p>
      ) : (
        <div className="review-body">
          <p className="review-counts">
            {counts.map(([id, label, n]) => (
              <span key={id} data-testid={`review-count-${id}`} className={n === 0 ? 'hint' : ''}>
                {label} ({n})
              </span>
            ))}
          </p>
          {creates.length + updates.length + deletes.length > 0 && (
            <table className="review-table" data-testid="review-sent">
              <thead>
                <tr>
                  <th scope="col">Asset</th>
                  <th scope="col">Field</th>
                  <th scope="col">Old → new</th>
                </tr>
              </thead>
              <tbody>
                {creates.map((c) => (
                  <tr key={`c:${c.localId}`} data-testid="review-create">
                    <th scope="row">
                      <button type="button" className="link-button" onClick={() => go(c.localId, 'name')}>
                        {c.name}
                      </button>
                    </th>
                    <td colSpan={2}>
                      new asset{sendAnyway.includes(c.localId) ? ', sent with its errors' : ''}
                    </td>
                  </tr>
                ))}
                {updates.flatMap((u) => {
                  const ctx = contextOf(u.localId);
                  const changes =
                    u.changes ?? u.changedPaths.map((path) => ({ path, before: '', after: '' }));
                  return changes.map((c, i) => (
                    <tr key={`u:${u.localId}:${c.path}`} data-testid="review-change">
                      <th scope="row">{i === 0 ? u.name : ''}</th>
                      <td>
                        <button type="button" className="link-button" onClick={() => go(u.localId, c.path)}>
                          {reviewLabel(c.path, ctx)}
                        </button>
                      </td>
                      <td>
                        {isRecordPath(c.path)
                          ? c.before === '(empty)'
                            ? 'added'
                            : 'removed'
                          : `${reviewValue(c.path, c.before, ctx)} → ${reviewValue(c.path, c.after, ctx)}`}
                      </td>
                    </tr>
                  ));
                })}
                {deletes.map((d) => (
                  <tr key={`d:${d.localId}`} data-testid="review-delete">
                    <th scope="row">{d.name}</th>
                    <td colSpan={2}>
                      deleted on the service
                      {d.serviceAssetId !== null ? ` (Asset ID ${d.serviceAssetId})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {heldBack.length > 0 && (
            <section data-testid="review-held-back">
              <h3>Held back: errors ({heldBack.length})</h3>
              <p className="hint">
                Not sent until fixed, valid edits of the same asset included. &quot;Send anyway&quot; has the
                service save it with its errors.
              </p>
              <table className="review-table">
                <thead>
                  <tr>
                    <th scope="col">Asset</th>
                    <th scope="col">Field</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {heldBack.flatMap((b) => {
                    const ctx = contextOf(b.localId);
                    return b.errors.map((e, i) => (
                      <tr key={`${b.localId}:${e.path}`} data-testid="review-held-error">
                        <th scope="row">
                          {i === 0 && (
                            <>
                              {b.name}
                              <label className="send-anyway">
                                <input
                                  type="checkbox"
                                  checked={sendAnyway.includes(b.localId)}
                                  onChange={(event) => toggleSendAnyway(b.localId, event.target.checked)}
                                  data-testid="send-anyway"
                                />{' '}
                                Send anyway
                              </label>
                            </>
                          )}
                        </th>
                        <td>
                          <button type="button" className="link-button" onClick={() => go(b.localId, e.path)}>
                            {reviewLabel(e.path, ctx)}
                          </button>
                        </td>
                        <td>{e.messages.map(reviewMessage).join('; ')}</td>
                      </tr>
                    ));
                  })}
                </tbody>
              </table>
            </section>
          )}
          {conflicted.length > 0 && (
            <section>
              <h3>Held back: conflicts ({conflicted.length})</h3>
              <p className="hint">
                {conflicted.map((c) => c.name).join(', ')}: resolve them in the Sync panel.
              </p>
            </section>
          )}
          {keptHere.length > 0 && (
            <section data-testid="review-kept-here">
              <h3>Kept here, not sent ({keptHere.length})</h3>
              <p className="hint">
                {keptHere
                  .map(
                    (k) =>
                      `${k.name}: ${k.changedPaths.map((path) => reviewLabel(path, contextOf(k.localId))).join(', ')}`,
                  )
                  .join('; ')}
                . Kept here; this service no longer takes it.
              </p>
            </section>
          )}
          <section data-testid="review-responses">
            <h3>Portfolio responses ({answers})</h3>
            <p className="hint">
              {answers === 0
                ? 'No answer waits to be sent.'
                : `${answers} answer${answers === 1 ? '' : 's'} of the portfolio responses will be sent too.`}
            </p>
          </section>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={close}>
          Close
        </button>
        <button
          type="button"
          className="primary"
          data-testid="review-sync-now"
          onClick={() => void syncNow()}
          autoFocus
        >
          Sync now
        </button>
      </div>
    </dialog>
  );
}
