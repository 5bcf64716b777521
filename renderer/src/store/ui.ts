/** What the shell shows: the active tab, the side panel, dialogs, notices and a pending "jump to cell". */
import { create } from 'zustand';
import type { GridKind } from '../grid-model/rows';

export type Tab = GridKind | 'outliers' | 'portfolio' | 'responses';
export type SidePanel = 'problems' | 'sync' | null;

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
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
  /** Whether undo / redo have anything (mirrors the undo stack for the toolbar). */
  canUndo: boolean;
  canRedo: boolean;
}

export const useUi = create<UiState>(() => ({
  tab: 'assets',
  panel: 'problems',
  dialog: null,
  notices: [],
  jump: null,
  assetFilter: null,
  canUndo: false,
  canRedo: false,
}));

let nextId = 1;

export function notify(level: Notice['level'], message: string): void {
  const id = nextId++;
  useUi.setState((s) => ({ notices: [...s.notices.slice(-2), { id, level, message }] }));
  if (level !== 'error') setTimeout(() => dismiss(id), 4_000);
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
