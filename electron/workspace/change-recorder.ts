import type { ChangeSource } from '../../shared/history/change-source';

/**
 * A document of the workspace as the one write path sees it: an asset (its analyst's copy, the
 * `AssetDoc`), a portfolio answer, and soon a meter or a reading. `id` is the local id for an asset,
 * `<responseId>:<variable>` for an answer, the meter's or reading's own id for those.
 */
export interface DocumentRef {
  /** `derived`: what meters last wrote into an asset's annual cell (electron/workspace/meter-document.ts). */
  kind: 'asset' | 'answer' | 'meter' | 'reading' | 'derived';
  id: string;
}

/**
 * One document changed by one write: its images before and after (null: it did not exist / is gone).
 * A new asset from the service gives `after` as a getter that reads the row: read it inside `record`
 * (a pull's 20,000 arrivals are not parsed back for a recorder that does not need them).
 */
export interface DocumentChange {
  doc: DocumentRef;
  before: unknown;
  after: unknown;
  /**
   * The paths the write set, when it set nothing else (a cell edit): the cells it changed are among
   * them, so the recorder compares just those rather than walking both images (a keypress's share).
   */
  cells?: readonly string[];
}

/**
 * What the write path tells about every change it makes, inside the same transaction, with the
 * change's source and time: the cell history (issue 31) records it. The write path works without one.
 */
export interface ChangeRecorder {
  record(changes: readonly DocumentChange[], source: ChangeSource, at: number): void;
  /**
   * Asked first of a change the write path journals: the change's history as text to keep in its
   * journal row instead (an analyst's cell edit: no page of its own, cell-history.ts), or undefined:
   * `record` it. A recorder that declines has its history in order for a row written after it.
   */
  carry?(change: DocumentChange, source: ChangeSource, at: number): string | undefined;
}
