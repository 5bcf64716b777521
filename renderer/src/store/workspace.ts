/**
 * The workspace as the renderer holds it: the session, the selected entity's metadata and lists,
 * and the assets by local id. Grids do not re-render from this store; they subscribe to `change`
 * and apply row transactions for just the assets that changed (see grids/DataGrid.tsx).
 */
import { create } from 'zustand';
import type { ReferenceData, SessionState } from '../../../shared/bridge/types';
import type { Entity } from '../../../shared/domain';
import type { AssetView, SyncChanges } from '../../../shared/sync/types';
import { bridge } from '../bridge';
import { errorMessage } from '../../../shared/errors';
import { plainView } from '../../../shared/bridge/asset-page';
import { AssetTable } from './asset-table';
import { countsOf, noCounts, recount, type WorkspaceCounts } from './workspace-counts';
import { readPages, startsOf } from './snapshot-pages';

export interface WorkspaceMeta {
  connectionId: string;
  entity: Entity;
  assessmentYear: number;
  reference: ReferenceData;
}

/**
 * What changed: everything (a reload), or these assets. `byHand`: only the cells the analyst's hand
 * set (an edit's answer), which the grids' marks were told of before (history/cell-marks.ts).
 */
export type AssetChange = { kind: 'reset' } | { kind: 'assets'; localIds: string[]; byHand?: true };

export interface WorkspaceState {
  status: 'idle' | 'loading' | 'ready' | 'no-workspace' | 'error';
  error?: string | undefined;
  session?: SessionState | undefined;
  meta?: WorkspaceMeta | undefined;
  assets: AssetTable;
  order: readonly string[];
  revision: number;
  change: AssetChange;
  /** What the status bar and the sync button count, kept with the assets (store/workspace-counts.ts). */
  counts: WorkspaceCounts;
  /** While the rest of a snapshot is being read after its first page was drawn (or why it stopped). */
  partial: { total: number; problem?: string } | null;
  /**
   * The status bar's "Last sync": apart from `meta`, so a sync's answer sets it without making the
   * workspace look another (validation starts over on a new `meta`).
   */
  lastSyncAt: string | null;
}

export const useWorkspace = create<WorkspaceState>(() => ({
  status: 'idle',
  assets: AssetTable.empty,
  order: [],
  revision: 0,
  change: { kind: 'reset' },
  counts: noCounts,
  partial: null,
  lastSyncAt: null,
}));

let loading: Promise<void> | undefined;

/** Session first, then the workspace of the active entity (when there is one). */
export function loadAll(): Promise<void> {
  const load = loadSessionAndWorkspace();
  loading = load;
  void load.finally(() => {
    if (loading === load) loading = undefined;
  });
  return load;
}

/** The load under way, if any, has ended (it never rejects: a failure is the store's `error`). */
export async function loadSettled(): Promise<void> {
  while (loading) await loading;
}

async function loadSessionAndWorkspace(): Promise<void> {
  useWorkspace.setState({ status: 'loading' });
  try {
    const session = await bridge.methods['session.get']({});
    useWorkspace.setState({ session });
    if (session.activeEntityId === null) {
      useWorkspace.setState({
        status: 'no-workspace',
        meta: undefined,
        lastSyncAt: null,
        assets: AssetTable.empty,
        order: [],
        revision: useWorkspace.getState().revision + 1,
        change: { kind: 'reset' },
        counts: noCounts,
        partial: null,
      });
      return;
    }
    await reloadSnapshot();
  } catch (error) {
    useWorkspace.setState({ status: 'error', error: errorMessage(error) });
  }
}

export async function refreshSession(): Promise<SessionState> {
  const session = await bridge.methods['session.get']({});
  useWorkspace.setState({ session });
  return session;
}

/**
 * The first page is what the grid needs to draw (a screenful and some scrolling); the rest of a
 * large workspace follows in pages between frames, so a 100k-row workspace is interactive at once.
 */
const firstPage = 1_000;
/** The later pages' most rows: main makes them all of about one size (the snapshot's `pageStarts`). */
const laterPage = 6_000;

let loadGeneration = 0;

