/**
 * What the connections and sign-in dialogs are opened for: which connection, where to return, what to
 * focus. The UI store keeps one dialog name only, so callers leave the details here first.
 */
import { create } from 'zustand';
import { useUi } from '../store/ui';

interface SignInTarget {
  /** Null: the active connection (the header's Sign in button, a refused token). */
  connectionId: string | null;
  method: 'token' | 'oauth' | null;
  returnTo: 'connections' | null;
}

export const useSignInTarget = create<SignInTarget>(() => ({
  connectionId: null,
  method: null,
  returnTo: null,
}));

export function openSignIn(
  connectionId: string,
  opts: { returnTo?: 'connections'; method?: 'token' | 'oauth' } = {},
): void {
  useSignInTarget.setState({
    connectionId,
    method: opts.method ?? null,
    returnTo: opts.returnTo ?? null,
  });
  useUi.setState({ dialog: 'signIn' });
}

/** Closes the sign-in dialog: back to the connections dialog when it came from there. */
export function leaveSignIn(outcome: 'done' | 'cancelled'): void {
  const { returnTo } = useSignInTarget.getState();
  useSignInTarget.setState({ connectionId: null, method: null, returnTo: null });
  if (useUi.getState().dialog !== 'signIn') return;
  useUi.setState({ dialog: outcome === 'cancelled' && returnTo ? returnTo : null });
}

/** Set by openConnections({ focusAdd }) and taken once by the dialog when it opens. */
let focusAddOnOpen = false;

export function openConnections(opts: { focusAdd?: boolean } = {}): void {
  focusAddOnOpen = opts.focusAdd ?? false;
  useUi.setState({ dialog: 'connections' });
}

export function takeFocusAdd(): boolean {
  const value = focusAddOnOpen;
  focusAddOnOpen = false;
  return value;
}
