/**
 * Sign in to a connection: paste a partner token (with the expiry chosen when it was generated), or
 * sign in with the system browser (OAuth: loopback redirect, or a code pasted by hand). The token is
 * only ever in this form until submitted; main keeps it, and nothing sent back carries it.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { OAuthFinished, OAuthStart } from '../../../shared/bridge/types';
import { bridge } from '../bridge';
import { leaveSignIn, useSignInTarget } from '../connections/requests';
import { notify } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';
import { useModalDialog } from './use-modal-dialog';
import '../connections/connections.css';

type Method = 'token' | 'oauth';
type Phase = 'idle' | 'starting' | 'waiting';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** OAuth failures as the user can act on them; main's message stays as the detail. */
function describeOAuthFailure(result: Extract<OAuthFinished, { ok: false }>): string {
  switch (result.code) {
    case 'access_denied':
      return 'Access was denied in the browser, so you are not signed in. Start again and choose Authorize.';
    case 'timeout':
      return 'The browser sign-in was not finished in time (codes last 10 minutes). Start it again.';
    case 'invalid_client':
    case 'unauthorized_client':
      return `The service did not accept the client id and secret: check them in the portal. (${result.message})`;
    case 'invalid_grant':
      return `The code was refused: it may have expired or been used already. Start again. (${result.message})`;
    default:
      return `Browser sign-in failed: ${result.message}`;
  }
}

