/**
 * The one pending-work plan of a Sync click (issue 35): what the review lists, the dry run asks the
 * service about and the push sends, computed once in the sync's worker and kept while the
 * workspace does not change. A click asks for it several times (the header's review, the delete
 * confirmation's, the dry run); each after the first is served from here.
 *
 * The plan is made in slices (plan-slices.ts): the review and the dry run drain it; a push takes
 * it over (`takePlan`) and plans each slice as its batches need it.
 *
 * "Does not change" is the workspace's mark (`LedgerPort.changeMark`): its assets' count and write
 * times, its conflicts and its journal's last entry, read in one statement; the sync's own writes
 * (a pull, a settled batch) forget the plan outright (`forgetPlan`).
 */
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import type { PendingReview } from '../../shared/sync/types';
import type { LedgerPort } from '../workspace/ledger-port';
import type { PendingWork } from './pending-work';
import { SlicedPlan } from './plan-slices';

interface Plan {
  mark: string;
  idName: AssetIdName;
  plan: SlicedPlan;
  /** The review made of it, by the rules' contexts it was checked with. */
  review?: { key: string; review: PendingReview };
}

/** By workspace file; a workspace without one (':memory:') is not kept. */
const plans = new Map<string, Plan>();

/** How many plans were computed (not served from here): tests count the work of one click. */
export const planStats = { computed: 0 };

const kept = (store: LedgerPort): boolean => store.file !== '' && store.file !== ':memory:';

/** The pending work for a service reading the asset id as `idName`: computed, or as last computed. */
export function pendingPlan(store: LedgerPort, idName: AssetIdName): PendingWork {
  return planOf(store, idName).plan.drain();
}

/**
 * The plan, for a push, which makes its slices as its batches need them (the first batch leaves
 * after one slice, not the whole plan): no longer kept here, since the push's own writes make it
 * stale (as `forgetPlan` says) and its slices are the push's alone.
 */
export function takePlan(store: LedgerPort, idName: AssetIdName): SlicedPlan {
  // No plan kept (no review came before): one is begun, without the workspace's mark, which would
  // only be dropped with it (reading it scans every asset's row before the first batch).
  const known = kept(store) ? plans.get(store.file) : undefined;
  const { plan } = known ? planOf(store, idName) : begin(store, idName);
  forgetPlan(store);
  return plan;
}

/**
 * The review of the plan, made by `make` once per plan and contexts (`key`): its validation of
 * every pending asset is the costly part a second review in the same click is spared.
 */
export function reviewOfPlan(
  store: LedgerPort,
  idName: AssetIdName,
  key: string,
  make: (work: PendingWork) => PendingReview,
): PendingReview {
  const plan = planOf(store, idName);
  if (plan.review?.key === key) return plan.review.review;
  const review = make(plan.plan.drain());
  plan.review = { key, review };
  return review;
}

/** The sync wrote the workspace (a pull, a settled batch): its plan is no longer the pending work. */
export function forgetPlan(store: LedgerPort): void {
  plans.delete(store.file);
}

function planOf(store: LedgerPort, idName: AssetIdName): Plan {
  const mark = store.changeMark();
  const known = kept(store) ? plans.get(store.file) : undefined;
  if (known && known.mark === mark && known.idName === idName) return known;
  const plan: Plan = { mark, ...begin(store, idName) };
  if (kept(store)) plans.set(store.file, plan);
  return plan;
}

/** A plan begun only (the candidates, from their columns): its slices are planned as asked for. */
function begin(store: LedgerPort, idName: AssetIdName): Omit<Plan, 'mark'> {
  planStats.computed++;
  return { idName, plan: new SlicedPlan(store, idName) };
}
