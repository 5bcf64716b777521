/** The entity's responses: this year's to answer, earlier ones read-only, unreadable ones with why. */
import type { ResponseListItem } from '../../../shared/responses/types';
import { openResponse, useResponses } from './responses-store';

function counts(r: ResponseListItem): string[] {
  const out: string[] = [];
  if (r.modified > 0) out.push(`${r.modified} modified`);
  if (r.conflicts > 0) out.push(`${r.conflicts} in conflict`);
  out.push(`${r.documents} document${r.documents === 1 ? '' : 's'}`);
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
              <span className="response-name">{r.name}</span>
              <span className="response-facts">
                <span>{r.year}</span>
                <span className={`tag state-${r.state}`} data-testid="response-state">
                  {r.state}
                </span>
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
