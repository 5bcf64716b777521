/** The app bar: connection, entity picker with its units and period, online state, sign-in, sync. */
import { useEffect, useState } from 'react';
import { bridge } from '../bridge';
import { openConnections } from '../connections/requests';
import { refreshPendingAnswers, syncFromHeader, useSync } from '../sync/sync-store';
import { notify, useUi } from '../store/ui';
import { loadAll, useWorkspace } from '../store/workspace';
import { errorMessage } from '../../../shared/errors';
import { onlineState } from './online-state';
import { areaLabel } from '../grid-model/columns';

export function Header() {
  const session = useWorkspace((s) => s.session);
  const meta = useWorkspace((s) => s.meta);
  const pendingCount = useWorkspace((s) => s.counts.pending);
  const running = useSync((s) => s.running);
  const answers = useSync((s) => s.pendingAnswers);
  const badge = pendingCount + answers;
  const [switching, setSwitching] = useState(false);
  const active = session?.entities.find((e) => e.id === session.activeEntityId);
  const connection = session?.connections.find((c) => c.id === session.activeConnectionId);
  // The answers waiting count in the badge from the start, as the entity's assets do.
  const entityKey = meta ? `${meta.connectionId}:${meta.entity.id}` : null;
  const signedIn = session?.auth.signedIn ?? false;
  useEffect(() => {
    if (entityKey) void refreshPendingAnswers();
  }, [entityKey, signedIn]);

  const selectEntity = async (entityId: number) => {
    setSwitching(true);
    try {
      await bridge.methods['session.selectEntity']({ entityId });
      await loadAll();
    } catch (error) {
      notify('error', errorMessage(error));
    } finally {
      setSwitching(false);
    }
  };

  return (
    <header className="app-header">
      <h1>Asset Desk</h1>
      <div className="header-field">
        <span className="header-label" id="connection-label">
          Connection
        </span>
        <button
          type="button"
          className="header-value connection-button"
          data-testid="connection-button"
          aria-haspopup="dialog"
          aria-describedby="connection-label"
          title={connection ? `${connection.baseUrl}: manage connections` : 'Manage connections'}
          onClick={() => openConnections()}
        >
          {connection?.name ?? '—'}
        </button>
      </div>
      <div className="header-field">
        <label className="header-label" htmlFor="entity-picker">
          Reporting entity
        </label>
        <select
          id="entity-picker"
          data-testid="entity-picker"
          value={session?.activeEntityId ?? ''}
          disabled={switching || !session || session.entities.length === 0}
          onChange={(e) => void selectEntity(Number(e.target.value))}
        >
          {session?.activeEntityId === null && <option value="">Choose an entity…</option>}
          {session?.entities.map((entity) => (
            <option key={entity.id} value={entity.id}>
              {entity.name}
            </option>
          ))}
        </select>
      </div>
      {active && (
        <div className="entity-facts" data-testid="entity-facts">
          {/* Narrow windows show the short forms (styles.css), so the header stays one line. */}
          <span title={`Area unit: ${active.areaUnit}`}>
            <span className="wide-only">{active.areaUnit}</span>
            <span className="narrow-only">{areaLabel(active.areaUnit)}</span>
          </span>
          <span title="Currency">{active.currency}</span>
          <span title="Reporting period">{periodLabel(active.reportingPeriod)}</span>
          {meta && (
            <span title={`Assessment year ${meta.assessmentYear}`}>
              <span className="wide-only">Assessment </span>
              {meta.assessmentYear}
            </span>
          )}
        </div>
      )}
      <span className="spacer" />
      <OnlineIndicator />
      <SignInState />
      <button
        type="button"
        className="sync-button primary"
        data-testid="sync-button"
        disabled={running || !meta}
        onClick={() => void syncFromHeader()}
        title="Send everything pending, assets and portfolio responses (a review first when an asset is held back or deleted)"
      >
        {running ? 'Syncing…' : 'Sync'}
        {badge > 0 && !running && (
          <span className="badge" title={`${pendingCount} asset changes, ${answers} answers waiting`}>
            {badge}
          </span>
        )}
      </button>
    </header>
  );
}

/** The service's period code ("calendar_year") as words ("Calendar year"). */
export function periodLabel(code: string): string {
  const words = code.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const signInKinds: Record<'partner' | 'oauth' | 'sandbox', string> = {
  partner: 'token',
  oauth: 'OAuth',
  sandbox: 'sandbox',
};

export function OnlineIndicator() {
  const online = useWorkspace((s) => s.session?.online ?? true);
  const paused = useWorkspace((s) => s.session?.auth.paused ?? false);
  const running = useSync((s) => s.running);
  const progress = useSync((s) => s.progress);
  const report = useSync((s) => s.report);
  const { state, text, title } = onlineState({ online, paused, running, progress, report });
  return (
    <span className={`online-indicator ${state}`} data-testid="online-indicator" role="status" title={title}>
      <span className="dot" aria-hidden="true" />
      {text}
    </span>
  );
}

function SignInState() {
  const auth = useWorkspace((s) => s.session?.auth);
  const connectionId = useWorkspace((s) => s.session?.activeConnectionId);
  const connecting = useWorkspace((s) => s.session?.connecting ?? false);
  if (!auth) return null;
  if (connecting && !auth.signedIn)
    return (
      <span className="signed-in" role="status" data-testid="connecting">
        Connecting…
      </span>
    );
  if (!auth.signedIn || auth.paused) {
    return (
      <button type="button" onClick={() => useUi.setState({ dialog: 'signIn' })}>
        Sign in
      </button>
    );
  }
  const expiry = auth.expiry === 'soon' ? ' (expires soon)' : auth.expiry === 'expired' ? ' (expired)' : '';
  return (
    <span className="signed-in">
      <span title={`Token kept in ${auth.storage}; scopes: ${auth.scopes.join(', ')}`}>
        Signed in{auth.kind ? <span className="wide-only">{` (${signInKinds[auth.kind]})`}</span> : ''}
        {expiry}
      </span>
      <button
        type="button"
        className="link-button"
        onClick={async () => {
          if (!connectionId) return;
          await bridge.methods['auth.signOut']({ connectionId });
          await loadAll();
        }}
      >
        Sign out
      </button>
    </span>
  );
}
