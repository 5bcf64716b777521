/** Connections: pick one, add a real service, remove one, sign in to it. */
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type RefObject } from 'react';
import type { ConnectionView, SessionState } from '../../../shared/bridge/types';
import { bridge } from '../bridge';
import { showGuide } from '../onboarding/guide-store';
import { useModalDialog } from '../shell/use-modal-dialog';
import { notify, useUi } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';
import { openSignIn, takeFocusAdd } from './requests';
import { validateConnection, type ConnectionDraft, type DraftErrors } from './validate';
import { describeAssetIdName, realServicePreset } from './presets';
import './connections.css';
import { errorMessage } from '../../../shared/errors';

const emptyDraft: ConnectionDraft = { name: '', baseUrl: '', portalUrl: '', authUrl: '' };

export function ConnectionsDialog() {
  const session = useWorkspace((s) => s.session);
  const nameRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null);

  const { ref, close: onClose } = useModalDialog('connections', () => {
    setError(null);
    setConfirmRemove(null);
    if (takeFocusAdd()) nameRef.current?.focus();
  });
  // Unguarded, unlike onClose: a finished switch closes whatever dialog shows by then, as it always has.
  const close = () => useUi.setState({ dialog: null });

  /** Runs one bridge call with the row marked busy, then reloads what the header and grids show. */
  const run = async (key: string, call: () => Promise<SessionState>, then?: () => void) => {
    setBusy(key);
    setError(null);
    try {
      await call();
      await loadAll();
      then?.();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const select = (c: ConnectionView) =>
    run(
      `select:${c.id}`,
      () => bridge.methods['connections.select']({ connectionId: c.id }),
      () => {
        notify('info', `Working on ${c.name}.`);
        close();
      },
    );
  const signOut = (c: ConnectionView) =>
    run(
      `signout:${c.id}`,
      () => bridge.methods['auth.signOut']({ connectionId: c.id }),
      () => notify('info', `Signed out of ${c.name}.`),
    );
  const remove = (c: ConnectionView) =>
    run(
      `remove:${c.id}`,
      () => bridge.methods['connections.remove']({ connectionId: c.id }),
      () => {
        setConfirmRemove(null);
        notify('info', `Removed ${c.name}.`);
      },
    );

  const connections = session?.connections ?? [];
  return (
    <dialog
      ref={ref}
      className="dialog connections-dialog"
      aria-labelledby="connections-title"
      data-testid="connections-dialog"
      onClose={onClose}
    >
      <h2 id="connections-title">Connections</h2>
      <p className="hint">
        The app works on one connection at a time. The local sandbox is built in; add the real service to sync
        with it.
      </p>
      <ul className="connection-list" data-testid="connection-list" aria-label="Connections">
        {connections.map((c) => (
          <ConnectionRow
            key={c.id}
            connection={c}
            session={session}
            busy={busy}
            confirming={confirmRemove === c.id}
            onSelect={() => void select(c)}
            onSignIn={() => openSignIn(c.id, { returnTo: 'connections' })}
            onSignOut={() => void signOut(c)}
            onAskRemove={() => setConfirmRemove(c.id)}
            onCancelRemove={() => setConfirmRemove(null)}
            onRemove={() => void remove(c)}
          />
        ))}
      </ul>
      {error && (
        <p role="alert" className="error" data-testid="connections-error">
          {error}
        </p>
      )}
      <AddConnectionForm
        nameRef={nameRef}
        onAdded={(added) => {
          notify('info', `Added ${added.name}. Sign in to it to see its entities.`);
          openSignIn(added.id, { returnTo: 'connections' });
        }}
      />
      <div className="dialog-actions">
        <button
          type="button"
          className="link-button"
          data-testid="connections-show-guide"
          onClick={() => {
            showGuide();
            close();
          }}
        >
          Show the getting-started guide
        </button>
        <span className="spacer" />
        <button type="button" onClick={close} data-testid="connections-close">
          Close
        </button>
      </div>
    </dialog>
  );
}

function ConnectionRow(props: {
  connection: ConnectionView;
  session: SessionState | undefined;
  busy: string | null;
  confirming: boolean;
  onSelect: () => void;
  onSignIn: () => void;
  onSignOut: () => void;
  onAskRemove: () => void;
  onCancelRemove: () => void;
  onRemove: () => void;
}) {
  const { connection: c, session, busy, confirming } = props;
  const auth = c.active ? session?.auth : undefined;
  const signedIn = auth?.signedIn === true && !auth.paused;
  const titleId = `connection-name-${c.id}`;
  const disabled = busy !== null;
  return (
    <li
      className={`connection-row${c.active ? ' active' : ''}`}
      data-testid="connection-row"
      data-connection-id={c.id}
      aria-labelledby={titleId}
    >
      <div className="connection-info">
        <span className="connection-name" id={titleId}>
          {c.name}
          {c.active && (
            <span className="pill active-pill" data-testid="connection-active">
              Active
            </span>
          )}
          {c.kind === 'local-sandbox' && <span className="pill">Built in</span>}
        </span>
        <span className="connection-url">{c.baseUrl}</span>
        <span className="connection-ids" data-testid="connection-asset-id-name">
          {describeAssetIdName(c.assetIdName)}
        </span>
        <span className="connection-auth" data-testid="connection-auth">
          {auth ? <AuthLine auth={auth} /> : 'Sign-in is checked when you switch to it'}
        </span>
      </div>
      <div className="connection-actions">
        {confirming ? (
          <div className="confirm-remove" role="group" aria-label={`Remove ${c.name}?`}>
            <span>Remove {c.name}? Its stored sign-in is deleted too.</span>
            <button
              type="button"
              className="danger"
              disabled={disabled}
              data-testid="connection-remove-confirm"
              onClick={props.onRemove}
            >
              Remove
            </button>
            <button
              type="button"
              disabled={disabled}
              data-testid="connection-remove-cancel"
              onClick={props.onCancelRemove}
              autoFocus
            >
              Keep
            </button>
          </div>
        ) : (
          <>
            {!c.active && (
              <button
                type="button"
                className="primary"
                disabled={disabled}
                data-testid="connection-select"
                onClick={props.onSelect}
              >
                {busy === `select:${c.id}` ? 'Switching…' : 'Switch to'}
              </button>
            )}
            {!signedIn && (
              <button
                type="button"
                disabled={disabled}
                data-testid="connection-sign-in"
                onClick={props.onSignIn}
              >
                Sign in…
              </button>
            )}
            {(signedIn || !c.active) && (
              <button
                type="button"
                disabled={disabled}
                data-testid="connection-sign-out"
                title="Forget the token stored for this connection"
                onClick={props.onSignOut}
              >
                Sign out
              </button>
            )}
            {c.kind === 'custom' && (
              <button
                type="button"
                disabled={disabled}
                data-testid="connection-remove"
                onClick={props.onAskRemove}
              >
                Remove…
              </button>
            )}
          </>
        )}
      </div>
    </li>
  );
}

function AuthLine({ auth }: { auth: SessionState['auth'] }) {
  if (!auth.signedIn) return <span className="auth-off">Not signed in</span>;
  if (auth.paused) return <span className="auth-warn">Sign-in needed: the sync is paused</span>;
  const kind =
    auth.kind === 'oauth' ? 'browser sign-in' : auth.kind === 'partner' ? 'access token' : 'built in';
  const expiry = auth.expiresAt
    ? `, expires ${new Date(auth.expiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`
    : '';
  const warn = auth.expiry === 'soon' ? ' (soon)' : auth.expiry === 'expired' ? ' (expired)' : '';
  return (
    <span className="auth-on">
      Signed in ({kind}
      {expiry}
      {warn})
    </span>
  );
}

function AddConnectionForm(props: {
  nameRef: RefObject<HTMLInputElement | null>;
  onAdded: (added: ConnectionView) => void;
}) {
  const [draft, setDraft] = useState<ConnectionDraft>(emptyDraft);
  /** Filled from the real service's preset: the connection states the service's asset id name. */
  const [fromPreset, setFromPreset] = useState(false);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = useUi((s) => s.dialog === 'connections');

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setServerError(null);
  }, [open]);

  const set = (key: keyof ConnectionDraft) => (e: ChangeEvent<HTMLInputElement>) => {
    setDraft((d) => ({ ...d, [key]: e.target.value }));
    setErrors((x) => ({ ...x, [key]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = validateConnection(draft);
    setErrors(checked.errors);
    setServerError(null);
    if (!checked.value) return;
    setBusy(true);
    try {
      const session = await bridge.methods['connections.add'](
        fromPreset ? { ...checked.value, assetIdName: realServicePreset.assetIdName } : checked.value,
      );
      const added = session.connections.find((c) => c.id === session.activeConnectionId);
      setDraft(emptyDraft);
      setFromPreset(false);
      await loadAll();
      if (added) props.onAdded(added);
    } catch (err) {
      setServerError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const field = (
    key: keyof ConnectionDraft,
    label: string,
    extra: { placeholder?: string; hint?: string; inputRef?: RefObject<HTMLInputElement | null> },
  ) => {
    const id = `add-connection-${key}`;
    const err = errors[key];
    return (
      <label htmlFor={id}>
        {label}
        <input
          id={id}
          ref={extra.inputRef}
          value={draft[key]}
          onChange={set(key)}
          placeholder={extra.placeholder}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? `${id}-error` : undefined}
          data-testid={id}
        />
        {err && (
          <span className="field-error" id={`${id}-error`} data-testid={`${id}-error`}>
            {err}
          </span>
        )}
        {extra.hint && !err && <span className="hint">{extra.hint}</span>}
      </label>
    );
  };

  return (
    <form
      className="add-connection"
      onSubmit={submit}
      noValidate
      aria-labelledby="add-connection-title"
      data-testid="add-connection-form"
    >
      <h3 id="add-connection-title">Add a real connection</h3>
      <p className="hint">
        <button
          type="button"
          className="link-button"
          data-testid="add-connection-preset"
          onClick={() => {
            const { assetIdName: _name, ...addresses } = realServicePreset;
            setDraft(addresses);
            setErrors({});
            setFromPreset(true);
          }}
        >
          Fill in the real service (GRESB)
        </button>{' '}
        — its addresses, and the name it gives the asset id (gresb_asset_id).
      </p>
      <div className="add-connection-fields">
        {field('name', 'Name', { placeholder: 'e.g. Submission Service', inputRef: props.nameRef })}
        {field('baseUrl', 'Service address (API)', { placeholder: 'https://api.example.com' })}
      </div>
      <details className="more-addresses">
        <summary>Portal and sign-in addresses, if they differ from the service address</summary>
        <div className="add-connection-fields">
          {field('portalUrl', 'Portal address (optional)', {
            hint: 'Where tokens and OAuth apps are managed.',
          })}
          {field('authUrl', 'Token endpoint address (optional)', { hint: 'Serves /oauth/token.' })}
        </div>
      </details>
      {serverError && (
        <p role="alert" className="error" data-testid="add-connection-error">
          The connection was not added: {serverError}
        </p>
      )}
      <div className="dialog-actions">
        <button type="submit" className="primary" disabled={busy} data-testid="add-connection-submit">
          {busy ? 'Adding…' : 'Add and sign in'}
        </button>
      </div>
    </form>
  );
}
