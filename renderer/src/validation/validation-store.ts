/**
 * Offline validation of the workspace, incremental: results per asset are cached against the asset
 * view object (the store replaces a view when it changes), so an edit revalidates only that asset.
 * After a load, a background pass validates everything in slices so the grid paints first; cells of
 * assets not reached yet are validated on demand when they are drawn.
 */
import { create } from 'zustand';
import { ValidationCache, workspaceContexts } from '../../../shared/domain';
import type { AssetView } from '../../../shared/sync/types';
import { useWorkspace, type WorkspaceMeta } from '../store/workspace';
import {
  countIssues,
  indexIssues,
  localIssues,
  markFixedHere,
  mergeIssues,
  serviceIssues,
  type CellIssues,
  type Issue,
} from './issues';

interface AssetIssues {
  view: AssetView;
  issues: Issue[];
  index: Map<string, CellIssues>;
  errors: number;
  warnings: number;
}

interface ValidationState {
  errors: number;
  warnings: number;
  /** Bumped whenever results change, for the problems panel and cell refreshes. */
  version: number;
  /**
   * Whose cells to draw again for this version: every asset (a reload, the background pass's end)
   * or those whose results changed while their views did not (a rename's clash). The rows of a
   * replaced view are drawn again by the grid that takes the view.
   */
  redraw: 'all' | ReadonlySet<string>;
  complete: boolean;
}

export const useValidation = create<ValidationState>(() => ({
  errors: 0,
  warnings: 0,
  version: 0,
  redraw: 'all',
  complete: true,
}));

const emptyIndex = new Map<string, CellIssues>();

class WorkspaceValidation {
  private caches: { create: ValidationCache; update: ValidationCache } | undefined;
  private meta: WorkspaceMeta | undefined;
  private perAsset = new Map<string, AssetIssues>();
  /** Assets whose entry has issues: the problems panel lists these, not every asset. */
  private withIssues = new Set<string>();
  private positions: { order: readonly string[]; at: Map<string, number> } | undefined;
  private names = new Map<string, Set<string>>();
  private nameOf = new Map<string, string>();
  private errors = 0;
  private warnings = 0;
  private generation = 0;

  reset(meta: WorkspaceMeta | undefined, views: readonly AssetView[]): void {
    this.generation++;
    this.meta = meta;
    this.perAsset.clear();
    this.withIssues.clear();
    this.names.clear();
    this.nameOf.clear();
    this.errors = 0;
    this.warnings = 0;
    if (!meta) {
      this.caches = undefined;
      this.publish(true, 'all');
      return;
    }
    for (const view of views) this.trackName(view);
    const ctx = workspaceContexts({
      assessmentYear: meta.assessmentYear,
      areaUnitsName: meta.entity.reporting_preferences.area_units_name,
      reportingPeriodMonth: meta.entity.reporting_preferences.reporting_period_month,
      lists: meta.reference,
      isNameTaken: (name) => (this.names.get(name.trim())?.size ?? 0) > 1,
    });
    this.caches = { create: new ValidationCache(ctx.create), update: new ValidationCache(ctx.update) };
    this.publish(views.length === 0, 'all');
    this.background(views, this.generation);
  }

  /**
   * Validates the whole workspace in slices of ~8 ms, yielding to painting between them. Not while
   * the rest of the workspace is being read: its pages go first (issue 33: the pass's slices held
   * the window's reading of them back, on a machine of two cores, by some 400 ms at 100k rows), and
   * the cells drawn meanwhile are validated as they are drawn.
   */
  private background(views: readonly AssetView[], generation: number): void {
    let i = 0;
    const step = (): void => {
      if (generation !== this.generation) return;
      if (readingRest()) {
        setTimeout(step, readingPollMs);
        return;
      }
      const until = performance.now() + 8;
      while (i < views.length && performance.now() < until) {
        const view = views[i++]!;
        const current = useWorkspace.getState().assets.get(view.localId);
        if (current) this.of(current);
      }
      if (i < views.length) setTimeout(step, 0);
      else this.publish(true, 'all');
    };
    setTimeout(step, 0);
  }

  /** Called with the views an edit returned: names first (a rename can clash with others), then each. */
  update(views: readonly AssetView[], removed: readonly string[] = []): void {
    const touchedNames = new Set<string>();
    for (const id of removed) {
      const old = this.nameOf.get(id);
      if (old !== undefined) touchedNames.add(old);
      this.untrackName(id);
      this.drop(id);
    }
    for (const view of views) {
      const old = this.nameOf.get(view.localId);
      const next = this.trackName(view);
      if (old !== next) {
        if (old !== undefined) touchedNames.add(old);
        if (next !== undefined) touchedNames.add(next);
      }
    }
    // Assets sharing a name that changed are revalidated ("has already been taken" appears or goes).
    // The views given are validated below (in the background when many): a page of 5,000 new
    // assets, each with a name of its own, was validated here at once, half a second a page.
    const replaced = new Set(views.map((v) => v.localId));
    const revisited = new Set<string>();
    for (const name of touchedNames) {
      for (const id of this.names.get(name) ?? []) {
        this.caches?.create.delete(id);
        this.caches?.update.delete(id);
        this.drop(id);
        if (replaced.has(id)) continue;
        const view = useWorkspace.getState().assets.get(id);
        if (view) this.of(view);
        revisited.add(id);
      }
    }
    // Many at once (a push's settled assets): in the background, in slices, as a reset's are; the
    // grid's cells validate the rows they draw meanwhile.
    if (views.length > inBackgroundPast) this.background(views, this.generation);
    else for (const view of views) this.of(view);
    this.publish(useValidation.getState().complete, revisited);
  }

