/** The preview of an import (a file, the service's export or a link): counts, problems, apply. */
import { useEffect, useRef } from 'react';
import type { ImportPreview, RowStatus } from '../../../shared/workbook/import-export-types';
import {
  applyPreview,
  matchRowsByName,
  setPartial,
  setShowUnchanged,
  undoLastImport,
  useImportExport,
  workspaceKeyOf,
  type PreviewSource,
} from './import-export-store';
import { useWorkspace } from '../store/workspace';
import { plural, statusLabel } from './format';
import { PreviewTable, ProblemLine } from './PreviewTable';

const sourceLabel: Record<PreviewSource, string> = {
  file: 'Workbook',
  service: "The service's export",
  link: 'Export link',
};

const countOrder: RowStatus[] = ['new', 'changed', 'unchanged', 'rejected'];

export function PreviewPanel() {
  const current = useWorkspace(workspaceKeyOf);
  // After an entity switch, what was previewed or imported elsewhere is not offered here.
  const here = useImportExport((s) => s.workspaceKey === null || s.workspaceKey === current);
  const preview = useImportExport((s) => (here ? s.preview : null));
  const source = useImportExport((s) => s.source);
  const applied = useImportExport((s) => (here ? s.applied : null));
  const undone = useImportExport((s) => (here ? s.undone : null));
  const error = useImportExport((s) => (s.error?.place === 'apply' ? s.error.message : null));
  const busy = useImportExport((s) => s.busy);
  const undoButton = useRef<HTMLButtonElement>(null);
  const undoneLine = useRef<HTMLParagraphElement>(null);
  // The button the user pressed disappears with the preview (or the undo): focus would fall to the
  // page behind the modal, so it moves to what replaced it, once that is enabled (the reload after
  // the call still holds the dialog busy), and once per result.
  const focusedFor = useRef<object | null>(null);
  useEffect(() => {
    if (busy !== null) return;
    const result = applied ?? undone;
    if (!result || focusedFor.current === result) return;
    focusedFor.current = result;
    (applied ? undoButton.current : undoneLine.current)?.focus();
  }, [applied, undone, busy]);

  return (
    <section className="import-export-preview" aria-labelledby="preview-title">
      {applied && (
        <div className="import-result" data-testid="apply-result" role="status">
          <span>
            Imported {applied.fileName}: {plural(applied.created, 'asset')} created,{' '}
            {plural(applied.updated, 'asset')} updated
            {applied.skipped > 0 ? `, ${plural(applied.skipped, 'rejected asset')} skipped` : ''}.
          </span>
          <button
            ref={undoButton}
            type="button"
            data-testid="undo-import"
            disabled={busy !== null}
            onClick={() => void undoLastImport()}
          >
            {busy === 'undo' ? 'Undoing…' : 'Undo import'}
          </button>
        </div>
      )}
      {undone && (
        <p className="import-result" data-testid="undo-result" role="status" tabIndex={-1} ref={undoneLine}>
          Import undone: {plural(undone.restored, 'asset')} restored, {plural(undone.removed, 'new asset')}{' '}
          removed.
        </p>
      )}
      {error && (
        <p role="alert" className="error" data-testid="apply-error">
          {error}
        </p>
      )}
      {preview ? (
        <PreviewBody preview={preview} source={source ?? 'file'} />
      ) : (
        <p className="hint preview-placeholder" id="preview-title">
          Choose a workbook, or get the service&apos;s export, to see what an import would change. Nothing
          changes until you apply it.
        </p>
      )}
    </section>
  );
}

