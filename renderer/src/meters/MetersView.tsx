/**
 * The Meters tab (issue 32): the workspace's meters and their readings, edited in place as the asset
 * grids are (ranges, copy and paste, fill, clear, find and replace, one undo step each; Ctrl+Z undoes;
 * `MeterGrid.tsx`), the reading rules' problems in the cells and listed below, and new meters and
 * readings. Readings in bulk come from the Import dialog.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GridApi } from 'ag-grid-community';
import type { MeterView, ReadingView } from '../../../shared/meters/views';
import { plural } from '../import-export/format';
import { useWorkspace } from '../store/workspace';
import { AssetOptions } from './AssetOptions';
import { AddMeterForm } from './AddMeterForm';
import { issuesByCell, meterColumns, readingColumns } from './meters-columns';
import { addReading, deleteMeterRows } from './meters-edits';
import { MeterGrid } from './MeterGrid';
import { meterCellTarget, readingCellTarget } from './meter-history';
import { loadListing, showMetersOf, useMeters } from './meters-store';
import './meters.css';

export function MetersView() {
  const listing = useMeters((s) => s.listing);
  const assets = useWorkspace((s) => s.assets);
  const [meterApi, setMeterApi] = useState<GridApi<MeterView> | null>(null);
  const [readingApi, setReadingApi] = useState<GridApi<ReadingView> | null>(null);
  const problems = useRef(new Map<string, NonNullable<typeof listing>['issues']>());
  useEffect(() => {
    void loadListing();
  }, []);
  problems.current = issuesByCell(listing?.issues ?? []);
  useEffect(() => {
    readingApi?.refreshCells({ force: true });
  }, [listing, readingApi]);
  const assetName = (localId: string) => String(assets.get(localId)?.doc['name'] ?? localId);
  const meterCols = useMemo(() => meterColumns(assetName), []);
  const readingCols = useMemo(() => readingColumns(() => problems.current), []);
  const deleteSelected = () => {
    const meterIds = meterApi?.getSelectedRows().map((m) => m.id) ?? [];
    const readingIds = readingApi?.getSelectedRows().map((r) => r.id) ?? [];
    if (meterIds.length + readingIds.length > 0) void deleteMeterRows(meterIds, readingIds);
  };
  const addReadingToSelected = () => {
    const meter = meterApi?.getSelectedRows()[0];
    if (meter) void addReading(meter.id, meter.unit);
  };
  return (
    <div
      className="meters-view"
      id="workspace-view"
      role="tabpanel"
      aria-labelledby="tab-meters"
      data-testid="meters-view"
    >
      <div className="toolbar-row">
        <AddMeterForm />
        <button type="button" data-testid="meters-add-reading" onClick={addReadingToSelected}>
          Add reading to ticked meter
        </button>
        <button type="button" data-testid="meters-delete" onClick={deleteSelected}>
          Delete ticked
        </button>
        <AssetFilter />
        {listing?.truncated && (
          <span className="hint">Showing the first 50,000 readings; the rules are checked on those.</span>
        )}
      </div>
      <h3>Meters</h3>
      <MeterGrid
        kind="meters"
        rows={listing?.meters ?? []}
        columns={meterCols}
        testId="meters-grid"
        onApi={setMeterApi}
        historyOf={meterCellTarget}
      />
      <h3>Readings</h3>
      <MeterGrid
        kind="readings"
        rows={listing?.readings ?? []}
        columns={readingCols}
        testId="readings-grid"
        onApi={setReadingApi}
        historyOf={readingCellTarget}
      />
      <MeterProblems />
    </div>
  );
}

function AssetFilter() {
  const assetId = useMeters((s) => s.listingAsset);
  return (
    <label>
      Asset{' '}
      <select
        data-testid="meters-asset"
        value={assetId ?? ''}
        onChange={(e) => void showMetersOf(e.target.value || null)}
      >
        <option value="">All assets</option>
        <AssetOptions />
      </select>
    </label>
  );
}

function MeterProblems() {
  const listing = useMeters((s) => s.listing);
  const issues = listing?.issues ?? [];
  if (issues.length === 0) return null;
  return (
    <details className="meters-problems" data-testid="meters-problems">
      <summary>
        {plural(issues.filter((i) => i.severity === 'error').length, 'error')} ·{' '}
        {plural(issues.filter((i) => i.severity === 'warning').length, 'warning')} in the readings
      </summary>
      <ul>
        {issues.slice(0, 200).map((i, n) => (
          <li key={n} className={i.severity}>
            Meter {i.meterId}: {i.message}
          </li>
        ))}
      </ul>
    </details>
  );
}
