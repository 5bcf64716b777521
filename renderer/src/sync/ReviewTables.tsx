/** The review's two tables: what will be sent (field by field, old → new) and what is held back, and why. */
import type { PendingReview } from '../../../shared/sync/types';
import { toggleSendAnyway } from './sync-store';
import { isRecordPath, reviewLabel, reviewMessage, reviewValue, type ReviewContext } from './review-words';

interface RowActions {
  sendAnyway: readonly string[];
  /** Closes the review and puts the grid's cursor on the asset's field. */
  go(localId: string, path: string): void;
  contextOf(localId: string): ReviewContext;
}

export function ReviewSent(props: RowActions & Pick<PendingReview, 'creates' | 'updates' | 'deletes'>) {
  const { creates, updates, deletes, sendAnyway, go, contextOf } = props;
  return (
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
            <td colSpan={2}>new asset{sendAnyway.includes(c.localId) ? ', sent with its errors' : ''}</td>
          </tr>
        ))}
        {updates.flatMap((u) => {
          const ctx = contextOf(u.localId);
          const changes = u.changes ?? u.changedPaths.map((path) => ({ path, before: '', after: '' }));
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
  );
}

export function ReviewHeldBack(props: RowActions & { heldBack: NonNullable<PendingReview['heldBack']> }) {
  const { heldBack, sendAnyway, go, contextOf } = props;
  return (
    <section data-testid="review-held-back">
      <h3>Held back: errors ({heldBack.length})</h3>
      <p className="hint">
        Not sent until fixed, valid edits of the same asset included. &quot;Send anyway&quot; has the service
        save it with its errors.
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
  );
}
