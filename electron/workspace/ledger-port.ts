import type { WorkspaceStore } from './workspace-store';

/**
 * The seam between the workspace and the sync (issue 35): everything the sync's ledger (its
 * outbox, settlement, remote merge and pending-work planner, in `electron/sync/`, run in the sync's
 * worker) asks of a workspace's file, and nothing else. The sync reaches the workspace only
 * through this; the workspace imports nothing of the sync.
 *
 * - reading what is pending: `pendingCandidates`, `pendingRows`, `changeMark`, `assetDocs`, `createPayloadOf`,
 *   `conflictedIds`, `currentNames`, `createsByPartner`, `serviceIds`, `assetCount`, `asset`,
 *   `assetByServiceId`, `mustGet`;
 * - the service's copy taken in (electron/sync/remote-merge.ts), its documents through the one
 *   write path's `service` entry (`serviceWrites`): `knownRow`, `knownRows`, `copiesOf`,
 *   `listAssets`, `markRemoteDeleted`, `keepConflicts`, `markInvalid`, `markNotFound`;
 * - the outbox: `beginBatch`, `markBatchAmbiguous`, `unsettledBatches`, `settleBatch`,
 *   `abandonBatch`;
 * - what the window is sent of a push (see asset-views.ts `settledViewsOf`): `recordsOf`,
 *   `plainlyInStep`, `conflictsByAsset`, `lastJournalSeq`, `journalledSince`;
 * - the file itself, for the worker's own connection: `file`, `tuneForBulk`, `transaction`,
 *   `setMeta`, `close`.
 */
export type LedgerPort = Pick<
  WorkspaceStore,
  | 'pendingCandidates'
  | 'pendingRows'
  | 'changeMark'
  | 'assetDocs'
  | 'createPayloadOf'
  | 'conflictedIds'
  | 'currentNames'
  | 'createsByPartner'
  | 'serviceIds'
  | 'assetCount'
  | 'asset'
  | 'assetByServiceId'
  | 'mustGet'
  | 'serviceWrites'
  | 'knownRow'
  | 'knownRows'
  | 'copiesOf'
  | 'listAssets'
  | 'markRemoteDeleted'
  | 'keepConflicts'
  | 'markInvalid'
  | 'markNotFound'
  | 'beginBatch'
  | 'markBatchAmbiguous'
  | 'unsettledBatches'
  | 'settleBatch'
  | 'abandonBatch'
  | 'recordsOf'
  | 'plainlyInStep'
  | 'conflictsByAsset'
  | 'lastJournalSeq'
  | 'journalledSince'
  | 'file'
  | 'tuneForBulk'
  | 'transaction'
  | 'setMeta'
  | 'close'
>;
