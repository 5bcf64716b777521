/**
 * The app's own "are you sure" (never the browser's `confirm`, which a long list of names runs off
 * the screen and a test cannot read): a question, the names it is about (the first few, then "and
 * 10,031 more"), and two buttons. `askConfirm` resolves true on the action, false on Cancel or Escape.
 */
import { useEffect, useRef } from 'react';
import { create } from 'zustand';

export interface ConfirmRequest {
  title: string;
  /** The question, e.g. "Delete 2 ticked assets: A, B?" */
  message: string;
  /** Names (with ids) listed under the question; long lists are summarised. */
  items?: readonly string[];
  /** How many of `items` to list before "and N more". */
  show?: number;
  action: string;
  detail?: string;
}

interface ConfirmState {
  request: (ConfirmRequest & { resolve: (ok: boolean) => void }) | null;
}

const useConfirm = create<ConfirmState>(() => ({ request: null }));

export function askConfirm(request: ConfirmRequest): Promise<boolean> {
  // One question at a time: an earlier one still open counts as declined.
  useConfirm.getState().request?.resolve(false);
  return new Promise((resolve) => {
    useConfirm.setState({ request: { ...request, resolve } });
  });
}

/** "A, B, C, D, E and 10,031 more": the first `show` names, then how many are left. */
export function summariseNames(names: readonly string[], show = 5): string {
  if (names.length <= show) return names.join(', ');
  return `${names.slice(0, show).join(', ')} and ${(names.length - show).toLocaleString('en-US')} more`;
}

export function ConfirmDialog() {
  const request = useConfirm((s) => s.request);
  const ref = useRef<HTMLDialogElement>(null);
  const answer = (ok: boolean) => {
    const current = useConfirm.getState().request;
    if (!current) return;
    useConfirm.setState({ request: null });
    current.resolve(ok);
  };
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (request && !dialog.open) dialog.showModal();
    else if (!request && dialog.open) dialog.close();
  }, [request]);
  const items = request?.items ?? [];
  const show = request?.show ?? 20;
  return (
    <dialog
      ref={ref}
      className="dialog confirm-dialog"
      aria-labelledby="confirm-title"
      data-testid="confirm-dialog"
      onClose={() => answer(false)}
    >
      {request && (
        <>
          <h2 id="confirm-title">{request.title}</h2>
          <p data-testid="confirm-message">{request.message}</p>
          {items.length > 0 && (
            <ul className="confirm-items" data-testid="confirm-items">
              {items.slice(0, show).map((item, i) => (
                <li key={i}>{item}</li>
              ))}
              {items.length > show && (
                <li className="confirm-more">and {(items.length - show).toLocaleString('en-US')} more</li>
              )}
            </ul>
          )}
          {request.detail && <p className="confirm-detail">{request.detail}</p>}
          <div className="dialog-actions">
            <button type="button" data-testid="confirm-cancel" onClick={() => answer(false)}>
              Cancel
            </button>
            <button
              type="button"
              className="primary danger"
              data-testid="confirm-ok"
              onClick={() => answer(true)}
            >
              {request.action}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
