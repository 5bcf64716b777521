/** Sync-facing shapes that cross the bridge: the renderer shows them, main produces them. */
import type { Outlier, Validations } from '../domain';
import type { AssetDoc, Scalar } from './asset-doc';

/** The service's word on an asset: `_validations` at the three levels, as it answered. */
export interface ServerVerdict {
  asset: Validations;
  annualData: Array<{ year: unknown; _validations?: Validations | undefined }>;
  certifications: Array<{ id?: unknown; _validations?: Validations | undefined }>;
}

export type SyncPhase =
  'pull' | 'validate' | 'push' | 'reconcile' | 'done' | 'paused' | 'failed' | 'cancelled';

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
  /** When the pacer holds the next batch back (epoch ms), for a countdown. */
  nextSendAt?: number | undefined;
  /**
   * The service answered 5xx: when the sync tries again (epoch ms); `message` says what it answered.
   * The service is having trouble, not out of reach: the header does not go offline for it.
   */
  retryAt?: number | undefined;
  message?: string | undefined;
}

/** `strict` sends create/update (invalid rows refused); `always` sends always_create/always_update. */
export type PushMode = 'strict' | 'always';

export interface PullSummary {
  added: number;
  updated: number;
  conflicts: number;
  removed: number;
  remoteDeletedConflicts: number;
  adopted: number;
}

export interface PushSummary {
  requests: number;
  created: number;
  updated: number;
  deleted: number;
  invalid: number;
  notFound: number;
  /** Not sent: the shared rules found errors offline (strict mode). */
  blocked: Array<{ localId: string; errors: Validations['errors'] }>;
  /** Held back until the user resolves their conflicts. */
  conflicted: number;
  /** Deletes not sent because the analyst did not confirm them (they stay pending). */
  unconfirmedDeletes: number;
}

export interface SyncReport {
  pull: PullSummary;
  push: PushSummary;
  /** Set when the sync stopped early; pending work stays queued. */
  stopped?: {
    reason: 'unauthorized' | 'forbidden' | 'cancelled' | 'error';
    message: string;
    /** The service could not be reached (a network failure or no answer in time). */
    offline?: boolean | undefined;
    /** The service answered, with 5xx: it is having trouble (not offline). */
    serviceTrouble?: boolean | undefined;
  };
}

export type AssetStatus = 'clean' | 'new' | 'modified' | 'deleted';

export interface FieldConflictView {
  path: string;
  base: Scalar;
  mine: Scalar;
  theirs: Scalar;
}

/** One asset as the grids show it. */
export interface AssetView {
  localId: string;
  serviceAssetId: number | null;
  partnersId: number | null;
  /** The analyst's copy; for a deleted asset, the last copy before deletion. */
  doc: AssetDoc;
  status: AssetStatus;
  /**
   * Paths that differ from the service's copy (staged changes). Empty for a new asset, all of whose
   * values are unsent (`changedPaths(null, doc)`): not listed, a snapshot stays small.
   */
  changedPaths: string[];
  conflicts: FieldConflictView[];
  remoteDeleted: boolean;
  notFound: boolean;
  serverValidations: ServerVerdict | null;
  outliers: Outlier[];
  /**
   * Changed paths the connection's service no longer takes (the real service: `lat`, `lng`, annual
   * `owned_entire_period`): kept here, never sent. Changed only in those, the asset is not pending
   * (status `clean`). Absent when there are none.
   */
  keptHere?: string[];
}

export interface DryRunRow {
  localId: string;
  valid: boolean;
  validations: ServerVerdict;
}

export interface PendingReview {
  creates: Array<{ localId: string; name: string }>;
  updates: Array<{
    localId: string;
    name: string;
    changedPaths: string[];
    /** Each changed field, old -> new (text as the grid shows it). */
    changes?: Array<{ path: string; before: string; after: string }>;
  }>;
  deletes: Array<{ localId: string; name: string; serviceAssetId: number | null }>;
  conflicted: Array<{ localId: string; name: string }>;
  /** Changed only in fields this service no longer takes: kept here, not sent (see `AssetView`). */
  keptHere?: Array<{ localId: string; name: string; changedPaths: string[] }>;
  /** What a sync would hold back (the shared rules' errors), named before anything is sent. */
  heldBack?: Array<{ localId: string; name: string; errors: Array<{ path: string; messages: string[] }> }>;
}

/** What undo and redo would do next, as labels ("paste of 9 cells"); null: nothing. */
export interface HistoryState {
  undo: string | null;
  redo: string | null;
}

/** The answer to an edit (cells, new assets): the assets as they are now, and main's history after it. */
export interface EditOutcome {
  views: AssetView[];
  history: HistoryState;
}

/** The result of undo or redo: the step's label, the assets as they are now, those now gone. */
export interface HistoryOutcome {
  label: string | null;
  views: AssetView[];
  removed: string[];
  /** Portfolio responses whose answers the step changed (the Responses tab reads them again). */
  responses: number[];
  history: HistoryState;
}
