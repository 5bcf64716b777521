/** Evidence documents: the attach button with its progress, and the lists of what is attached. */
import type { IndicatorDefinition, ResponseDocumentView } from '../../../shared/responses/types';
import { formatSize } from './format';
import { attachDocument, useResponses, type AttachTarget } from './responses-store';

interface AttachProps {
  responseId: number;
  target: AttachTarget;
  /** What the documents are evidence for, for the button's accessible name. */
  subject: string;
  readOnly: boolean;
}

export function AttachControl({ responseId, target, subject, readOnly }: AttachProps) {
  const upload = useResponses((s) => s.upload);
  const uploadError = useResponses((s) => s.uploadError);
  const mine = upload !== null && upload.responseId === responseId && upload.target === target;
  const busy = upload !== null && (upload.phase === 'picking' || upload.phase === 'uploading');
  const testTarget = target ?? 'response';
  return (
    <div className="attach-control">
      <button
        type="button"
        data-testid="attach-document"
        data-target={testTarget}
        aria-label={`Attach document as evidence for ${subject}`}
        disabled={readOnly || busy}
        onClick={() => void attachDocument(responseId, target)}
      >
        Attach document…
      </button>
      {mine && upload.phase === 'picking' && <span className="hint">Choose a file…</span>}
      {mine && (upload.phase === 'uploading' || upload.phase === 'done') && (
        <span
          className="upload-status"
          data-testid="upload-progress"
          data-target={testTarget}
          data-state={upload.phase}
          role="status"
        >
          <progress
            max={Math.max(upload.total, 1)}
            value={upload.phase === 'done' ? Math.max(upload.total, 1) : upload.sent}
            aria-label={`Upload of ${upload.filename ?? 'the document'}`}
          />
          <span>
            {upload.phase === 'done'
              ? `Uploaded ${upload.filename ?? ''}`
              : `${upload.filename ?? ''}: ${formatSize(upload.sent)} of ${formatSize(upload.total)}`}
          </span>
        </span>
      )}
      {mine && upload.phase === 'failed' && uploadError && (
        <p className="field-error" role="alert" data-testid="upload-error" data-target={testTarget}>
          Could not attach the document: {uploadError}
        </p>
      )}
    </div>
  );
}

export function DocumentList({ documents, label }: { documents: ResponseDocumentView[]; label: string }) {
  if (documents.length === 0) return null;
  return (
    <ul className="document-list" aria-label={label}>
      {documents.map((d) => (
        <li key={d.id} data-testid="document" data-document-id={d.id} data-variable={d.variable ?? ''}>
          <span className="document-name">{d.filename}</span>{' '}
          <span className="hint">{formatSize(d.size)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Every document of the response, and the attach button for the response as a whole. */
export function DocumentsPanel({
  responseId,
  documents,
  indicators,
  readOnly,
}: {
  responseId: number;
  documents: ResponseDocumentView[];
  indicators: IndicatorDefinition[];
  readOnly: boolean;
}) {
  const labelOf = (variable: string | null) =>
    variable === null
      ? 'Whole response'
      : (indicators.find((d) => d.variable === variable)?.label ?? variable);
  return (
    <section className="documents-panel" aria-labelledby="documents-heading" data-testid="documents-panel">
      <h3 id="documents-heading">Evidence documents ({documents.length})</h3>
      {documents.length === 0 ? (
        <p className="empty">No documents attached yet.</p>
      ) : (
        <table className="documents-table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Size</th>
              <th scope="col">Evidence for</th>
            </tr>
          </thead>
          <tbody>
            {documents.map((d) => (
              <tr key={d.id} data-testid="documents-row" data-variable={d.variable ?? ''}>
                <td>{d.filename}</td>
                <td>{formatSize(d.size)}</td>
                <td>{labelOf(d.variable)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AttachControl responseId={responseId} target={null} subject="the whole response" readOnly={readOnly} />
    </section>
  );
}
