/** The dialog's "Paste an access token" form: the partner token and, optionally, the expiry chosen with it. */
import type { FormEvent } from 'react';
import { ErrorAndActions, VerbatimField } from './fields';

export function TokenSignInForm(props: {
  /** The connection's portal, where tokens are generated (no hint without a connection). */
  portalUrl: string | undefined;
  keychainAvailable: boolean;
  token: string;
  onToken: (value: string) => void;
  expiresOn: string;
  onExpiresOn: (value: string) => void;
  busy: boolean;
  error: string | null;
  onSubmit: (e: FormEvent) => void;
  /** Closes the dialog. */
  onCancel: () => void;
}) {
  return (
    <form onSubmit={props.onSubmit} data-testid="sign-in-token-form">
      {props.portalUrl !== undefined && (
        <p className="hint">
          Generate a token in the portal&apos;s Data Partners tab ({props.portalUrl}) and paste it here. It is
          kept in the system keychain
          {props.keychainAvailable ? '' : ' — unavailable now, so for this session only'}.
        </p>
      )}
      <VerbatimField
        label="Access token"
        type="password"
        value={props.token}
        onValue={props.onToken}
        required
        minLength={8}
        testId="sign-in-token"
      />
      <label>
        Expires on (optional: the date chosen when the token was generated)
        <input
          type="date"
          value={props.expiresOn}
          onChange={(e) => props.onExpiresOn(e.target.value)}
          data-testid="sign-in-expires"
        />
      </label>
      <ErrorAndActions error={props.error} onCancel={props.onCancel}>
        <button
          type="submit"
          className="primary"
          data-testid="sign-in-submit"
          disabled={props.busy || props.token.trim().length < 8}
        >
          {props.busy ? 'Checking…' : 'Sign in'}
        </button>
      </ErrorAndActions>
    </form>
  );
}
