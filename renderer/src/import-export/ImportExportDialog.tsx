/** Workbook export and import through a preview table; the service's own export; the audit log's. */
import { useState, type FormEvent } from 'react';
import { useModalDialog } from '../shell/use-modal-dialog';
import {
  chooseWorkbook,
  exportWorkbook,
  importLink,
  runServiceExport,
  setFormat,
  setSourcesTab,
  useImportExport,
  type ErrorPlace,
} from './import-export-store';
import { plural, progressText, showBytes } from './format';
import { PreviewPanel } from './PreviewPanel';
import { FileChooser } from './FileChooser';
import { ReadingsImportCard, ReadingsPreviewPanel } from '../meters/ReadingsImportCard';
import { AuditLogCard } from '../history/AuditLogCard';
import { RecentImports } from '../history/RecentImports';
import './import-export.css';

export function ImportExportDialog() {
  const { ref, close } = useModalDialog('importExport');
  return (
    <dialog
      ref={ref}
      className="dialog import-export-dialog"
      aria-labelledby="import-export-title"
      onClose={close}
      data-testid="exchange-dialog"
    >
      <div className="import-export-layout">
        <h2 id="import-export-title">Import / Export</h2>
        <div className="import-export-cards">
          <ExportCard />
          <ImportCard />
          <ReadingsImportCard />
          <ServiceCard />
          <AuditLogCard />
        </div>
        <PreviewPanel />
        <ReadingsPreviewPanel />
        <div className="dialog-actions">
          <button type="button" data-testid="exchange-close" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}

function ErrorAt({ place }: { place: ErrorPlace }) {
  const message = useImportExport((s) => (s.error?.place === place ? s.error.message : null));
  if (!message) return null;
  return (
    <p role="alert" className="error" data-testid={`${place}-error`}>
      {message}
    </p>
  );
}

function ExportCard() {
  const format = useImportExport((s) => s.format);
  const sourcesTab = useImportExport((s) => s.sourcesTab);
  const exported = useImportExport((s) => s.exported);
  const busy = useImportExport((s) => s.busy);
  return (
    <section className="import-export-card" aria-labelledby="export-title">
      <h3 id="export-title">Export</h3>
      <fieldset className="format-choice">
        <legend>Format</legend>
        <label className="inline">
          <input
            type="radio"
            name="export-format"
            value="xlsx"
            data-testid="export-format-xlsx"
            checked={format === 'xlsx'}
            onChange={() => setFormat('xlsx')}
          />
          Excel workbook (.xlsx), a tab per topic
        </label>
        <label className="inline">
          <input
            type="radio"
            name="export-format"
            value="csv"
            data-testid="export-format-csv"
            checked={format === 'csv'}
            onChange={() => setFormat('csv')}
          />
          CSV (.csv), one sheet
        </label>
      </fieldset>
      <label className="inline" title="Where each value that was not typed here came from, and when">
        <input
          type="checkbox"
          data-testid="export-sources-tab"
          checked={sourcesTab && format === 'xlsx'}
          disabled={format !== 'xlsx'}
          onChange={(e) => setSourcesTab(e.target.checked)}
        />
        Add a Sources tab
      </label>
      <button
        type="button"
        className="primary"
        data-testid="export-run"
        disabled={busy !== null}
        onClick={() => void exportWorkbook()}
      >
        {busy === 'export' ? 'Exporting…' : 'Export…'}
      </button>
      {exported && (
        <p className="card-result" data-testid="export-result" role="status">
          {exported === 'cancelled'
            ? 'Export cancelled: no file was written.'
            : `Exported ${plural(exported.assets, 'asset')} to ${exported.fileName}.`}
        </p>
      )}
      <ErrorAt place="export" />
    </section>
  );
}

function ImportCard() {
  const picked = useImportExport((s) => s.picked);
  const busy = useImportExport((s) => s.busy);
  return (
    <section className="import-export-card" aria-labelledby="import-title">
      <h3 id="import-title">Import a workbook</h3>
      <p className="hint">
        An .xlsx or .csv file, such as an export edited in Excel. You see what it changes before anything is
        applied.
      </p>
      <FileChooser
        testId="import"
        label="Choose workbook…"
        busy={busy === 'pick'}
        disabled={busy !== null}
        accept=".xlsx,.csv"
        choose={chooseWorkbook}
      />
      {picked && (
        <p className="card-result" data-testid="import-file">
          {picked.name}
          {picked.size !== null && <span className="hint"> ({showBytes(picked.size)})</span>}
        </p>
      )}
      <ErrorAt place="import" />
      <RecentImports />
    </section>
  );
}

function ServiceCard() {
  const busy = useImportExport((s) => s.busy);
  const progress = useImportExport((s) => s.progress);
  const serviceFile = useImportExport((s) => s.serviceFile);
  const awaitingLink = useImportExport((s) => s.awaitingLink);
  const [callbackUrl, setCallbackUrl] = useState('');
  const [link, setLink] = useState('');
  const submitLink = (e: FormEvent) => {
    e.preventDefault();
    void importLink(link);
  };
  const downloadShare =
    progress?.phase === 'downloading' && progress.total ? (progress.received ?? 0) / progress.total : null;
  return (
    <section className="import-export-card" aria-labelledby="service-title">
      <h3 id="service-title">From the service</h3>
      <div className="service-row">
        <button
          type="button"
          className="primary"
          data-testid="service-export-run"
          disabled={busy !== null}
          onClick={() => void runServiceExport(callbackUrl)}
        >
          {busy === 'service' ? 'Exporting…' : "Get the service's export"}
        </button>
        <details className="service-advanced">
          <summary>Public callback URL</summary>
          <label>
            Callback URL the service can reach (optional)
            <input
              type="url"
              data-testid="service-callback-url"
              value={callbackUrl}
              placeholder="https://…"
              onChange={(e) => setCallbackUrl(e.target.value)}
            />
          </label>
        </details>
      </div>
      {progress && (busy === 'service' || progress.phase === 'done') && (
        <div className="service-progress" data-testid="service-progress" data-phase={progress.phase}>
          <progress
            aria-label="Service export progress"
            {...(progress.phase === 'done'
              ? { value: 1, max: 1 }
              : downloadShare !== null
                ? { value: downloadShare, max: 1 }
                : {})}
          />
          <span role="status">{progressText(progress)}</span>
        </div>
      )}
      {serviceFile && busy !== 'service' && (
        <p className="card-result" data-testid="service-result">
          Received {serviceFile.fileName} ({showBytes(serviceFile.bytes)}); its preview is below.
        </p>
      )}
      {awaitingLink && (
        <p className="card-result" data-testid="service-awaiting" role="status">
          {awaitingLink.message}
        </p>
      )}
      <form className="link-form" onSubmit={submitLink}>
        <label>
          Import from a link
          <input
            type="url"
            required
            data-testid="link-url"
            value={link}
            placeholder="Paste the export link"
            onChange={(e) => setLink(e.target.value)}
          />
        </label>
        <button type="submit" data-testid="link-import" disabled={busy !== null || link.trim() === ''}>
          {busy === 'link' ? 'Reading…' : 'Read link'}
        </button>
      </form>
      <ErrorAt place="service" />
    </section>
  );
}
