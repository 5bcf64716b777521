/**
 * The browser sign-in (OAuth) as the sign-in dialog drives it: main starts a flow (a loopback
 * redirect, or a code the user pastes by hand) and announces its outcome as an event. Only the flow
 * started last counts: a cancelled one's outcome is ignored, and a start answered after a cancel is
 * cancelled in turn.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { OAuthFinished, OAuthStart } from '../../../shared/bridge/types';
import { bridge } from '../bridge';
import { appInfo } from '../bridge/browser-files';
import { errorMessage } from '../../../shared/errors';

export type OAuthPhase = 'idle' | 'starting' | 'waiting';

export interface OAuthFlowHost {
  /** The dialog's one error line: a failure's text, or null to clear it. */
  setError(error: string | null): void;
  setBusy(busy: boolean): void;
  onSignedIn(): void;
}

export interface OAuthStartRequest {
  connectionId: string;
  redirect: 'loopback' | 'oob';
  /** A custom connection's own OAuth application, as typed (checked here before anything starts). */
  client?: { clientId: string; clientSecret: string } | undefined;
}

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

export function useOAuthFlow(host: OAuthFlowHost) {
  const [phase, setPhase] = useState<OAuthPhase>('idle');
  const [flow, setFlow] = useState<OAuthStart | null>(null);
  const [code, setCode] = useState('');
  /** The browser host opened the sign-in page in a new tab of this browser (main cannot). */
  const [openedTab, setOpenedTab] = useState(false);
  /** The flow this dialog waits for; results of any other (a cancelled one) are ignored. */
  const flowRef = useRef<string | null>(null);
  /** Results that arrived before startOAuth answered (the browser can be quicker than the reply). */
  const early = useRef(new Map<string, OAuthFinished>());
  /** Bumped by each start and cancel, so a start answered after a cancel is cancelled too. */
  const startSeq = useRef(0);

  /** The outcome of the flow this dialog waits for. */
  const settle = (result: OAuthFinished) => {
    flowRef.current = null;
    setFlow(null);
    setPhase('idle');
    setCode('');
    if (result.ok) host.onSignedIn();
    else if (result.code !== 'cancelled') host.setError(describeOAuthFailure(result));
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

  /** Back to the start, as the dialog opens (a flow still running is not touched). */
  const reset = () => {
    setCode('');
    setPhase('idle');
    setFlow(null);
  };

  const cancel = () => {
    const flowId = flowRef.current;
    startSeq.current++;
    flowRef.current = null;
    setFlow(null);
    setPhase('idle');
    setCode('');
    if (flowId) void bridge.methods['auth.cancelOAuth']({ flowId }).catch(() => undefined);
  };

  const start = async ({ connectionId, redirect, client }: OAuthStartRequest) => {
    if (flowRef.current) cancel();
    if (client && (!client.clientId.trim() || !client.clientSecret.trim())) {
      host.setError('Enter the client id and secret of the OAuth application registered in the portal.');
      return;
    }
    host.setError(null);
    setPhase('starting');
    const seq = ++startSeq.current;
    try {
      const started = await bridge.methods['auth.startOAuth']({
        connectionId,
        redirect,
        ...(client ? { clientId: client.clientId.trim(), clientSecret: client.clientSecret.trim() } : {}),
      });
      if (seq !== startSeq.current) {
        void bridge.methods['auth.cancelOAuth']({ flowId: started.flowId }).catch(() => undefined);
        return;
      }
      flowRef.current = started.flowId;
      setOpenedTab(!started.browserOpened && (await openInTab(started.authorizeUrl)));
      setFlow(started);
      setPhase('waiting');
      const already = early.current.get(started.flowId);
      early.current.clear();
      if (already) settle(already);
    } catch (err) {
      if (seq !== startSeq.current) return;
      setPhase('idle');
      host.setError(`Browser sign-in could not start: ${errorMessage(err)}`);
    }
  };

  /** Sends the code pasted from the portal (the `oob` redirect); the outcome comes as the event. */
  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    const flowId = flowRef.current;
    if (!flowId || !code.trim()) return;
    host.setError(null);
    host.setBusy(true);
    try {
      const accepted = await bridge.methods['auth.submitOAuthCode']({ flowId, code: code.trim() });
      if (!accepted) {
        flowRef.current = null;
        setFlow(null);
        setPhase('idle');
        host.setError('That sign-in has ended (cancelled or timed out). Start it again.');
      }
    } catch (err) {
      host.setError(`The code could not be sent: ${errorMessage(err)}`);
    } finally {
      host.setBusy(false);
    }
  };

  return { phase, flow, openedTab, code, setCode, reset, cancel, start, submitCode };
}

export type OAuthFlow = ReturnType<typeof useOAuthFlow>;

/**
 * In the browser host, the sign-in page opens in a new tab of this browser; false elsewhere (the
 * desktop app's main opens the system browser itself) or when the browser blocked the tab.
 */
async function openInTab(url: string): Promise<boolean> {
  const info = await appInfo().catch(() => null);
  if (info?.host !== 'browser') return false;
  const tab = window.open(url, '_blank');
  if (!tab) return false;
  // The portal's page gets no handle on this one.
  tab.opener = null;
  return true;
}