export function SignInDialog() {
  const session = useWorkspace((s) => s.session);
  const [connectionId, setConnectionId] = useState('');
  const [method, setMethod] = useState<Method>('token');
  const [token, setToken] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [code, setCode] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [flow, setFlow] = useState<OAuthStart | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The flow this dialog waits for; results of any other (a cancelled one) are ignored. */
  const flowRef = useRef<string | null>(null);
  /** Results that arrived before startOAuth answered (the browser can be quicker than the reply). */
  const early = useRef(new Map<string, OAuthFinished>());
  const connectionName = useRef('');
  /** Bumped by each start and cancel, so a start answered after a cancel is cancelled too. */
  const startSeq = useRef(0);

  const connection = session?.connections.find((c) => c.id === connectionId);
  connectionName.current = connection?.name ?? '';
  const isCustom = connection?.kind === 'custom';

  // The hook's close is not used: this dialog's own close (below) ends a waiting OAuth flow, and
  // leaveSignIn() keeps the same guard while going back to the connections dialog it came from.
  const { ref } = useModalDialog('signIn', () => {
    const target = useSignInTarget.getState();
    setConnectionId(target.connectionId ?? session?.activeConnectionId ?? '');
    setMethod(target.method ?? 'token');
    setToken('');
    setExpiresOn('');
    setClientSecret('');
    setCode('');
    setPhase('idle');
    setFlow(null);
    setError(null);
  });

  /** The outcome of the flow this dialog waits for. */
  const settle = (result: OAuthFinished) => {
    flowRef.current = null;
    setFlow(null);
    setPhase('idle');
    setCode('');
    if (result.ok) {
      notify('info', `Signed in to ${connectionName.current || 'the service'}.`);
      leaveSignIn('done');
      void loadAll();
    } else if (result.code !== 'cancelled') {
      setError(describeOAuthFailure(result));
    }
  };
  const settleRef = useRef(settle);
  settleRef.current = settle;

  useEffect(() => {
    const off = bridge.on('auth.oauthFinished', (result) => {
      if (result.flowId === flowRef.current) settleRef.current(result);
      else early.current.set(result.flowId, result);
    });
    return () => {
      off();
      // Closing the app view must not leave a listener waiting on a port.
      if (flowRef.current) void bridge.methods['auth.cancelOAuth']({ flowId: flowRef.current });
    };
  }, []);

  const cancelFlow = () => {
    const flowId = flowRef.current;
    startSeq.current++;
    flowRef.current = null;
    setFlow(null);
    setPhase('idle');
    setCode('');
    if (flowId) void bridge.methods['auth.cancelOAuth']({ flowId }).catch(() => undefined);
  };

  const close = () => {
    cancelFlow();
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
      setError(`Not signed in: ${message(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const startOAuth = async (redirect: 'loopback' | 'oob') => {
    if (flowRef.current) cancelFlow();
    if (isCustom && (!clientId.trim() || !clientSecret.trim())) {
      setError('Enter the client id and secret of the OAuth application registered in the portal.');
      return;
    }
    setError(null);
    setPhase('starting');
    const seq = ++startSeq.current;
    try {
      const started = await bridge.methods['auth.startOAuth']({
        connectionId,
        redirect,
        ...(isCustom ? { clientId: clientId.trim(), clientSecret: clientSecret.trim() } : {}),
      });
      if (seq !== startSeq.current) {
        void bridge.methods['auth.cancelOAuth']({ flowId: started.flowId }).catch(() => undefined);
        return;
      }
      flowRef.current = started.flowId;
      setFlow(started);
      setPhase('waiting');
      const already = early.current.get(started.flowId);
      early.current.clear();
      if (already) settle(already);
    } catch (err) {
      if (seq !== startSeq.current) return;
      setPhase('idle');
      setError(`Browser sign-in could not start: ${message(err)}`);
    }
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    const flowId = flowRef.current;
    if (!flowId || !code.trim()) return;
    setError(null);
    setBusy(true);
    try {
      const accepted = await bridge.methods['auth.submitOAuthCode']({ flowId, code: code.trim() });
      if (!accepted) {
        flowRef.current = null;
        setFlow(null);
        setPhase('idle');
        setError('That sign-in has ended (cancelled or timed out). Start it again.');
      }
    } catch (err) {
      setError(`The code could not be sent: ${message(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const choose = (chosen: Method) => {
    setMethod(chosen);
    setError(null);
  };

  const waiting = phase !== 'idle';
  return (
    <dialog
      ref={ref}
      className="dialog sign-in-dialog"
      aria-labelledby="sign-in-title"
      data-testid="sign-in-dialog"
      onClose={close}
    >
      <h2 id="sign-in-title">Sign in{connection ? ` to ${connection.name}` : ''}</h2>
      <label>
        Connection
        <select
          value={connectionId}
          disabled={waiting || busy}
          data-testid="sign-in-connection"
          onChange={(e) => {
            setConnectionId(e.target.value);
            setError(null);
          }}
        >
          {session?.connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>

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
        <form onSubmit={submitToken} data-testid="sign-in-token-form">
          {connection && (
            <p className="hint">
              Generate a token in the portal&apos;s Data Partners tab ({connection.portalUrl}) and paste it
              here. It is kept in the system keychain
              {session?.keychain.available ? '' : ' — unavailable now, so for this session only'}.
            </p>
          )}
          <VerbatimField
            label="Access token"
            type="password"
            value={token}
            onValue={setToken}
            required
            minLength={8}
            testId="sign-in-token"
          />
          <label>
            Expires on (optional: the date chosen when the token was generated)
            <input
              type="date"
              value={expiresOn}
              onChange={(e) => setExpiresOn(e.target.value)}
              data-testid="sign-in-expires"
            />
          </label>
          <ErrorAndActions error={error} onCancel={close}>
            <button
              type="submit"
              className="primary"
              data-testid="sign-in-submit"
              disabled={busy || token.trim().length < 8}
            >
              {busy ? 'Checking…' : 'Sign in'}
            </button>
          </ErrorAndActions>
        </form>
      ) : (
        <div data-testid="sign-in-oauth">
          {!waiting && (
            <>
              {isCustom ? (
                <>
                  <p className="hint">
                    Use an OAuth application registered in the portal ({connection?.portalUrl}) with the
                    redirect URIs <code>http://127.0.0.1/</code> and <code>urn:ietf:wg:oauth:2.0:oob</code>.
                  </p>
                  <VerbatimField
                    label="Client id"
                    value={clientId}
                    onValue={setClientId}
                    testId="oauth-client-id"
                  />
                  <VerbatimField
                    label="Client secret"
                    type="password"
                    value={clientSecret}
                    onValue={setClientSecret}
                    testId="oauth-client-secret"
                  />
                </>
              ) : (
                <p className="hint">
                  Your browser opens the portal&apos;s sign-in page; after you choose Authorize you come back
                  here signed in.
                </p>
              )}
              <ErrorAndActions error={error} onCancel={close}>
                <ManualCodeButton onClick={() => void startOAuth('oob')} />
                <button
                  type="button"
                  className="primary"
                  data-testid="oauth-start"
                  onClick={() => void startOAuth('loopback')}
                >
                  Sign in with browser
                </button>
              </ErrorAndActions>
            </>
          )}
          {waiting && (
            <OAuthWaiting
              phase={phase}
              flow={flow}
              code={code}
              busy={busy}
              error={error}
              onCode={setCode}
              onSubmitCode={submitCode}
              onManual={() => void startOAuth('oob')}
              onCancel={cancelFlow}
            />
          )}
        </div>
      )}
    </dialog>
  );
}

function SignInError({ text }: { text: string }) {
  return (
    <p role="alert" className="error" data-testid="sign-in-error">
      {text}
    </p>
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

/** A token, client id, secret or code: typed exactly, so the browser neither remembers nor corrects it. */
function VerbatimField(props: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  testId: string;
  type?: 'password';
  required?: boolean;
  minLength?: number;
}) {
  return (
    <label>
      {props.label}
      <input
        type={props.type}
        value={props.value}
        onChange={(e) => props.onValue(e.target.value)}
        required={props.required}
        minLength={props.minLength}
        autoComplete="off"
        spellCheck={false}
        data-testid={props.testId}
      />
    </label>
  );
}

/** The form's error, if any, above its buttons; `onCancel` adds the plain Cancel first. */
function ErrorAndActions(props: { error: string | null; onCancel?: () => void; children: ReactNode }) {
  return (
    <>
      {props.error && <SignInError text={props.error} />}
      <div className="dialog-actions">
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        {props.children}
      </div>
    </>
  );
}

function ManualCodeButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="link-button" data-testid="oauth-manual" onClick={onClick}>
      Enter a code by hand instead
    </button>
  );
}

function OAuthWaiting(props: {
  phase: Phase;
  flow: OAuthStart | null;
  code: string;
  busy: boolean;
  error: string | null;
  onCode: (code: string) => void;
  onSubmitCode: (e: FormEvent) => void;
  onManual: () => void;
  onCancel: () => void;
}) {
  const { phase, flow, code, busy, error } = props;
  const oob = flow?.mode === 'oob';
  return (
    <div className="oauth-waiting" data-testid="oauth-waiting" aria-live="polite">
      {phase === 'starting' || !flow ? (
        <p>Opening the browser…</p>
      ) : (
        <>
          <p className="waiting-line">
            <span className="spinner" aria-hidden="true" />
            {oob
              ? 'Authorize Asset Desk in the browser, then paste the code the portal shows.'
              : 'Waiting for the browser… Authorize Asset Desk in the window that opened.'}
          </p>
          {flow.fallbackReason && <p className="hint">{flow.fallbackReason}; enter the code by hand.</p>}
          {!flow.browserOpened && (
            <div className="authorize-url">
              <p className="hint">The browser could not be opened. Open this address yourself:</p>
              <input
                readOnly
                value={flow.authorizeUrl}
                aria-label="Sign-in address"
                data-testid="oauth-authorize-url"
                onFocus={(e) => e.currentTarget.select()}
              />
            </div>
          )}
          {oob && (
            <form onSubmit={props.onSubmitCode}>
              <VerbatimField
                label="Code from the portal"
                value={code}
                onValue={props.onCode}
                testId="oauth-code"
              />
              <button
                type="submit"
                className="primary"
                disabled={busy || code.trim().length === 0}
                data-testid="oauth-submit-code"
              >
                {busy ? 'Sending…' : 'Use this code'}
              </button>
            </form>
          )}
        </>
      )}
      <ErrorAndActions error={error}>
        {flow && !oob && <ManualCodeButton onClick={props.onManual} />}
        <button type="button" data-testid="oauth-cancel" onClick={props.onCancel}>
          Cancel sign-in
        </button>
      </ErrorAndActions>
    </div>
  );
}
