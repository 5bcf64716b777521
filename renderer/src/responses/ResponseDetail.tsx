/** One response: its indicators grouped by section, and its evidence. */
import { useEffect, useRef } from 'react';
import type { ResponseDetail as Detail } from '../../../shared/responses/types';
import { EvidencePanel } from './EvidencePanel';
import { IndicatorField } from './IndicatorField';
import { responseTitle, statusLabel } from './format';
import { useResponses } from './responses-store';

export function ResponseDetailPane() {
  const detail = useResponses((s) => s.detail);
  const loading = useResponses((s) => s.detailLoading);
  const error = useResponses((s) => s.detailError);
  const selectedId = useResponses((s) => s.selectedId);
  if (selectedId === null)
    return (
      <section className="response-detail" aria-label="Response">
        <p className="empty">Choose a response on the left to see and edit its answers.</p>
      </section>
    );
  return (
    <section className="response-detail" aria-labelledby="response-heading" data-testid="response-detail">
      {error && (
        <p className="error" role="alert" data-testid="response-error">
          Could not open the response: {error}
        </p>
      )}
      {loading && detail?.response.id !== selectedId && <p className="hint">Opening…</p>}
      {detail && detail.response.id === selectedId && <DetailBody detail={detail} />}
    </section>
  );
}

function DetailBody({ detail }: { detail: Detail }) {
  const { response, indicators, values, evidence } = detail;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [response.id]);
  const readOnly = response.readOnly;
  const sections = [...new Set(indicators.map((d) => d.section))];
  const valueOf = new Map(values.map((v) => [v.variable, v]));
  const conflicts = values.filter((v) => v.status === 'conflict').length;
  return (
    <>
      <header className="response-header">
        <h2 id="response-heading" ref={heading} tabIndex={-1}>
          {responseTitle(response)}
        </h2>
        <span className="response-facts" data-testid="response-facts">
          <span>
            {response.name}
            {response.manager ? ` · ${response.manager}` : ''}
          </span>
          <span className={`tag state-${response.status}`}>{statusLabel(response.status)}</span>
          {response.percent_completed !== null && <span>{response.percent_completed}% completed</span>}
        </span>
      </header>
      {readOnly && (
        <p className="banner-info" data-testid="read-only-banner">
          This is a historical response ({statusLabel(response.status)}
          {response.survey_open ? '' : ', survey closed'}): its answers are shown read-only.
        </p>
      )}
      {response.notAvailable > 0 && (
        <p className="banner-info" data-testid="not-available-banner">
          {response.notAvailable} question{response.notAvailable === 1 ? ' is' : 's are'} not available in
          this response on the service; {response.notAvailable === 1 ? 'it is' : 'they are'} shown but cannot
          be answered.
        </p>
      )}
      {!response.available && (
        <p className="banner-warning" data-testid="unavailable-banner">
          The service did not give this response’s contents: {response.unavailableReason}. What was read
          before is shown.
        </p>
      )}
      {conflicts > 0 && (
        <p className="banner-conflict" role="status" data-testid="conflict-banner">
          {conflicts} answer{conflicts === 1 ? ' was' : 's were'} changed on the service since your last sync.
          Choose below which to keep; nothing is sent until you do.
        </p>
      )}
      {indicators.length === 0 && (
        <p className="empty">The contents of this response have not been read from the service yet.</p>
      )}
      {sections.map((section) => {
        const id = `section-${response.id}-${section.replace(/\W+/g, '-')}`;
        return (
          <section key={section} className="indicator-section" aria-labelledby={id} data-section={section}>
            <h3 id={id}>{section}</h3>
            {indicators
              .filter((d) => d.section === section)
              .map((def) => (
                <IndicatorField
                  key={def.variable}
                  responseId={response.id}
                  def={def}
                  view={valueOf.get(def.variable)}
                  evidence={evidence.filter(
                    (e) =>
                      e.answerName === def.evidence || (e.itemNumber === null && e.variable === def.variable),
                  )}
                  readOnly={readOnly}
                />
              ))}
          </section>
        );
      })}
      <EvidencePanel evidence={evidence} indicators={indicators} />
    </>
  );
}
