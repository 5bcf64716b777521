/** Tabs of the workspace and the actions of the current one (keyboard reachable, with shortcuts). */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { entryKey, type Scalar } from '../../../shared/sync/asset-doc';
import type { AssetView } from '../../../shared/sync/types';
import {
  addEntry,
  createAsset,
  deleteAssets,
  editCells,
  redo,
  removeEntry,
  revertAssets,
  undo,
} from '../editing/commands';
import { focusedRow, gridApi, selectedRows } from '../grids/registry';
import { assetName, type GridKind } from '../grid-model/rows';
import { loadReview } from '../sync/sync-store';
import { jumpTo, notify, setPanel, setTab, useUi, type Tab } from '../store/ui';
import { useWorkspace, viewsInOrder } from '../store/workspace';
import { askConfirm, summariseNames } from './ConfirmDialog';

const tabs: Array<{ id: Tab; label: string }> = [
  { id: 'assets', label: 'Assets' },
  { id: 'annual', label: 'Annual data' },
  { id: 'certifications', label: 'Certifications' },
  { id: 'energy_ratings', label: 'Energy ratings' },
  { id: 'outliers', label: 'Outliers' },
  { id: 'portfolio', label: 'Portfolio' },
  { id: 'responses', label: 'Responses' },
];

function targetAssets(kind: GridKind): string[] {
  const selected = selectedRows(kind).map((r) => r.localId);
  if (selected.length > 0) return [...new Set(selected)];
  const focused = focusedRow(kind);
  return focused ? [focused.localId] : [];
}

/**
 * What Delete removes: the ticked rows when there are any (what the analyst chose, wherever the
 * cursor is), else the row under the cursor. The question says which of the two it is.
 */
function deleteTargets(): { ids: string[]; ticked: boolean } {
  const selected = selectedRows('assets').map((r) => r.localId);
  if (selected.length > 0) return { ids: [...new Set(selected)], ticked: true };
  const focused = focusedRow('assets');
  return { ids: focused ? [focused.localId] : [], ticked: false };
}

/** Asks in the app's own dialog, naming what goes ("Delete 2 ticked assets: A, B?"), then deletes. */
async function confirmAndDelete(): Promise<void> {
  const { ids, ticked } = deleteTargets();
  const views = ids
    .map((id) => useWorkspace.getState().assets.get(id))
    .filter((v): v is AssetView => v !== undefined && v.status !== 'deleted');
  if (views.length === 0) {
    notify(
      'warning',
      ids.length > 0
        ? 'Those assets are already deleted (↺ or Undo restores them).'
        : 'Put the cursor on the asset to delete, or tick the rows.',
    );
    return;
  }
  const names = views.map((v) => String(v.doc['name'] ?? '') || 'unnamed asset');
  const what = ticked
    ? `${views.length === 1 ? 'the ticked asset' : `${views.length.toLocaleString('en-US')} ticked assets`}`
    : 'the asset at the cursor';
  const ok = await askConfirm({
    title: views.length === 1 ? 'Delete an asset' : `Delete ${views.length.toLocaleString('en-US')} assets`,
    message: `Delete ${what}: ${summariseNames(names)}?`,
    detail:
      'Synced assets stay struck through until Sync, which asks again before deleting them on the service; Undo restores.',
    action: 'Delete',
  });
  if (ok) await deleteAssets(views.map((v) => v.localId));
}

