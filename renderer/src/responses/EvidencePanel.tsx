/**
 * Evidence as the service takes it: a link with its type, added to an indicator — never an upload.
 * The form says plainly what a file on this computer needs first, and that evidence is sent at once
 * (answers wait for Sync); each item shows what the service answered, in words (item number, type,
 * link, report link, notes, sharing), not as its variables.
 */
import { useState, type FormEvent } from 'react';
import type { EvidenceItemView, EvidenceType, IndicatorDefinition } from '../../../shared/responses/types';
import { evidenceTypeLabel, fieldId, formatSize } from './format';
import { addEvidence, useResponses } from './responses-store';

function ItemFacts({ item }: { item: EvidenceItemView }) {
  if (item.legacyFile)
    return (
      <span className="hint">
        {item.legacyFile.filename} ({formatSize(item.legacyFile.size)}), uploaded by an earlier version of
        Asset Desk. The service takes evidence as a link only: host the file and add its link.
      </span>
    );
  return (
    <>
      <span className="tag">{evidenceTypeLabel(item.evidenceType)}</span>
      {item.url && (
        <a href={item.url} target="_blank" rel="noreferrer" className="evidence-url">
          {item.url}
        </a>
      )}
      {item.reportUrl && (
        <a href={item.reportUrl} target="_blank" rel="noreferrer" data-testid="evidence-report">
          Report link
        </a>
      )}
      {item.docId && <span className="hint">Document id {item.docId}</span>}
      {item.shared !== null && (
        <span className="hint">{item.shared ? 'Shared with investors' : 'Not shared with investors'}</span>
      )}
      {item.notes && <span className="evidence-notes">Notes: {item.notes}</span>}
    </>
  );
}

export function EvidenceList({ items, label }: { items: EvidenceItemView[]; label: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="evidence-list" aria-label={label}>
      {items.map((item) => (
        <li
          key={`${item.answerName}#${item.itemNumber ?? item.legacyFile?.filename}`}
          data-testid="evidence-item"
          data-item={item.itemNumber ?? ''}
          data-type={item.evidenceType ?? ''}
        >
          <span className="evidence-number">
            {item.itemNumber === null ? 'Old upload' : `Item ${item.itemNumber}`}
          </span>
          <ItemFacts item={item} />
        </li>
      ))}
    </ul>
  );
}

/** The add-evidence form of one indicator, closed until the analyst opens it. */
export function EvidenceForm({
  responseId,
  def,
  readOnly,
}: {
  responseId: number;
  def: IndicatorDefinition;
  readOnly: boolean;
}) {
  const state = useResponses((s) => s.evidence);
  const mine =
    state !== null && state.responseId === responseId && state.variable === def.variable ? state : null;
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<EvidenceType>('F');
  const [url, setUrl] = useState('');
  const [notes, setNotes] = useState('');
  const [share, setShare] = useState(false);
  const id = `${fieldId(responseId, def.variable)}-evidence`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const added = await addEvidence(responseId, def.variable, {
      evidenceType: type,
      url,
      ...(notes.trim() === '' ? {} : { notes }),
      ...(type === 'F' && share ? { share: true } : {}),
    });
    if (added) {
      setUrl('');
      setNotes('');
      setShare(false);
      setOpen(false);
    }
  };
  return (
    <div className="evidence-form-host">
      {!open && (
        <button
          type="button"
          data-testid="add-evidence"
          aria-label={`Add evidence for ${def.label}`}
          disabled={readOnly}
          onClick={() => setOpen(true)}
        >
          Add evidence link…
        </button>
      )}
      {open && !readOnly && (
        <form
          className="evidence-form"
          data-testid="evidence-form"
          aria-label={`Evidence for ${def.label}`}
          noValidate
          onSubmit={(e) => void submit(e)}
        >
          <label htmlFor={`${id}-type`}>Type</label>
          <select
            id={`${id}-type`}
            data-testid="evidence-type"
            value={type}
            onChange={(e) => setType(e.target.value === 'H' ? 'H' : 'F')}
          >
            <option value="F">Document file (its link)</option>
            <option value="H">Web page (hyperlink)</option>
          </select>
          <label htmlFor={`${id}-url`}>Link</label>
          <input
            id={`${id}-url`}
            data-testid="evidence-url"
            type="text"
            inputMode="url"
            placeholder="https://…"
            value={url}
            aria-describedby={`${id}-help`}
            onChange={(e) => setUrl(e.target.value)}
          />
          <label htmlFor={`${id}-notes`}>Notes (where in the document the evidence is)</label>
          <textarea
            id={`${id}-notes`}
            data-testid="evidence-notes"
            rows={2}
            maxLength={2000}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
          />
          {type === 'F' && (
            <label className="option" htmlFor={`${id}-share`}>
              <input
                id={`${id}-share`}
                data-testid="evidence-share"
                type="checkbox"
                checked={share}
                onChange={(e) => setShare(e.target.checked)}
              />
              Share the document with investors
            </label>
          )}
          <p id={`${id}-help`} className="hint evidence-help" data-testid="evidence-local-help">
            A file on this computer cannot be sent as it is: the service takes evidence only as a link it can
            open, not as an upload. First put the file somewhere it can be reached by a link (for example your
            company’s document store, or a shared drive that gives web links), then paste that link here with
            the type “document file”.
          </p>
          <p className="hint" data-testid="evidence-when">
            Sent to the service as soon as you add it; answers wait for Sync.
          </p>
          <div className="evidence-actions">
            <button
              type="submit"
              className="primary"
              data-testid="evidence-submit"
              disabled={mine?.phase === 'sending'}
            >
              {mine?.phase === 'sending' ? 'Sending…' : 'Add and send now'}
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {mine?.phase === 'failed' && (
        <p className="field-error" role="alert" data-testid="evidence-error">
          Could not add the evidence: {mine.error}
        </p>
      )}
      {mine?.phase === 'done' && mine.item && (
        <div className="evidence-result" role="status" data-testid="evidence-result">
          Sent to the service as item {mine.item.itemNumber}: <ItemFacts item={mine.item} />
        </div>
      )}
    </div>
  );
}

/** Every evidence item of the response, by indicator. */
export function EvidencePanel({
  evidence,
  indicators,
}: {
  evidence: EvidenceItemView[];
  indicators: IndicatorDefinition[];
}) {
  const labelOf = (item: EvidenceItemView) =>
    indicators.find((d) => d.variable === item.variable || d.evidence === item.answerName)?.label ??
    item.variable ??
    'Whole response';
  return (
    <section className="evidence-panel" aria-labelledby="evidence-heading" data-testid="evidence-panel">
      <h3 id="evidence-heading">Evidence ({evidence.length})</h3>
      {evidence.length === 0 ? (
        <p className="empty">No evidence yet. Add a link under an indicator that takes evidence.</p>
      ) : (
        <table className="evidence-table">
          <thead>
            <tr>
              <th scope="col">Evidence for</th>
              <th scope="col">Item</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {evidence.map((item) => (
              <tr
                key={`${item.answerName}#${item.itemNumber ?? item.legacyFile?.filename}`}
                data-testid="evidence-row"
                data-answer={item.answerName}
              >
                <td>{labelOf(item)}</td>
                <td>{item.itemNumber ?? '—'}</td>
                <td className="evidence-details">
                  <ItemFacts item={item} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
