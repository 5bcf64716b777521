/**
 * The audit log's export (issue 31), beside the workbook's in the Import / Export dialog: every
 * change of a period, or of the assets ticked in the grid, as CSV or XLSX (main writes it a page
 * at a time; the browser host hands it over as a download).
 */
import { useState } from 'react';
import { errorMessage } from '../../../shared/errors';
import { bridge } from '../bridge';
import { saveDownload } from '../bridge/browser-files';
import { selectedRows } from '../grids/registry';

/** A date input's day as epoch ms at its start (UTC), or undefined when empty. */
const dayStart = (text: string, days = 0): number | undefined => {
  if (!text) return undefined;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(at) ? undefined : at + days * 86_400_000;
};

export function AuditLogCard() {
  const [format, setFormat] = useState<'xlsx' | 'csv'>('xlsx');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [ticked, setTicked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);

  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const localIds = ticked ? [...new Set(selectedRows('assets').map((row) => row.localId))] : [];
      if (ticked && localIds.length === 0) {
        setResult('Tick the assets in the Assets grid first.');
        return;
      }
      const start = dayStart(from);
      const end = dayStart(to, 1);
      const written = await bridge.methods['workspace.exportAuditLog']({
        format,
        ...(start !== undefined ? { from: start } : {}),
        ...(end !== undefined ? { to: end } : {}),
        ...(ticked ? { localIds } : {}),
      });
      if (written?.downloadId) await saveDownload(written.downloadId, written.fileName);
      setResult(
        written
          ? `Wrote ${written.changes.toLocaleString('en-US')} changes to ${written.fileName}.`
          : 'Export cancelled: no file was written.',
      );
    } catch (error) {
      setResult(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="import-export-card audit-log-card"
      aria-labelledby="audit-log-title"
      data-testid="audit-log-card"
    >
      <h3 id="audit-log-title">Audit log</h3>
      <p className="hint">Every change with its old and new value, where it came from and when.</p>
      {/* One line across the dialog: a tall card pushed the preview's actions under each other. */}
      <div className="audit-log-fields">
        <label>
          From (day, UTC)
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To (day, UTC)
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <label className="inline">
          <input type="checkbox" checked={ticked} onChange={(e) => setTicked(e.target.checked)} />
          Only the assets ticked in the Assets grid
        </label>
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value === 'csv' ? 'csv' : 'xlsx')}>
            <option value="xlsx">Excel workbook (.xlsx)</option>
            <option value="csv">CSV (.csv)</option>
          </select>
        </label>
        <button type="button" data-testid="audit-log-run" disabled={busy} onClick={() => void run()}>
          {busy ? 'Exporting…' : 'Export the audit log…'}
        </button>
      </div>
      {result && (
        <p className="card-result" role="status" data-testid="audit-log-result">
          {result}
        </p>
      )}
    </section>
  );
}