/**
 * Resolves once the first page is shown; the other pages follow in the background. The workspace
 * already shown whole (a pull, an import or a sync landed) is read whole before it replaces the rows
 * (and this resolves once it has): cut back to its first page, the grid would lose the analyst's
 * place past it (scrolled to the last row, they were put back near row 1,000) and draw the rest again
 * only as it came back.
 */
export async function reloadSnapshot(): Promise<void> {
  const generation = ++loadGeneration;
  performance.mark('workspace:reload');
  touched.clear();
  const snapshot = await bridge.methods['workspace.snapshot']({ limit: firstPage, laterPages: laterPage });
  performance.mark('snapshot:received');
  if (generation !== loadGeneration) return;
  const shown = useWorkspace.getState();
  const shownWhole =
    shown.status === 'ready' &&
    shown.partial === null &&
    shown.meta?.connectionId === snapshot.connectionId &&
    shown.meta.entity.id === snapshot.entity.id;
  if (snapshot.next !== null && shownWhole) return refreshInPlace(snapshot, snapshot.next, generation);
  const assets = AssetTable.of(snapshot.assets);
  useWorkspace.setState((state) => ({
    status: 'ready',
    error: undefined,
    meta: metaOf(snapshot),
    lastSyncAt: snapshot.lastSyncAt,
    assets,
    order: snapshot.assets.map((view) => view.localId),
    revision: state.revision + 1,
    change: { kind: 'reset' },
    counts: countsOf(assets.values()),
    partial: snapshot.next === null ? null : { total: snapshot.total },
  }));
  if (snapshot.next !== null) void readRest(startsOf(snapshot, snapshot.next), generation);
}

type Snapshot = Awaited<ReturnType<(typeof bridge.methods)['workspace.snapshot']>>;

function metaOf(snapshot: Snapshot): WorkspaceMeta {
  return {
    connectionId: snapshot.connectionId,
    entity: snapshot.entity,
    assessmentYear: snapshot.assessmentYear,
    reference: snapshot.reference,
  };
}

/**
 * Assets whose views the analyst's own calls brought (or removed) since the last reload began: a
 * page read before such a call must not put its older view back.
 */
const touched = new Set<string>();

async function readRest(starts: readonly number[], generation: number): Promise<void> {
  try {
    if (!(await readPages(starts, () => generation === loadGeneration, appendViews))) return;
    useWorkspace.setState({ partial: null });
  } catch (error) {
    if (generation !== loadGeneration) return;
    useWorkspace.setState((state) => ({
      partial: {
        total: state.partial?.total ?? state.assets.size,
        problem: errorMessage(error),
      },
    }));
  }
  // Main holds the session back until the window has its rows (their cores are shared).
  void bridge.methods['app.workspaceShown']({}).catch(() => undefined);
}

/**
 * The shown workspace read again whole, the old rows left in place meanwhile, then swapped in one
 * reset (the grid keeps its rows by id, so its scroll stays). A page that cannot be read leaves
 * what was read shown, and says so, as a first read does.
 */
async function refreshInPlace(snapshot: Snapshot, after: number, generation: number): Promise<void> {
  const views: AssetView[] = [...snapshot.assets];
  let problem: string | undefined;
  try {
    const whole = await readPages(
      startsOf(snapshot, after),
      () => generation === loadGeneration,
      (page) => views.push(...page),
    );
    if (!whole) return;
  } catch (error) {
    if (generation !== loadGeneration) return;
    problem = errorMessage(error);
  }
  useWorkspace.setState((state) => {
    const placed = new Map<string, AssetView>();
    const order: string[] = [];
    const place = (localId: string, view: AssetView | undefined) => {
      if (!view || placed.has(localId)) return;
      placed.set(localId, view);
      order.push(localId);
    };
    for (const view of views)
      place(view.localId, touched.has(view.localId) ? state.assets.get(view.localId) : view);
    // Added by the analyst after the page that would have held them was read.
    for (const localId of touched) place(localId, state.assets.get(localId));
    return {
      meta: metaOf(snapshot),
      lastSyncAt: snapshot.lastSyncAt,
      assets: AssetTable.of(placed.values()),
      order,
      revision: state.revision + 1,
      change: { kind: 'reset' },
      counts: countsOf(placed.values()),
      partial: problem === undefined ? null : { total: snapshot.total, problem },
    };
  });
}

