/**
 * The dialog's "Sign in with browser" part: a custom connection's client id and secret, the start
 * buttons, then the wait for the browser (with the address to open by hand if the browser could not
 * be, and the code field for the `oob` redirect).
 */
import type { FormEvent } from 'react';
import type { OAuthStart } from '../../../shared/bridge/types';
import { ErrorAndActions, ManualCodeButton, VerbatimField } from './fields';
import type { OAuthFlow } from './use-oauth-flow';

export function OAuthSignIn(props: {
  /** A custom connection: the user brings the OAuth application registered in its portal. */
  custom: { portalUrl: string } | null;
  clientId: string;
  onClientId: (value: string) => void;
  clientSecret: string;
  onClientSecret: (value: string) => void;
  oauth: OAuthFlow;
  busy: boolean;
  error: string | null;
  onStart: (redirect: 'loopback' | 'oob') => void;
  /** Closes the dialog. */
  onCancel: () => void;
}) {
  const { oauth, custom } = props;
  const waiting = oauth.phase !== 'idle';
  return (
    <div data-testid="sign-in-oauth">
      {!waiting && (
        <>
          {custom ? (
            <>
              <p className="hint">
                Use an OAuth application registered in the portal ({custom.portalUrl}) with the redirect URIs{' '}
                <code>http://127.0.0.1/</code> and <code>urn:ietf:wg:oauth:2.0:oob</code>.
              </p>
              <VerbatimField
                label="Client id"
                value={props.clientId}
                onValue={props.onClientId}
                testId="oauth-client-id"
              />
              <VerbatimField
                label="Client secret"
                type="password"
                value={props.clientSecret}
                onValue={props.onClientSecret}
                testId="oauth-client-secret"
              />
            </>
          ) : (
            <p className="hint">
              Your browser opens the portal&apos;s sign-in page; after you choose Authorize you come back here
              signed in.
            </p>
          )}
          <ErrorAndActions error={props.error} onCancel={props.onCancel}>
            <ManualCodeButton onClick={() => props.onStart('oob')} />
            <button
              type="button"
              className="primary"
              data-testid="oauth-start"
              onClick={() => props.onStart('loopback')}
            >
              Sign in with browser
            </button>
          </ErrorAndActions>
        </>
      )}
      {waiting && (
        <OAuthWaiting
          phase={oauth.phase}
          flow={oauth.flow}
          openedTab={oauth.openedTab}
          code={oauth.code}
          busy={props.busy}
          error={props.error}
          onCode={oauth.setCode}
          onSubmitCode={(e) => void oauth.submitCode(e)}
          onManual={() => props.onStart('oob')}
          onCancel={oauth.cancel}
        />
      )}
    </div>
  );
}

function OAuthWaiting(props: {
  phase: OAuthFlow['phase'];
  flow: OAuthStart | null;
  openedTab: boolean;
  code: string;
  busy: boolean;
  error: string | null;
  onCode: (code: string) => void;
  onSubmitCode: (e: FormEvent) => void;
  onManual: () => void;
  onCancel: () => void;
}) {
  const { phase, flow, openedTab, code, busy, error } = props;
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
              : openedTab
                ? 'Waiting for the browser… Authorize Asset Desk in the tab that opened.'
                : flow.browserOpened
                  ? 'Waiting for the browser… Authorize Asset Desk in the window that opened.'
                  : 'Waiting for the browser… Authorize Asset Desk at the address below.'}
          </p>
          {flow.portalLogin && (
            <p className="hint" data-testid="oauth-portal-login">
              If the portal asks you to sign in, use <code>{flow.portalLogin.email}</code> with the password{' '}
              <code>{flow.portalLogin.password}</code> (made for this install).
            </p>
          )}
          {flow.fallbackReason && <p className="hint">{flow.fallbackReason}; enter the code by hand.</p>}
          {!flow.browserOpened && (
            <div className="authorize-url">
              <p className="hint">
                {openedTab
                  ? 'If the tab did not open, open this address yourself:'
                  : 'The browser could not be opened. Open this address yourself:'}
              </p>
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