  private trackName(view: AssetView): string | undefined {
    const name = view.doc['name'];
    const key =
      view.status === 'deleted' || typeof name !== 'string' || name.trim() === '' ? undefined : name.trim();
    // Most views a push settles keep their names: nothing to move.
    if (key !== undefined && this.nameOf.get(view.localId) === key) return key;
    this.untrackName(view.localId);
    if (key === undefined) return undefined;
    let set = this.names.get(key);
    if (!set) {
      set = new Set();
      this.names.set(key, set);
    }
    set.add(view.localId);
    this.nameOf.set(view.localId, key);
    return key;
  }

  private untrackName(localId: string): void {
    const old = this.nameOf.get(localId);
    if (old === undefined) return;
    this.names.get(old)?.delete(localId);
    this.nameOf.delete(localId);
  }

  private drop(localId: string): void {
    const hit = this.perAsset.get(localId);
    if (!hit) return;
    this.errors -= hit.errors;
    this.warnings -= hit.warnings;
    this.perAsset.delete(localId);
    this.withIssues.delete(localId);
  }

  /** The issues of one asset (computed now when the view is new). */
  of(view: AssetView): AssetIssues {
    const hit = this.perAsset.get(view.localId);
    if (hit && hit.view === view) return hit;
    this.drop(view.localId);
    let issues: Issue[] = [];
    if (view.status !== 'deleted') {
      let local: Issue[] = [];
      if (this.caches) {
        const cache = view.serviceAssetId === null ? this.caches.create : this.caches.update;
        local = localIssues(view.localId, view.doc, cache.get(view.localId, view.doc));
      }
      issues = mergeIssues(
        local,
        markFixedHere(serviceIssues(view.localId, view.serverValidations), view.changedPaths),
      );
    }
    const counts = countIssues(issues);
    const entry: AssetIssues = {
      view,
      issues,
      index: issues.length > 0 ? indexIssues(issues) : emptyIndex,
      errors: counts.errors,
      warnings: counts.warnings,
    };
    this.perAsset.set(view.localId, entry);
    if (issues.length > 0) this.withIssues.add(view.localId);
    this.errors += entry.errors;
    this.warnings += entry.warnings;
    return entry;
  }

  cell(view: AssetView, path: string): CellIssues | undefined {
    return this.of(view).index.get(path);
  }

  /**
   * Every issue found so far, in workspace order (for the problems panel). Only assets with issues
   * are visited: every change of the store reaches `update` or `reset` (connectValidation), so an
   * asset without an entry is one the background pass has not reached yet, and it is left to it
   * (validating it here would hold the first paint of a 100k-row workspace for a quarter of a
   * second; the pass's end publishes a new version). Gathering all 16,667 assets' issues on every
   * keypress cost ~2.5 ms.
   */
  all(order: readonly string[]): Issue[] {
    const assets = useWorkspace.getState().assets;
    const complete = useValidation.getState().complete;
    const at = this.positionsIn(order);
    const ids = [...this.withIssues].filter((id) => at.has(id)).sort((a, b) => at.get(a)! - at.get(b)!);
    const out: Issue[] = [];
    for (const id of ids) {
      const view = assets.get(id);
      const hit = this.perAsset.get(id);
      if (!view || !hit) continue;
      if (hit.view === view) out.push(...hit.issues);
      else if (complete) out.push(...this.of(view).issues);
    }
    return out;
  }

  /** Each asset's place in the workspace order, kept while the order is the same array. */
  private positionsIn(order: readonly string[]): Map<string, number> {
    if (this.positions?.order !== order) {
      const at = new Map<string, number>();
      order.forEach((id, i) => at.set(id, i));
      this.positions = { order, at };
    }
    return this.positions.at;
  }

  private publish(complete: boolean, redraw: ValidationState['redraw']): void {
    useValidation.setState((s) => ({
      errors: this.errors,
      warnings: this.warnings,
      version: s.version + 1,
      redraw,
      complete,
    }));
  }
}

/** Past this many views updated at once, they are validated in the background (see `update`). */
const inBackgroundPast = 1_000;
/** How often a background pass waiting for the workspace's pages looks again. */
const readingPollMs = 50;

/** The rest of the workspace is being read after its first page (and has not stopped on a problem). */
function readingRest(): boolean {
  const { partial } = useWorkspace.getState();
  return partial !== null && partial.problem === undefined;
}

export const validation = new WorkspaceValidation();

/** Keeps validation in step with the workspace store. */
export function connectValidation(): () => void {
  let lastMeta: WorkspaceMeta | undefined;
  return useWorkspace.subscribe((state, prev) => {
    if (state.revision === prev.revision) return;
    if (state.change.kind === 'reset' || state.meta !== lastMeta) {
      lastMeta = state.meta;
      const views: AssetView[] = [];
      for (const id of state.order) {
        const view = state.assets.get(id);
        if (view) views.push(view);
      }
      validation.reset(state.meta, views);
      return;
    }
    const views: AssetView[] = [];
    const removed: string[] = [];
    for (const id of state.change.localIds) {
      const view = state.assets.get(id);
      if (view) views.push(view);
      else removed.push(id);
    }
    validation.update(views, removed);
  });
}
