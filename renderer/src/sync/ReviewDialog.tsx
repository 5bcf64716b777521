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
import { runSync, useSync } from './sync-store';
import { reviewLabel, type ReviewContext } from './review-words';
import { ReviewHeldBack, ReviewSent } from './ReviewTables';

export function ReviewDialog() {
  const review = useSync((s) => s.review);
  const sendAnyway = useSync((s) => s.sendAnyway);
  const answers = useSync((s) => s.pendingAnswers);
  const assets = useWorkspace((s) => s.assets);
  const reference = useWorkspace((s) => s.meta?.reference);
  const { ref, open, close } = useModalDialog('review');
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
      {/* Closed, it draws nothing: a review of 20,000 creates is as many rows, drawn again on every
          change of the workspace (a push's settled views) while no one can see them. */}
      {!open ? null : !review ? (
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
            <ReviewSent
              creates={creates}
              updates={updates}
              deletes={deletes}
              sendAnyway={sendAnyway}
              go={go}
              contextOf={contextOf}
            />
          )}
          {heldBack.length > 0 && (
            <ReviewHeldBack heldBack={heldBack} sendAnyway={sendAnyway} go={go} contextOf={contextOf} />
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
