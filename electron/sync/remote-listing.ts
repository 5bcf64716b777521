import { MAX_PER_PAGE, type Asset, type PageMeta } from '../../shared/domain';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';

/**
 * Reading the service's asset listing so that nothing is inferred from what it fails to show.
 *
 * The listing is paged by offset, and the pool is shared by every data partner: a delete on page 1
 * while page 2 is in flight shifts every later asset up by one, so one asset is on neither page.
 * A listing that changed while it was read (the total moved, an asset on two pages, a page short of
 * what the total promises) is therefore read again; an empty page where the total promised assets,
 * or an asset without an id, is an error, never "the service has nothing". And even a complete
 * listing is not proof: an asset it lacks is confirmed gone by its own GET (a 404) before anything
 * is marked (see `confirmGone`).
 */
export interface ListingResult {
  /**
   * The ids of the last reading when it was consistent; otherwise every id any reading showed (an
   * asset seen once is not inferred gone from a listing that kept moving).
   */
  seen: Set<number>;
  /** How many times the listing was read (1 when nothing moved). */
  readings: number;
  /** False when it still moved on the last reading: absence then proves even less. */
  consistent: boolean;
}

export interface ListingOptions {
  perPage?: number;
  signal?: AbortSignal | undefined;
  /** Readings before giving up on a still listing (each one a full pass). */
  maxReadings?: number;
  /** Pages in flight at once. */
  concurrency?: number;
  onPage?: (done: number, total: number) => void;
  /**
   * Fetches one page and hands its assets on to be checked with `checkedIds` against the listing's
   * last page (from the page's own meta for page 1) and taken in (merging is idempotent, so a
   * re-read page is harmless). Resolves once the page is fetched, with its meta and, as a promise
   * of its own, its checked ids: the next page is asked for without waiting for the merge.
   */
  readPage: (
    page: number,
    perPage: number,
    lastPage: (meta: PageMeta) => number,
    /** Aborted when the pass has failed (a page refused) or the caller's signal is. */
    signal: AbortSignal,
  ) => Promise<{ meta: PageMeta; ids: Promise<number[]> }>;
}

export async function readListing(opts: ListingOptions): Promise<ListingResult> {
  const everSeen = new Set<number>();
  const maxReadings = Math.max(1, opts.maxReadings ?? 3);
  for (let reading = 1; ; reading++) {
    const seen = new Set<number>();
    const consistent = await readOnce(opts, seen);
    for (const id of seen) everSeen.add(id);
    if (consistent) return { seen, readings: reading, consistent };
    if (reading >= maxReadings) return { seen: everSeen, readings: reading, consistent };
  }
}

/**
 * One full pass over the pages; true when the pages agree with each other and with the total. The
 * first page refused ends it: no page is asked for after that, and those in flight are aborted (a
 * refused page 1 once let 59 s of later pages through).
 */
async function readOnce(opts: ListingOptions, seen: Set<number>): Promise<boolean> {
  const stop = new AbortController();
  const onCancel = () => stop.abort(opts.signal?.reason);
  if (opts.signal?.aborted) onCancel();
  else opts.signal?.addEventListener('abort', onCancel, { once: true });
  try {
    return await readPages(opts, seen, stop);
  } finally {
    opts.signal?.removeEventListener('abort', onCancel);
  }
}

async function readPages(opts: ListingOptions, seen: Set<number>, stop: AbortController): Promise<boolean> {
  const perPage = opts.perPage ?? MAX_PER_PAGE;
  const pages = new Map<number, { ids: number[]; total: number }>();
  const taken: Array<Promise<void>> = [];
  // The first page whose ids were refused: no further page is asked for, and the pass fails.
  let failure: { error: unknown } | undefined;
  let done = 0;
  let lastPage = 1;
  const take = (page: number, meta: PageMeta, ids: Promise<number[]>) => {
    taken.push(
      ids.then(
        (list) => {
          for (const id of list) seen.add(id);
          pages.set(page, { ids: list, total: meta.total });
          opts.onPage?.(++done, lastPage);
        },
        (error: unknown) => {
          failure ??= { error };
          stop.abort(error);
        },
      ),
    );
  };
  const first = await opts.readPage(1, perPage, lastPageOf, stop.signal);
  lastPage = lastPageOf(first.meta);
  take(1, first.meta, first.ids);
  let next = 2;
  const worker = async () => {
    while (next <= lastPage && !failure) {
      const page = next++;
      let read;
      try {
        read = await opts.readPage(page, perPage, () => lastPage, stop.signal);
      } catch (error) {
        // Aborted because an earlier page was refused: that page's error is the pass's.
        if (failure) return;
        throw error;
      }
      take(page, read.meta, read.ids);
    }
  };
  const concurrency = Math.min(opts.concurrency ?? 4, lastPage - 1);
  const workers = Promise.all(Array.from({ length: Math.max(0, concurrency) }, worker));
  await workers.catch((error: unknown) => {
    failure ??= { error };
    stop.abort(error);
  });
  await Promise.all(taken);
  if (failure) throw failure.error;
  return agrees(pages, first.meta.total, perPage, lastPage);
}

/** The listing's last page, from the first page's `last` link or its total. */
export function lastPageOf(meta: PageMeta): number {
  const fromLink = meta.links.last ? Number(new URL(meta.links.last).searchParams.get('page')) : NaN;
  if (Number.isInteger(fromLink) && fromLink >= 1) return fromLink;
  if (meta.total > 0 && meta.perPage > 0) return Math.ceil(meta.total / meta.perPage);
  return 1;
}

/** The page's ids; an id-less asset or an empty page that should have had assets is an error. */
export function checkedIds(
  page: number,
  assets: ReadonlyArray<{ id: number | null }>,
  meta: PageMeta,
  lastPage: number,
): number[] {
  const ids: number[] = [];
  for (const asset of assets) {
    if (asset.id === null) {
      throw new ApiError(
        'bad_response',
        `The service listed an asset without an id on page ${page}; nothing was merged or marked deleted from this listing.`,
      );
    }
    ids.push(asset.id);
  }
  if (assets.length === 0 && (page > 1 || meta.total > 0 || lastPage > 1)) {
    throw new ApiError(
      'bad_response',
      `The service answered an empty page ${page} of ${lastPage} (total ${meta.total}); nothing was marked deleted.`,
    );
  }
  return ids;
}

/** The pages describe one listing: one total throughout, no asset twice, no page short. */
function agrees(
  pages: Map<number, { ids: number[]; total: number }>,
  total: number,
  perPage: number,
  lastPage: number,
): boolean {
  const unique = new Set<number>();
  let count = 0;
  for (const [page, { ids, total: pageTotal }] of pages) {
    if (pageTotal !== total) return false;
    if (page < lastPage && ids.length !== perPage) return false;
    for (const id of ids) unique.add(id);
    count += ids.length;
  }
  if (unique.size !== count) return false;
  // Without a total header only the page sizes can speak; with one, the count must match it.
  return total === 0 ? true : count === total;
}

/**
 * Of the ids a listing lacked, those the service really no longer has: each is asked for by GET, a
 * 404 confirms it gone, an answer is handed to `onFound` (it was only missed). Any other failure
 * stops the pull: absence alone never deletes.
 */
export async function confirmGone(
  client: SubmissionApiClient,
  entityId: number,
  ids: readonly number[],
  onFound: (asset: Asset) => void,
  signal?: AbortSignal,
  concurrency = 4,
): Promise<Set<number>> {
  const gone = new Set<number>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++] as number;
      try {
        onFound(await client.getAsset(entityId, id, signal));
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'not_found') gone.add(id);
        else throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
  return gone;
}
