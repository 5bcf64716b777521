/** What the shell shows: the active tab, the side panel, dialogs, notices and a pending "jump to cell". */
import { create } from 'zustand';
import type { GridKind } from '../grid-model/rows';

export type Tab = GridKind | 'outliers' | 'portfolio' | 'responses' | 'meters';
export type SidePanel = 'problems' | 'sync' | null;

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** What failure the notice is about ("sync"): `clearTopic` removes it once that failure is gone. */
  topic?: string;
}

/** The grids show only these assets (a bar or cell of the Portfolio view chose them). */
export interface AssetFilter {
  label: string;
  localIds: ReadonlySet<string>;
}

export interface JumpTarget {
  localId: string;
  path: string;
  nonce: number;
}

interface UiState {
  tab: Tab;
  panel: SidePanel;
  dialog: 'signIn' | 'review' | 'importExport' | 'connections' | 'guide' | null;
  notices: Notice[];
  jump: JumpTarget | null;
  assetFilter: AssetFilter | null;
  /** Rows the current grid shows when a filter hides some (for the status bar); null when none does. */
  shownRows: { grid: GridKind; shown: number; total: number } | null;
  /** The range of cells selected in the current grid: how many, and the sum of its numbers. */
  rangeStats: { count: number; numbers: number; sum: number } | null;
  /** What undo / redo in main would do next (main's history, shown by the toolbar). */
  canUndo: boolean;
  canRedo: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
}

export const useUi = create<UiState>(() => ({
  tab: 'assets',
  panel: 'problems',
  dialog: null,
  notices: [],
  jump: null,
  assetFilter: null,
  shownRows: null,
  rangeStats: null,
  canUndo: false,
  canRedo: false,
  undoLabel: null,
  redoLabel: null,
}));

let nextId = 1;

export function notify(level: Notice['level'], message: string, topic?: string): void {
  const id = nextId++;
  const notice: Notice = topic === undefined ? { id, level, message } : { id, level, message, topic };
  useUi.setState((s) => ({ notices: [...s.notices.slice(-2), notice] }));
  if (level !== 'error') setTimeout(() => dismiss(id), 4_000);
}

/** The failure a topic's notices spoke of is gone: they go too. */
export function clearTopic(topic: string): void {
  useUi.setState((s) => ({ notices: s.notices.filter((n) => n.topic !== topic) }));
}

export function dismiss(id: number): void {
  useUi.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}

export function setTab(tab: Tab): void {
  useUi.setState({ tab });
}

export function setPanel(panel: SidePanel): void {
  useUi.setState((s) => ({ panel: s.panel === panel ? null : panel }));
}

/** Shows a cell: switches to its grid; the grid focuses it when mounted. */
/** Shows `tab` with only these assets, saying why (`label`); `clearAssetFilter` shows all again. */
export function filterAssets(label: string, localIds: Iterable<string>, tab: GridKind): void {
  useUi.setState({ tab, assetFilter: { label, localIds: new Set(localIds) } });
}

export function clearAssetFilter(): void {
  useUi.setState({ assetFilter: null });
}

export function jumpTo(localId: string, path: string, grid: GridKind): void {
  useUi.setState({ tab: grid, jump: { localId, path, nonce: nextId++ } });
}
