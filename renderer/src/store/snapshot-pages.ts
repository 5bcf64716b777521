/**
 * How the window reads a large snapshot's later pages (`workspace.assets`): asked ahead, taken in
 * order, each one JSON text of its views (shared/bridge/asset-page.ts). The workspace store
 * (workspace.ts) decides what a page's views do.
 */
import { pageViews } from '../../../shared/bridge/asset-page';
import type { AssetView } from '../../../shared/sync/types';
import { bridge } from '../bridge';

/** What a page of `pageStarts` may hold: it ends where the next begins. */
const wholePage = 1_000_000;
/** Pages asked for at a time, once the first has come (see `readPages`). */
const pagesAhead = 2;

type Page = Awaited<ReturnType<(typeof bridge.methods)['workspace.assets']>>;
type PageAnswer = { page: Page } | { error: unknown };

/** Where the snapshot's later pages start (its `next` alone: one page to the end). */
export function startsOf(snapshot: { pageStarts: readonly number[] }, next: number): readonly number[] {
  return snapshot.pageStarts.length > 0 ? snapshot.pageStarts : [next];
}

/**
 * The later pages of a snapshot, each handed on in order as it arrives; false once a newer load
 * began (`current` false). Once the first has come, `pagesAhead` are asked for at a time: main reads the next while
 * the one before travels and the window takes it (asked one after another, the window waited idle
 * for each page's round trip, main's read and its bytes' way; issue 33). Not all at once: main's
 * reading of every page went before the window's other first calls, and its first drawing waited.
 */
export async function readPages(
  starts: readonly number[],
  current: () => boolean,
  take: (views: readonly AssetView[]) => void,
): Promise<boolean> {
  // Settled either way, so a page asked for ahead and not wanted any more is no unhandled failure.
  const ask = (after: number, through?: number): Promise<PageAnswer> =>
    bridge.methods['workspace.assets']({
      after,
      limit: wholePage,
      ...(through === undefined ? {} : { through }),
    }).then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    );
  const asked: Array<Promise<PageAnswer>> = [];
  let start = 0;
  const askUpTo = (pages: number): void => {
    for (; asked.length < pages && start < starts.length; start++)
      asked.push(ask(starts[start]!, starts[start + 1]));
  };
  // The first alone: main answers the window's other first calls (the marks, the history) meanwhile.
  askUpTo(1);
  while (asked.length > 0) {
    const answer: PageAnswer = await asked.shift()!;
    if (!current()) return false;
    if ('error' in answer) throw answer.error;
    askUpTo(pagesAhead);
    // Past a million rows, the last page goes on where it stopped.
    if (asked.length === 0 && answer.page.next !== null) asked.push(ask(answer.page.next));
    // A frame between pages: the grid paints and takes keys while the rest arrives.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!current()) return false;
    take(pageViews(answer.page));
  }
  return true;
}
