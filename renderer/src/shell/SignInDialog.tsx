/** Sign in to a connection by pasting an access token (the partner-token path of the sign-in issue). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { bridge } from '../bridge';
import { useUi } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';

export function SignInDialog() {
  const open = useUi((s) => s.dialog === 'signIn');
  const session = useWorkspace((s) => s.session);
  const [connectionId, setConnectionId] = useState('');
  const [token, setToken] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setConnectionId(session?.activeConnectionId ?? '');
      setError(null);
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open, session?.activeConnectionId]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await bridge.methods['auth.signInWithToken']({
        connectionId,
        token: token.trim(),
        ...(expiresOn ? { expiresOn } : {}),
      });
      setToken('');
      useUi.setState({ dialog: null });
      await loadAll();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const connection = session?.connections.find((c) => c.id === connectionId);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="sign-in-title"
      onClose={() => useUi.setState({ dialog: null })}
    >
      <form onSubmit={submit}>
        <h2 id="sign-in-title">Sign in</h2>
        <label>
          Connection
          <select value={connectionId} onChange={(e) => setConnectionId(e.target.value)}>
            {session?.connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        {connection && (
          <p className="hint">
            Create an access token in the portal ({connection.portalUrl}) and paste it here. It is kept in the
            system keychain{session?.keychain.available ? '' : ' — unavailable now, so for this session only'}
            .
          </p>
        )}
        <label>
          Access token
          <textarea
            value={token}
            onChange={(e) => setToken(e.target.value)}
            rows={3}
            required
            minLength={8}
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <label>
          Expires on (partner tokens, optional)
          <input type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={() => useUi.setState({ dialog: null })}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || token.trim().length < 8}>
            {busy ? 'Checking…' : 'Sign in'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