export function Toolbar() {
  const tab = useUi((s) => s.tab);
  const panel = useUi((s) => s.panel);
  const canUndo = useUi((s) => s.canUndo);
  const canRedo = useUi((s) => s.canRedo);
  const undoLabel = useUi((s) => s.undoLabel);
  const redoLabel = useUi((s) => s.redoLabel);
  const ready = useWorkspace((s) => s.status === 'ready');
  return (
    <div className="toolbar">
      <div role="tablist" aria-label="Workspace views" className="tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="workspace-view"
            className={tab === t.id ? 'tab active' : 'tab'}
            data-testid={`tab-${t.id}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="actions" role="toolbar" aria-label="Actions">
        {ready && tab !== 'outliers' && tab !== 'responses' && tab !== 'portfolio' && (
          <TabActions tab={tab} />
        )}
        <button
          type="button"
          onClick={() => void undo()}
          disabled={!canUndo}
          title={undoLabel ? `Undo ${undoLabel} (Ctrl+Z)` : 'Undo (Ctrl+Z)'}
          data-testid="undo"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={() => void redo()}
          disabled={!canRedo}
          title={redoLabel ? `Redo ${redoLabel} (Ctrl+Y)` : 'Redo (Ctrl+Y)'}
          data-testid="redo"
        >
          Redo
        </button>
        <button
          type="button"
          data-testid="review-button"
          disabled={!ready}
          onClick={() => {
            void loadReview();
            useUi.setState({ dialog: 'review' });
          }}
          title="What the next sync will send"
        >
          Review changes
        </button>
        <button
          type="button"
          disabled={!ready}
          data-testid="exchange-button"
          onClick={() => useUi.setState({ dialog: 'importExport' })}
          title="Export a workbook, or import one through a preview"
        >
          Import / Export
        </button>
        <span className="divider" />
        <button
          type="button"
          aria-pressed={panel === 'problems'}
          onClick={() => setPanel('problems')}
          data-testid="toggle-problems"
        >
          Problems
        </button>
        <button
          type="button"
          aria-pressed={panel === 'sync'}
          onClick={() => setPanel('sync')}
          data-testid="toggle-sync"
        >
          Sync panel
        </button>
      </div>
    </div>
  );
}

function TabActions({ tab }: { tab: GridKind }) {
  if (tab === 'assets') {
    return (
      <>
        <button
          type="button"
          data-testid="add-asset"
          onClick={async () => {
            const view = await createAsset();
            if (view) {
              // After the grid has laid out the new row: show it and put the cursor on its name.
              setTimeout(() => {
                const api = gridApi('assets');
                const node = api?.getRowNode(view.localId);
                if (api && node?.rowIndex != null) {
                  api.ensureNodeVisible(node, 'bottom');
                  api.setFocusedCell(node.rowIndex, 'name');
                }
              }, 0);
            }
          }}
        >
          Add asset
        </button>
        <button type="button" data-testid="delete-assets" onClick={() => void confirmAndDelete()}>
          Delete
        </button>
        <RevertButton kind="assets" />
      </>
    );
  }
  if (tab === 'annual') {
    return (
      <>
        <button type="button" data-testid="add-year" onClick={() => addYear()}>
          Add year
        </button>
        <RevertButton kind="annual" />
      </>
    );
  }
  return <EntryActions collection={tab} />;
}

function RevertButton({ kind }: { kind: GridKind }) {
  return (
    <button
      type="button"
      data-testid="revert-assets"
      title="Drop the local changes of the selected assets"
      onClick={() => {
        const ids = targetAssets(kind);
        if (ids.length === 0) notify('warning', 'Select the assets to revert.');
        else void revertAssets(ids);
      }}
    >
      Revert
    </button>
  );
}

function addYear(): void {
  const row = focusedRow('annual');
  const meta = useWorkspace.getState().meta;
  if (!row || !meta) {
    notify('warning', 'Focus a row of the asset to add a year to.');
    return;
  }
  const list = Array.isArray(row.view.doc.annual_data) ? row.view.doc.annual_data : [];
  const years = new Set(list.map((r) => Number(r?.year)));
  let year = meta.assessmentYear;
  while (years.has(year)) year--;
  if (year < meta.assessmentYear - 5) {
    notify('warning', 'This asset already has every year the service accepts.');
    return;
  }
  void editCells([{ localId: row.localId, path: `annual_data/${year}`, value: true }], {
    label: `add year ${year}`,
  });
}

/** The keys of an asset's certifications or ratings, as the grid's row ids carry them. */
function entryKeys(view: AssetView | undefined, collection: 'certifications' | 'energy_ratings'): string[] {
  const list = view?.doc[collection];
  return Array.isArray(list)
    ? list.map((entry) => entryKey(collection, entry as Record<string, unknown>))
    : [];
}

function EntryActions({ collection }: { collection: 'certifications' | 'energy_ratings' }) {
  // "id<tab>name" per asset, compared item by item: an edit that renames nothing keeps the list,
  // and the picker's options (16,667 at 100k rows) are not drawn again on every keypress.
  const choices = useWorkspace(
    useShallow((s) =>
      viewsInOrder(s)
        .filter((v) => v.status !== 'deleted')
        .map((v) => `${v.localId}\t${assetName(v)}`),
    ),
  );
  const [assetId, setAssetId] = useState('');
  const what = collection === 'certifications' ? 'certification' : 'energy rating';
  return (
    <>
      <label className="inline-label">
        Add {what} to
        <select value={assetId} onChange={(e) => setAssetId(e.target.value)} data-testid="entry-asset">
          <option value="">the focused row's asset</option>
          {choices.map((choice) => {
            // Local ids have no tab; a name might.
            const cut = choice.indexOf('\t');
            const localId = choice.slice(0, cut);
            const name = choice.slice(cut + 1);
            return (
              <option key={localId} value={localId}>
                {name}
              </option>
            );
          })}
        </select>
      </label>
      <button
        type="button"
        data-testid="add-entry"
        onClick={() => {
          const target = assetId || focusedRow(collection)?.localId;
          if (!target) {
            notify('warning', `Choose the asset to add the ${what} to.`);
            return;
          }
          // A new row starts empty: a scheme, level or year guessed for the analyst would go unnoticed.
          const fields: Record<string, Scalar> =
            collection === 'certifications'
              ? { certification_id: null, level: null, size: null, year: null }
              : { energy_rating_id: null, level: null, size: null };
          const keysBefore = entryKeys(useWorkspace.getState().assets.get(target), collection);
          void addEntry(target, collection, fields).then((view) => {
            // The keyboard goes to the new row's first cell, for the scheme to be typed at once.
            const added = entryKeys(view ?? undefined, collection).find((k) => !keysBefore.includes(k));
            if (added) jumpTo(target, `${collection}/${added}/${Object.keys(fields)[0]}`, collection);
          });
        }}
      >
        Add
      </button>
      <button
        type="button"
        data-testid="remove-entry"
        onClick={() => {
          const rows = selectedRows(collection);
          const targets = rows.length > 0 ? rows : [focusedRow(collection)].filter((r) => r !== undefined);
          if (targets.length === 0) notify('warning', `Select the ${what} to remove.`);
          for (const row of targets)
            if (row.kind === collection) void removeEntry(row.localId, collection, row.key);
        }}
      >
        Remove
      </button>
      <RevertButton kind={collection} />
    </>
  );
}
