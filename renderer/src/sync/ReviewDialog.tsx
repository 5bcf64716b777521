/** "What will be sent": the next push grouped as create / update / delete, with the changed fields. */
import { cellOfPath } from '../grid-model/rows';
import { useModalDialog } from '../shell/use-modal-dialog';
import { jumpTo } from '../store/ui';
import { pathLabel } from '../validation/labels';
import { syncResponses } from '../responses/responses-store';
import { setPanel } from '../store/ui';
import { runSync, toggleSendAnyway, useSync } from './sync-store';

export function ReviewDialog() {
  const review = useSync((s) => s.review);
  const sendAnyway = useSync((s) => s.sendAnyway);
  const answers = useSync((s) => s.pendingAnswers);
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
        <div className="review-groups">
          <section>
            <h3>Create ({review.creates.length})</h3>
            <ul>
              {review.creates.map((c) => (
                <li key={c.localId}>
                  <button type="button" className="link-button" onClick={() => go(c.localId, 'name')}>
                    {c.name}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h3>Update ({review.updates.length})</h3>
            <ul>
              {review.updates.map((u) => (
                <li key={u.localId}>
                  <strong>{u.name}</strong>
                  <ul className="changed-fields">
                    {(u.changes ?? u.changedPaths.map((path) => ({ path, before: '', after: '' }))).map(
                      (c) => (
                        <li key={c.path} data-testid="review-change">
                          <button type="button" className="link-button" onClick={() => go(u.localId, c.path)}>
                            {pathLabel(c.path)}
                          </button>
                          {c.before !== c.after && (
                            <span className="hint">
                              {' '}
                              {c.before} → {c.after}
                            </span>
                          )}
                        </li>
                      ),
                    )}
                  </ul>
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h3>Delete ({review.deletes.length})</h3>
            <ul>
              {review.deletes.map((d) => (
                <li key={d.localId}>
                  {d.name} {d.serviceAssetId !== null && <span className="hint">#{d.serviceAssetId}</span>}
                </li>
              ))}
            </ul>
          </section>
          {(review.heldBack ?? []).length > 0 && (
            <section data-testid="review-held-back">
              <h3>Held back: errors ({review.heldBack?.length})</h3>
              <p className="hint">
                Not sent until fixed, valid edits of the same asset included. &quot;Send anyway&quot; has the
                service save it with its errors.
              </p>
              <ul>
                {review.heldBack?.map((b) => (
                  <li key={b.localId}>
                    <strong>{b.name}</strong>
                    <ul className="changed-fields">
                      {b.errors.map((e) => (
                        <li key={e.path}>
                          {e.path}: {e.messages.join('; ')}
                        </li>
                      ))}
                    </ul>
                    <label>
                      <input
                        type="checkbox"
                        checked={sendAnyway.includes(b.localId)}
                        onChange={(event) => toggleSendAnyway(b.localId, event.target.checked)}
                        data-testid="send-anyway"
                      />{' '}
                      Send anyway
                    </label>
                  </li>
                ))}
              </ul>
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
          {review.conflicted.length > 0 && (
            <section>
              <h3>Held back: conflicts ({review.conflicted.length})</h3>
              <ul>
                {review.conflicted.map((c) => (
                  <li key={c.localId}>{c.name}</li>
                ))}
              </ul>
            </section>
          )}
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
