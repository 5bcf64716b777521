/** The first-run guide: edit, validate, sync, export, and how to add a real connection. */
import { useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { openConnections } from '../connections/requests';
import { useUi } from '../store/ui';
import { useWorkspace } from '../store/workspace';
import { dismissGuide, showGuide, useGuide } from './guide-store';
import './onboarding.css';

const steps: Array<{ id: string; title: string; text: string }> = [
  { id: 'edit', title: 'Edit', text: 'Type in a cell; Enter keeps it. Paste blocks from Excel.' },
  { id: 'validate', title: 'Validate', text: 'Errors show in their cells and in the Problems panel.' },
  { id: 'sync', title: 'Sync', text: 'The Sync button sends your changes and brings the service’s.' },
  { id: 'export', title: 'Export', text: 'Import / Export writes or reads a workbook.' },
];

/**
 * A strip in the flow of the workspace area, not a modal or an overlay: it takes its own height so
 * the toolbar, the tabs and every grid cell stay where a user (or a test) clicks them. App renders
 * it beside the dialogs, so it moves itself into the workspace area; without one it stays in place.
 */
export function FirstRunGuide() {
  const visible = useGuide((s) => s.visible);
  const requested = useUi((s) => s.dialog === 'guide');
  const onSandbox = useWorkspace((s) => s.session?.activeConnectionId === 'local-sandbox');
  const [host, setHost] = useState<Element | null>(null);

  useLayoutEffect(() => setHost(document.querySelector('.workspace-area')), []);

  // Other parts of the UI can ask for the guide through the shared dialog slot.
  useEffect(() => {
    if (!requested) return;
    showGuide();
    useUi.setState({ dialog: null });
  }, [requested]);

  if (!visible) return null;
  const guide = (
    <section
      className="first-run-guide"
      aria-labelledby="first-run-guide-title"
      data-testid="first-run-guide"
    >
      <div className="guide-intro">
        <h2 id="first-run-guide-title">Getting started</h2>
        <p>
          {onSandbox
            ? 'You are on the built-in sandbox with a demo entity: try anything, nothing reaches the real service.'
            : 'Four steps cover the whole job.'}
        </p>
      </div>
      <ol className="guide-steps">
        {steps.map((step, index) => (
          <li key={step.id} data-testid={`guide-step-${step.id}`}>
            <span className="guide-number" aria-hidden="true">
              {index + 1}
            </span>
            <span>
              <strong>{step.title}</strong> {step.text}
            </span>
          </li>
        ))}
      </ol>
      <div className="guide-actions">
        <button
          type="button"
          className="primary"
          data-testid="guide-add-connection"
          onClick={() => openConnections({ focusAdd: true })}
        >
          Add a real connection
        </button>
        <button
          type="button"
          className="guide-dismiss"
          data-testid="guide-dismiss"
          title="Hide the guide (it can be shown again from the Connection button)"
          onClick={dismissGuide}
        >
          Hide guide
        </button>
      </div>
    </section>
  );
  return host ? createPortal(guide, host) : guide;
}
