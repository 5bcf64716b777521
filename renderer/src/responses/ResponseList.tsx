/** The entity's responses: this year's to answer, earlier ones read-only, unreadable ones with why. */
import type { ResponseListItem } from '../../../shared/responses/types';
import { responseTitle, statusLabel } from './format';
import { openResponse, useResponses } from './responses-store';

function counts(r: ResponseListItem): string[] {
  const out: string[] = [];
  if (r.modified > 0) out.push(`${r.modified} modified`);
  if (r.conflicts > 0) out.push(`${r.conflicts} in conflict`);
  if (r.notAvailable > 0) out.push(`${r.notAvailable} not available`);
  out.push(`${r.evidence} evidence item${r.evidence === 1 ? '' : 's'}`);
  return out;
}

export function ResponseList() {
  const list = useResponses((s) => s.list);
  const loading = useResponses((s) => s.listLoading);
  const error = useResponses((s) => s.listError);
  const selectedId = useResponses((s) => s.selectedId);
  return (
    <nav className="response-list" aria-label="Portfolio responses">
      <h2>Responses{list ? ` (${list.length})` : ''}</h2>
      {loading && list === null && <p className="hint">Reading the responses…</p>}
      {error && (
        <p className="error" role="alert" data-testid="responses-list-error">
          Could not list the responses: {error}
        </p>
      )}
      {list !== null && list.length === 0 && <p className="empty">This entity has no portfolio responses.</p>}
      <ul>
        {(list ?? []).map((r) => (
          <li key={r.id}>
            <button
              type="button"
              className={`response-item${r.id === selectedId ? ' selected' : ''}${r.available ? '' : ' unavailable'}`}
              aria-current={r.id === selectedId ? 'true' : undefined}
              data-testid="response-item"
              data-response-id={r.id}
              data-read-only={r.readOnly}
              onClick={() => void openResponse(r.id)}
            >
              <span className="response-name">{responseTitle(r)}</span>
              <span className="response-facts">
                <span>{r.name}</span>
                <span className={`tag state-${r.status}`} data-testid="response-state" data-status={r.status}>
                  {statusLabel(r.status)}
                </span>
                {r.percent_completed !== null && <span>{r.percent_completed}%</span>}
                {r.readOnly && (
                  <span className="tag tag-readonly" data-testid="read-only-mark">
                    read-only
                  </span>
                )}
              </span>
              <span className="response-counts" data-testid="response-counts">
                {counts(r).map((c) => (
                  <span key={c} className={c.includes('conflict') ? 'count-conflict' : ''}>
                    {c}
                  </span>
                ))}
              </span>
              {!r.available && (
                <span className="unavailable-reason" data-testid="unavailable-reason">
                  Not available: {r.unavailableReason ?? 'the service would not show it'}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
