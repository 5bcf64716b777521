/** Pieces the sign-in forms share: verbatim inputs, the error line above the buttons, the manual-code link. */
import type { ReactNode } from 'react';

/** A token, client id, secret or code: typed exactly, so the browser neither remembers nor corrects it. */
export function VerbatimField(props: {
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
export function ErrorAndActions(props: { error: string | null; onCancel?: () => void; children: ReactNode }) {
  return (
    <>
      {props.error && (
        <p role="alert" className="error" data-testid="sign-in-error">
          {props.error}
        </p>
      )}
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

export function ManualCodeButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="link-button" data-testid="oauth-manual" onClick={onClick}>
      Enter a code by hand instead
    </button>
  );
}
