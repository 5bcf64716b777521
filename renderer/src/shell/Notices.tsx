import { dismiss, useUi } from '../store/ui';

/** Short-lived messages (saved, pasted, failed), announced to screen readers. */
export function Notices() {
  const notices = useUi((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div
          key={n.id}
          className={`notice notice-${n.level}`}
          role={n.level === 'error' ? 'alert' : 'status'}
        >
          <span>{n.message}</span>
          <button type="button" className="link-button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