/**
 * A later page of the snapshot: its assets go after those shown. One the analyst's own calls
 * already brought (an undo of yesterday's step) keeps that newer view.
 */
function appendViews(views: readonly AssetView[]): void {
  useWorkspace.setState((state) => {
    const fresh = new Map<string, AssetView>();
    for (const view of views) if (!state.assets.has(view.localId)) fresh.set(view.localId, view);
    return {
      assets: state.assets.with(fresh.values()),
      order: [...state.order, ...fresh.keys()],
      revision: state.revision + 1,
      change: { kind: 'assets', localIds: [...fresh.keys()] },
      counts: recount(
        state.counts,
        [...fresh.values()].map((view) => ({ before: undefined, after: view })),
      ),
    };
  });
}

/** Takes the views the bridge answered after the renderer's own call (no full reload). */
export function applyViews(
  views: readonly AssetView[],
  removed: readonly string[] = [],
  opts: { byHand?: true } = {},
): void {
  if (views.length === 0 && removed.length === 0) return;
  for (const view of views) touched.add(view.localId);
  for (const localId of removed) touched.add(localId);
  useWorkspace.setState((state) => {
    const assets = state.assets.with(views, removed);
    let order = state.order;
    const appended = new Set<string>();
    const moved = new Map<string, { before: AssetView | undefined; after: AssetView | undefined }>();
    for (const view of views) {
      if (!state.assets.has(view.localId)) appended.add(view.localId);
      moved.set(view.localId, { before: state.assets.get(view.localId), after: view });
    }
    for (const id of removed) {
      appended.delete(id);
      moved.set(id, { before: state.assets.get(id), after: undefined });
    }
    if (removed.length > 0) {
      const gone = new Set(removed);
      order = order.filter((id) => !gone.has(id));
    }
    if (appended.size > 0) order = [...order, ...appended];
    return {
      assets,
      order,
      revision: state.revision + 1,
      change: { kind: 'assets', localIds: [...views.map((v) => v.localId), ...removed], ...opts },
      counts: recount(state.counts, moved.values()),
    };
  });
}

/**
 * A push's settled views (issue 35): a view without its document keeps the one shown (the copy that
 * was sent is the copy shown). One not shown yet is left to the snapshot's pages still to come.
 */
export function applySettled({ views, inStep, removed }: SyncChanges): void {
  const { assets } = useWorkspace.getState();
  const whole: AssetView[] = [];
  inStep.localIds.forEach((localId, i) => {
    const shown = assets.get(localId);
    if (!shown) return;
    const serviceAssetId = inStep.serviceAssetIds[i] ?? null;
    // In step with the service: its copy and nothing else to show (one object, 20,000 times a push).
    whole.push(
      plainView([
        localId,
        serviceAssetId,
        shown.partnersId,
        'clean',
        withServiceId(shown.doc, serviceAssetId),
      ]),
    );
  });
  for (const view of views) {
    if (view.doc) whole.push({ ...view, doc: view.doc });
    else {
      const shown = assets.get(view.localId);
      if (shown) whole.push({ ...view, doc: withServiceId(shown.doc, view.serviceAssetId) });
    }
  }
  applyViews(whole, removed);
}

/**
 * The copy shown, with the id the service gave it: the copy sent had none (a create), and the id
 * column shows the document's.
 */
function withServiceId(doc: AssetView['doc'], serviceAssetId: number | null): AssetView['doc'] {
  if (serviceAssetId === null || doc['service_asset_id'] === serviceAssetId) return doc;
  return { ...doc, service_asset_id: serviceAssetId };
}

/** The status bar's "Last sync", as a sync's answer says (no reload needed for it). */
export function noteLastSync(lastSyncAt: string): void {
  useWorkspace.setState({ lastSyncAt });
}

/** The views in the workspace's order (the table's own iteration is by shard). */
export function viewsInOrder(
  state: Pick<WorkspaceState, 'order' | 'assets'> = useWorkspace.getState(),
): AssetView[] {
  const out: AssetView[] = [];
  for (const id of state.order) {
    const view = state.assets.get(id);
    if (view) out.push(view);
  }
  return out;
}
