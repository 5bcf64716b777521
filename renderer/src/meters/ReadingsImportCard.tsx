/**
 * The Import dialog's card for meter readings (issue 32): a flat readings CSV, previewed (valid
 * rows, problems per row, duplicates flagged and not added), its column mapping correctable and
 * remembered per workspace, the day/month order asked when the file can't tell; then "Apply valid
 * rows" (one undo step, Ctrl+Z or the toolbar's Undo).
 */
import { useState } from 'react';
import { importColumns, type ImportColumn } from '../../../shared/meters/import-rows';
import { plural } from '../import-export/format';
import { FileChooser } from '../import-export/FileChooser';
import { AssetOptions } from './AssetOptions';
import { applyHeldFigures, applyReadings, chooseReadings, previewAgain, useMeters } from './meters-store';
import './meters.css';

export function ReadingsImportCard() {
  const busy = useMeters((s) => s.busy);
  const picked = useMeters((s) => s.picked);
  const error = useMeters((s) => s.error);
  return (
    <section className="import-export-card" aria-labelledby="readings-import-title">
      <h3 id="readings-import-title">Import meter readings</h3>
      <p className="hint">
        A CSV of readings, one row a reading (a utility portal&apos;s export, a facilities sheet), or ENERGY
        STAR Portfolio Manager&apos;s XML. The annual figures are worked out from them.
      </p>
      <FileChooser
        testId="readings"
        label="Choose readings file…"
        busy={busy === 'pick'}
        disabled={busy !== null}
        accept=".csv,.txt,.xml"
        choose={chooseReadings}
      />
      {picked && <p className="card-result">{picked.name}</p>}
      {error && (
        <p role="alert" className="error" data-testid="readings-error">
          {error}
        </p>
      )}
    </section>
  );
}

export function ReadingsPreviewPanel() {
  const preview = useMeters((s) => s.preview);
  const applied = useMeters((s) => s.applied);
  const busy = useMeters((s) => s.busy);
  const [create, setCreate] = useState(false);
  if (applied && !preview) return <AppliedReadings />;
  if (!preview) return null;
  return (
    <section className="readings-preview" data-testid="readings-preview" aria-label="Readings preview">
      <h3>Readings in {preview.file}</h3>
      <p role="status" data-testid="readings-counts">
        {plural(preview.valid, 'reading')} to add from {plural(preview.meters.length, 'meter')}
        {preview.duplicates > 0 && `; ${plural(preview.duplicates, 'duplicate')} flagged, not added`}
        {preview.problems.length > 0 && `; ${plural(preview.problems.length, 'problem')}`}
      </p>
      {preview.needsDateOrder && <DateOrderQuestion />}
      {preview.format === 'portfolio_manager' ? <PmAssetChoice /> : <MappingEditor />}
      {preview.problems.length > 0 && (
        <ul className="problems" data-testid="readings-problems">
          {preview.problems.slice(0, 50).map((p) => (
            <li key={`${p.row}:${p.column ?? ''}:${p.message}`}>
              Row {p.row}
              {p.column ? `, ${p.column}` : ''}: {p.message}
            </li>
          ))}
        </ul>
      )}
      {preview.unknownAssets.length > 0 && (
        <label className="inline-label" data-testid="readings-unknown-assets">
          <input type="checkbox" checked={create} onChange={(e) => setCreate(e.target.checked)} /> Create the{' '}
          {plural(preview.unknownAssets.length, 'asset')} the workspace doesn&apos;t have (
          {preview.unknownAssets.slice(0, 5).join(', ')}
          {preview.unknownAssets.length > 5 ? ', …' : ''}) with their readings; otherwise their rows are left
          out
        </label>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          className="primary"
          data-testid="readings-apply"
          disabled={busy !== null || (preview.valid === 0 && !create)}
          onClick={() => void applyReadings(create)}
        >
          {busy === 'apply' ? 'Applying…' : `Apply ${plural(preview.valid, 'valid row')}`}
        </button>
      </div>
    </section>
  );
}

function DateOrderQuestion() {
  return (
    <fieldset data-testid="readings-date-order">
      <legend>The file&apos;s dates could be day/month or month/day. Which does it use?</legend>
      <button type="button" onClick={() => void previewAgain({ dateOrder: 'dmy' })}>
        Day first (31/12/2024)
      </button>{' '}
      <button type="button" onClick={() => void previewAgain({ dateOrder: 'mdy' })}>
        Month first (12/31/2024)
      </button>
    </fieldset>
  );
}

function PmAssetChoice() {
  const preview = useMeters((s) => s.preview);
  return (
    <label>
      Portfolio Manager&apos;s meters go to the asset{' '}
      <select
        data-testid="readings-pm-asset"
        value={preview?.asset ?? ''}
        onChange={(e) => void previewAgain({ asset: e.target.value })}
      >
        <option value="">(choose)</option>
        <AssetOptions />
      </select>
    </label>
  );
}

function MappingEditor() {
  const preview = useMeters((s) => s.preview);
  if (!preview) return null;
  const choose = (column: ImportColumn, header: string) =>
    void previewAgain({ mapping: { [column]: header } as Partial<Record<ImportColumn, string>> });
  return (
    <details>
      <summary>Columns read (correct them here; remembered for this workspace)</summary>
      <div className="readings-mapping">
        {importColumns.map((column) => (
          <label key={column}>
            {column}{' '}
            <select
              data-testid={`readings-map-${column}`}
              value={preview.mapping[column] ?? ''}
              onChange={(e) => choose(column, e.target.value)}
            >
              <option value="">(none)</option>
              {preview.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </details>
  );
}

function AppliedReadings() {
  const applied = useMeters((s) => s.applied);
  const busy = useMeters((s) => s.busy);
  if (!applied) return null;
  return (
    <section className="readings-preview" data-testid="readings-applied" role="status">
      <p>
        Added {plural(applied.readings, 'reading')} and {plural(applied.meters, 'new meter')} from{' '}
        {applied.file}; annual figures of {plural(applied.written, 'asset')} worked out from them. Undo takes
        it all back.
      </p>
      {applied.held.length > 0 && (
        <>
          <p>These cells were typed by hand; meters give another figure:</p>
          <table data-testid="readings-held">
            <thead>
              <tr>
                <th>Year</th>
                <th>Field</th>
                <th>Typed</th>
                <th>From meters</th>
              </tr>
            </thead>
            <tbody>
              {applied.held.map((c) => (
                <tr key={`${c.localId}:${c.year}:${c.field}`}>
                  <td>{c.year}</td>
                  <td>{c.field}</td>
                  <td>{String(c.current)}</td>
                  <td title={c.text}>{String(c.derived)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" disabled={busy !== null} onClick={() => void applyHeldFigures()}>
            Apply meter figures to these cells
          </button>
        </>
      )}
    </section>
  );
}
