/**
 * Sign in to a connection: paste a partner token (with the expiry chosen when it was generated), or
 * sign in with the system browser (OAuth: loopback redirect, or a code pasted by hand). The token is
 * only ever in this form until submitted; main keeps it, and nothing sent back carries it.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { bridge } from '../bridge';
import { leaveSignIn, useSignInTarget } from '../connections/requests';
import { useModalDialog } from '../shell/use-modal-dialog';
import { notify } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';
import { OAuthSignIn } from './OAuthSignIn';
import { TokenSignInForm } from './TokenSignInForm';
import { useOAuthFlow } from './use-oauth-flow';
import '../connections/connections.css';
import { errorMessage } from '../../../shared/errors';

type Method = 'token' | 'oauth';

export function SignInDialog() {
  const session = useWorkspace((s) => s.session);
  const [connectionId, setConnectionId] = useState('');
  const [method, setMethod] = useState<Method>('token');
  const [token, setToken] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Read when a browser sign-in ends, which may be renders after it started.
  const connectionName = useRef('');

  const connection = session?.connections.find((c) => c.id === connectionId);
  connectionName.current = connection?.name ?? '';
  const isCustom = connection?.kind === 'custom';

  const oauth = useOAuthFlow({
    setError,
    setBusy,
    onSignedIn: () => {
      notify('info', `Signed in to ${connectionName.current || 'the service'}.`);
      leaveSignIn('done');
      void loadAll();
    },
  });

  // The hook's close is not used: this dialog's own close (below) ends a waiting OAuth flow, and
  // leaveSignIn() keeps the same guard while going back to the connections dialog it came from.
  const { ref } = useModalDialog('signIn', () => {
    const target = useSignInTarget.getState();
    setConnectionId(target.connectionId ?? session?.activeConnectionId ?? '');
    setMethod(target.method ?? 'token');
    setToken('');
    setExpiresOn('');
    setClientSecret('');
    oauth.reset();
    setError(null);
  });

  const close = () => {
    oauth.cancel();
    setToken('');
    setClientSecret('');
    leaveSignIn('cancelled');
  };

  const submitToken = async (e: FormEvent) => {
    e.preventDefault();
    const pasted = token.trim();
    // Out of the form as soon as it is sent: whatever main answers, the renderer keeps no copy.
    setToken('');
    setBusy(true);
    setError(null);
    try {
      await bridge.methods['auth.signInWithToken']({
        connectionId,
        token: pasted,
        ...(expiresOn ? { expiresOn } : {}),
      });
      notify('info', `Signed in to ${connection?.name ?? 'the service'}.`);
      leaveSignIn('done');
      await loadAll();
    } catch (err) {
      setError(`Not signed in: ${errorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const startOAuth = (redirect: 'loopback' | 'oob') =>
    void oauth.start({
      connectionId,
      redirect,
      client: isCustom ? { clientId, clientSecret } : undefined,
    });

  const choose = (chosen: Method) => {
    setMethod(chosen);
    setError(null);
  };

  const waiting = oauth.phase !== 'idle';
  return (
    <dialog
      ref={ref}
      className="dialog sign-in-dialog"
      aria-labelledby="sign-in-title"
      data-testid="sign-in-dialog"
      onClose={close}
    >
      <h2 id="sign-in-title">Sign in{connection ? ` to ${connection.name}` : ''}</h2>
      <ConnectionChoice
        connections={session?.connections ?? []}
        value={connectionId}
        disabled={waiting || busy}
        onChoose={(id) => {
          setConnectionId(id);
          setError(null);
        }}
      />

      <fieldset className="sign-in-methods" disabled={waiting || busy}>
        <legend>How to sign in</legend>
        <MethodChoice value="token" method={method} onChoose={choose}>
          Paste an access token
        </MethodChoice>
        <MethodChoice value="oauth" method={method} onChoose={choose}>
          Sign in with browser (OAuth)
        </MethodChoice>
      </fieldset>

      {method === 'token' ? (
        <TokenSignInForm
          portalUrl={connection?.portalUrl}
          keychainAvailable={session?.keychain.available === true}
          token={token}
          onToken={setToken}
          expiresOn={expiresOn}
          onExpiresOn={setExpiresOn}
          busy={busy}
          error={error}
          onSubmit={(e) => void submitToken(e)}
          onCancel={close}
        />
      ) : (
        <OAuthSignIn
          custom={isCustom && connection ? { portalUrl: connection.portalUrl } : null}
          clientId={clientId}
          onClientId={setClientId}
          clientSecret={clientSecret}
          onClientSecret={setClientSecret}
          oauth={oauth}
          busy={busy}
          error={error}
          onStart={startOAuth}
          onCancel={close}
        />
      )}
    </dialog>
  );
}

function MethodChoice(props: {
  value: Method;
  method: Method;
  onChoose: (method: Method) => void;
  children: ReactNode;
}) {
  return (
    <label className="radio">
      <input
        type="radio"
        name="sign-in-method"
        value={props.value}
        data-testid={`sign-in-method-${props.value}`}
        checked={props.method === props.value}
        onChange={() => props.onChoose(props.value)}
      />
      {props.children}
    </label>
  );
}

function ConnectionChoice(props: {
  connections: ReadonlyArray<{ id: string; name: string }>;
  value: string;
  disabled: boolean;
  onChoose: (connectionId: string) => void;
}) {
  return (
    <label>
      Connection
      <select
        value={props.value}
        disabled={props.disabled}
        data-testid="sign-in-connection"
        onChange={(e) => props.onChoose(e.target.value)}
      >
        {props.connections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </label>
  );
}
