import { changedPaths, updatePayload, type AssetDoc } from '../../shared/sync/asset-doc';
import { changesAnything, specIdName, type AssetIdName } from '../../shared/sync/asset-id-name';
import { parseDoc, toRecord, type AssetRecord, type AssetRow } from '../workspace/asset-record';
import type { LedgerPort } from '../workspace/ledger-port';
import type { PendingCandidate } from '../workspace/ledger-reads';

export type { PendingCandidate };

/**
 * What the sync sends: the difference between each asset's two copies, so nothing is queued twice.
 */
export interface PendingWork {
  creates: AssetRecord[];
  updates: Array<{ record: AssetRecord; patch: AssetDoc }>;
  deletes: AssetRecord[];
  /** Held back until the user resolves them. */
  conflicted: AssetRecord[];
  /**
   * Edited only in fields the connection's service no longer takes (`lat`, `lng`, annual
   * `owned_entire_period` for the real service, see asset-id-name.ts): kept here, nothing to send.
   */
  localOnly: AssetRecord[];
  /**
   * The texts each queued create and update was parsed from (the row's `base` and `current`): a
   * batch filled from this plan takes the parsed documents while its row still holds these.
   */
  parsed: Map<string, PlannedDocs>;
}

/** A queued asset as the plan read it: the texts of its row, its record parsed from them, its patch. */
export interface PlannedDocs {
  base: string | null;
  current: string | null;
  record: AssetRecord;
  patch?: AssetDoc;
}

/** What a sync to a service reading the asset id as `idName` would send (ours by default). */
export function pendingOf(
  store: Pick<LedgerPort, 'pendingRows' | 'conflictedIds'>,
  idName?: AssetIdName,
): PendingWork {
  const conflicted = store.conflictedIds();
  return pendingWork(store.pendingRows(), conflicted, idName);
}

/**
 * The changes not yet sent among a file's rows, for a damaged file's message (given to the
 * workspace: see workspace-damage.ts `UnsentCounter`).
 */
export function unsentCount(rows: Iterable<AssetRow>, conflicted: ReadonlySet<string>): number {
  const work = pendingWork(rows, conflicted);
  return work.creates.length + work.updates.length + work.deletes.length + work.conflicted.length;
}

/**
 * Sorts the workspace's rows (in their stored order) into creates, updates, deletes and conflicts,
 * for a service that reads the asset id as `idName` (what it no longer takes is `localOnly`).
 */
export function pendingWork(
  rows: Iterable<AssetRow>,
  conflicted: ReadonlySet<string>,
  idName: AssetIdName = specIdName,
): PendingWork {
  const work = emptyWork();
  for (const row of rows) {
    // Most rows are in step with the service: same text, nothing to parse or compare.
    if (row.base !== null && row.base === row.current && row.remote_deleted === 0) continue;
    const kind = candidateKind(candidateOfRow(row), conflicted);
    if (kind === 'create') {
      const record = unparsed(row);
      work.creates.push(record);
      work.parsed.set(row.local_id, { base: row.base, current: row.current, record });
      continue;
    }
    const record = toRecord(row);
    if (kind === 'conflicted') {
      if (record.remoteDeleted || changedPaths(record.base, record.current).length > 0)
        work.conflicted.push(record);
    } else if (kind === 'delete') work.deletes.push(record);
    else if (kind === 'update' && record.serviceAssetId !== null && record.base && record.current) {
      const patch = updatePayload(record.serviceAssetId, record.base, record.current);
      // The same rule as the batch planner's: an update the service would read as empty is not sent.
      if (patch && changesAnything(patch, idName)) {
        work.updates.push({ record, patch });
        work.parsed.set(record.localId, { base: row.base, current: row.current, record, patch });
      } else if (patch) work.localOnly.push(record);
    }
  }
  return work;
}

export function emptyWork(): PendingWork {
  return { creates: [], updates: [], deletes: [], conflicted: [], localOnly: [], parsed: new Map() };
}

/** A row's candidate, told from its columns without parsing its documents. */
function candidateOfRow(row: AssetRow): PendingCandidate {
  return {
    localId: row.local_id,
    serviceAssetId: row.service_asset_id,
    remoteDeleted: row.remote_deleted === 1,
    notFound: row.not_found === 1,
    hasBase: row.base !== null,
    hasCurrent: row.current !== null,
  };
}

/**
 * A create's record whose documents are parsed when first read: whether a row is a create is told
 * from its columns, so a push parses each new asset when its batch is filled (the first batch
 * leaves after 5,000 parses, not 20,000), and a plan that is never sent parses none.
 */
function unparsed(row: AssetRow): AssetRecord {
  // One object literal with its two getters (own and enumerable, as a record's fields are), not a
  // copy of the row's record then given them by `Object.defineProperties` (two descriptors, two
  // closures, each named per call under tsx: a batch plans 5,000 of them).
  let base: AssetRecord['base'] | undefined;
  let current: AssetRecord['current'] | undefined;
  return {
    localId: row.local_id,
    serviceAssetId: row.service_asset_id,
    partnersId: row.partners_id,
    get base() {
      return base === undefined ? (base = parseDoc(row.base)) : base;
    },
    get current() {
      return current === undefined ? (current = parseDoc(row.current)) : current;
    },
    serverValidations: row.server_validations
      ? (JSON.parse(row.server_validations) as AssetRecord['serverValidations'])
      : null,
    outliers: row.outliers ? (JSON.parse(row.outliers) as AssetRecord['outliers']) : [],
    remoteDeleted: row.remote_deleted === 1,
    notFound: row.not_found === 1,
    inFlight: row.in_flight,
    updatedAt: row.updated_at,
    inStep: row.base !== null && row.base === row.current,
  };
}

export function candidateOf(record: AssetRecord): PendingCandidate {
  return {
    localId: record.localId,
    serviceAssetId: record.serviceAssetId,
    remoteDeleted: record.remoteDeleted,
    notFound: record.notFound,
    hasBase: record.base !== null,
    hasCurrent: record.current !== null,
  };
}

/**
 * The queue a row that is not in step belongs to, by the same rules as `pendingWork`: `conflicted`
 * still needs its documents compared (a conflict resolved back to the base is no longer pending);
 * `update`, its diff (a copy equal in substance to the base sends nothing).
 */
export function candidateKind(
  row: PendingCandidate,
  conflicted: ReadonlySet<string>,
): 'create' | 'update' | 'delete' | 'conflicted' | undefined {
  if (row.remoteDeleted || conflicted.has(row.localId)) return 'conflicted';
  if (row.serviceAssetId === null) return row.hasCurrent ? 'create' : undefined;
  if (!row.hasCurrent) return 'delete';
  return row.hasBase && !row.notFound ? 'update' : undefined;
}