function PreviewBody({ preview, source }: { preview: ImportPreview; source: PreviewSource }) {
  const partial = useImportExport((s) => s.partial);
  const showUnchanged = useImportExport((s) => s.showUnchanged);
  const busy = useImportExport((s) => s.busy);
  const work = preview.counts.new + preview.counts.changed;
  const fileErrors = preview.issues.filter((i) => i.severity === 'error').length;
  const blocked = !preview.canApply && work > 0;
  const canRun = busy === null && work > 0 && (preview.canApply || partial);

  return (
    <div className="preview-body" data-testid="preview" data-source={source}>
      <div className="preview-head">
        <h3 id="preview-title">
          Preview: <span data-testid="preview-file">{preview.fileName}</span>{' '}
          <span className="hint">
            ({sourceLabel[source]}, {preview.format.toUpperCase()})
          </span>
        </h3>
        <ul className="preview-counts" data-testid="preview-counts" aria-label="Assets by outcome">
          {countOrder.map((status) => (
            <li
              key={status}
              className={`count status-${status}${preview.counts[status] > 0 ? '' : ' zero'}`}
              data-testid={`count-${status}`}
              data-count={preview.counts[status]}
            >
              <strong>{preview.counts[status]}</strong> {statusLabel[status].toLowerCase()}
            </li>
          ))}
        </ul>
        <label className="inline">
          <input
            type="checkbox"
            data-testid="show-unchanged"
            checked={showUnchanged}
            onChange={(e) => setShowUnchanged(e.target.checked)}
          />
          Show unchanged assets
        </label>
      </div>
      {preview.issues.length > 0 && (
        <div className="preview-issues" data-testid="preview-issues">
          <h4>File problems ({preview.issues.length})</h4>
          <ul className="preview-problems">
            {preview.issues.map((issue, i) => (
              <ProblemLine key={`${issue.sheet}:${issue.cell}:${i}`} issue={issue} />
            ))}
          </ul>
        </div>
      )}
      {(preview.nameMatches > 0 || preview.matchByName) && (
        <div className="preview-name-match" data-testid="name-match">
          {preview.matchByName ? (
            <>
              <span>
                {plural(preview.nameMatches, 'row')} without an Asset ID{' '}
                {preview.nameMatches === 1 ? 'updates' : 'update'} the existing asset of{' '}
                {preview.nameMatches === 1 ? 'its' : 'their'} name.
              </span>
              <button
                type="button"
                data-testid="name-match-undo"
                disabled={busy !== null}
                onClick={() => void matchRowsByName(false)}
              >
                Don&apos;t match by name
              </button>
            </>
          ) : (
            <>
              <span>
                {plural(preview.nameMatches, 'row')} without an Asset ID{' '}
                {preview.nameMatches === 1 ? 'is' : 'are'} named like an asset already synced.
              </span>
              <button
                type="button"
                data-testid="name-match-offer"
                disabled={busy !== null}
                onClick={() => void matchRowsByName(true)}
              >
                {busy === 'match'
                  ? 'Matching…'
                  : `Match ${plural(preview.nameMatches, 'row')} to existing assets by name`}
              </button>
            </>
          )}
        </div>
      )}
      <PreviewTable preview={preview} showUnchanged={showUnchanged} />
      <div className="preview-actions">
        {work === 0 ? (
          <p className="hint" data-testid="apply-nothing">
            Nothing to import: the file matches the workspace.
          </p>
        ) : blocked ? (
          <div className="apply-blocked">
            <p className="warning-text" data-testid="apply-blocked">
              {[
                preview.counts.rejected > 0
                  ? `${plural(preview.counts.rejected, 'asset')} ${preview.counts.rejected === 1 ? 'is' : 'are'} rejected`
                  : '',
                fileErrors > 0 ? plural(fileErrors, 'column problem') : '',
              ]
                .filter(Boolean)
                .join(' and ')}
              . Fix the file and choose it again, or import only the valid rows.
            </p>
            <label className="inline">
              <input
                type="checkbox"
                data-testid="apply-partial"
                checked={partial}
                onChange={(e) => setPartial(e.target.checked)}
              />
              Apply only the valid rows ({plural(work, 'asset')}); skip the rejected ones
            </label>
          </div>
        ) : (
          <p className="hint">
            Applying creates {plural(preview.counts.new, 'asset')} and updates{' '}
            {plural(preview.counts.changed, 'asset')}, as one change you can undo.
          </p>
        )}
        <button
          type="button"
          className="primary"
          data-testid="apply-import"
          disabled={!canRun}
          onClick={() => void applyPreview()}
        >
          {busy === 'apply' ? 'Applying…' : blocked ? 'Apply valid rows' : 'Apply import'}
        </button>
      </div>
    </div>
  );
}
