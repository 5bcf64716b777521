import { createPayload, type AssetDoc } from '../../shared/sync/asset-doc';
import {
  assetColumns,
  inStep,
  toRecord,
  type AssetRecord,
  type AssetRow,
  type ParsedDocs,
} from './asset-record';
import { WorkspaceReads } from './workspace-reads';

/**
 * A row that may be pending, described without its documents (`pendingCandidates`): enough for the
 * sync to queue it (electron/sync/pending-work.ts), so a push reads and diffs each document only
 * when its batch is filled.
 */
export interface PendingCandidate {
  localId: string;
  /** Its row's place in the table, when read from it (`pendingCandidates`): found without the id's index. */
  rowid?: number;
  serviceAssetId: number | null;
  remoteDeleted: boolean;
  notFound: boolean;
  hasBase: boolean;
  hasCurrent: boolean;
}

/** What the workspace holds of an asset the service lists, to tell whether its copy is news. */
export interface KnownRow {
  local_id: string;
  base: string | null;
  outliers: string | null;
  server_validations: string | null;
  remote_deleted: number;
  not_found: number;
}
const knownColumns = 'local_id, base, outliers, server_validations, remote_deleted, not_found';

/**
 * What the sync's ledger reads of the workspace (see ledger-port.ts), over the store's one
 * connection: what is pending, the outbox, what a push settled, and the reads of the sync's worker
 * thread (its own connection to the file), which leave the documents unparsed until a batch needs
 * them. WorkspaceStore adds the writes.
 */
export class LedgerReads extends WorkspaceReads {
  /**
   * The rows that may be pending, in the stored order, documents as text: what the sync plans its
   * work from. A row in step with the service (most of a pulled workspace) is never pending, so its
   * texts are not read at all; the others are read in one go (faster than a row at a time).
   * `localIds`: only these (a slice of the plan, see electron/sync/plan-slices.ts), in one statement;
   * `rowids`: their rows' places as `pendingCandidates` read them, if known (each row is then found
   * by its place, not through the local id's index: a third of reading a batch's 5,000 rows).
   */
  pendingRows(localIds?: readonly string[], rowids?: readonly number[]): AssetRow[] {
    const pending = `NOT (${inStep} AND remote_deleted = 0)`;
    // As arrays (raw), each made into its row here: better-sqlite3's row objects, made key by key,
    // cost twice as much (a push reads a batch's 5,000 rows this way before its first request).
    if (!localIds)
      return rowsOf(
        this.sql(`SELECT ${assetColumns} FROM assets WHERE ${pending} ORDER BY rowid`)
          .raw()
          .all() as RawAssetRow[],
      );
    if (rowids && rowids.length === localIds.length) {
      const raw = this.sql(
        `SELECT ${assetColumns} FROM assets WHERE rowid IN (SELECT value FROM json_each(?)) AND ${pending} ORDER BY rowid`,
      )
        .raw()
        .all(JSON.stringify(rowids)) as RawAssetRow[];
      // A place is a row's for good (the file is never vacuumed), but a row removed since may have
      // left its place to a new one: only the rows asked for by their ids are theirs.
      const asked = new Set(localIds);
      return rowsOf(raw.filter((r) => asked.has(r[0])));
    }
    return rowsOf(
      this.sql(
        `SELECT ${assetColumns} FROM assets WHERE local_id IN (SELECT value FROM json_each(?)) AND ${pending} ORDER BY rowid`,
      )
        .raw()
        .all(JSON.stringify(localIds)) as RawAssetRow[],
    );
  }

  /** What the workspace holds of the asset with this service id (see electron/sync/remote-merge.ts). */
  knownRow(id: number): KnownRow | null {
    const row = this.sql(`SELECT ${knownColumns} FROM assets WHERE service_asset_id = ?`).get(id);
    return (row as KnownRow | undefined) ?? null;
  }

  /**
   * `knownRow` of these service ids, read in one statement (a pull takes its pages in groups: one
   * query per group, not one per asset).
   */
  knownRows(ids: readonly number[]): Map<number, KnownRow> {
    const rows = this.sql(
      `SELECT service_asset_id, ${knownColumns} FROM assets WHERE service_asset_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as Array<KnownRow & { service_asset_id: number }>;
    return new Map(rows.map((row) => [row.service_asset_id, row]));
  }

  /** An asset's copies as text: the analyst's, the one a batch carried, the service's (undefined: no row). */
  copiesOf(
    localId: string,
  ): { current: string | null; sent: string | null; base: string | null } | undefined {
    return this.sql('SELECT current, sent, base FROM assets WHERE local_id = ?').get(localId) as
      { current: string | null; sent: string | null; base: string | null } | undefined;
  }

  createPayloadOf(record: AssetRecord): AssetDoc {
    if (!record.current) throw new Error(`Asset ${record.localId} has no local copy`);
    return createPayload(record.current);
  }

  /** Batches whose outcome is unknown: left by a lost answer, or by a crash while sending. */
  unsettledBatches(): Array<{ batchId: string; localIds: string[] }> {
    return (
      this.sql('SELECT batch_id, local_ids FROM outbox ORDER BY created_at').all() as Array<{
        batch_id: string;
        local_ids: string;
      }>
    ).map((row) => ({ batchId: row.batch_id, localIds: JSON.parse(row.local_ids) as string[] }));
  }

  /** Every service id the workspace knows, without reading the documents. */
  serviceIds(): number[] {
    // The values alone (pluck): a row object for each of 20,000 ids was most of the cost.
    return this.sql('SELECT service_asset_id FROM assets WHERE service_asset_id IS NOT NULL')
      .pluck()
      .all() as number[];
  }

  /** The SQLite file, for another thread's connection (':memory:' has none to share). */
  get file(): string {
    return this.db.name;
  }

  /**
   * The rows not in step with the service, in order, without their documents: the candidates a
   * plan is begun with and then read in slices (electron/sync/plan-slices.ts).
   */
  pendingCandidates(): PendingCandidate[] {
    // As arrays (raw): a row object for each of 20,000 candidates, made and dropped, was half the
    // cost, and this is read before a push's first batch.
    const rows = this.sql(
      `SELECT local_id, service_asset_id, remote_deleted, not_found, base IS NOT NULL AS has_base, current IS NOT NULL AS has_current, rowid FROM assets WHERE NOT (${inStep} AND remote_deleted = 0) ORDER BY rowid`,
    )
      .raw()
      .all() as Array<[string, number | null, number, number, number, number, number]>;
    return rows.map(([localId, serviceAssetId, remoteDeleted, notFound, hasBase, hasCurrent, rowid]) => ({
      localId,
      rowid,
      serviceAssetId,
      remoteDeleted: remoteDeleted === 1,
      notFound: notFound === 1,
      hasBase: hasBase === 1,
      hasCurrent: hasCurrent === 1,
    }));
  }

  /**
   * Assets with their two copies only (no verdicts, no outliers), by local id, read in one
   * statement, with the local copy's text as stored: what a push plans a batch from. `parsed`: a
   * row's documents as parsed before from the same texts, if known (spares parsing them again).
   */
  assetDocs(
    localIds: readonly string[],
    parsed?: (row: AssetRow) => ParsedDocs | undefined,
  ): Map<string, { record: AssetRecord; currentJson: string | null }> {
    const rows = this.sql(
      'SELECT local_id, service_asset_id, partners_id, base, current, remote_deleted, not_found, in_flight, updated_at, NULL AS server_validations, NULL AS outliers FROM assets WHERE local_id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(localIds)) as AssetRow[];
    return new Map(
      rows.map((row) => [row.local_id, { record: toRecord(row, parsed?.(row)), currentJson: row.current }]),
    );
  }

  /**
   * Assets by local id, read in one statement, as `listForViews` reads them (a copy in step with the
   * service parsed once): those a push settled, for their views. `asSent`: the copy is in step and
   * `sameAsSent` names it (its settlement found it the copy sent, in substance); its document is
   * then not parsed (an empty one stands in).
   */
  recordsOf(
    localIds: readonly string[],
    sameAsSent: ReadonlySet<string> = new Set(),
  ): Array<AssetRecord & { asSent: boolean }> {
    const rows = this.sql(
      `SELECT local_id, service_asset_id, partners_id, server_validations, outliers, remote_deleted, not_found, in_flight, updated_at, current, CASE WHEN ${inStep} THEN NULL ELSE base END AS base, ${inStep} AS in_step FROM assets WHERE local_id IN (SELECT value FROM json_each(?)) ORDER BY rowid`,
    ).all(JSON.stringify(localIds)) as Array<AssetRow & { in_step: number }>;
    return rows.map((row) => {
      const asSent = row.in_step === 1 && row.current !== null && sameAsSent.has(row.local_id);
      const record = toRecord(asSent ? { ...row, current: '{}' } : row);
      return { ...record, inStep: row.in_step === 1, asSent };
    });
  }

  /**
   * Of `localIds`, those in step with the service with nothing else to show (no verdict with a
   * message, no outlier, no conflict, not missing): their service ids, read in one statement.
   */
  plainlyInStep(localIds: readonly string[]): Map<string, number> {
    if (localIds.length === 0) return new Map();
    const plain = `${inStep} AND service_asset_id IS NOT NULL AND remote_deleted = 0 AND not_found = 0 AND COALESCE(server_validations, '') = '' AND COALESCE(outliers, '[]') = '[]' AND local_id NOT IN (SELECT local_id FROM conflicts)`;
    // Asked about most of the file (a push's 20,000 settled assets): one pass over the table, kept
    // by a set here, costs a third of 20,000 lookups through the local id's index (json_each's
    // values, each a search of the index and then of the table). `MAX(rowid)` bounds the count
    // without counting.
    const bound = (this.sql('SELECT COALESCE(MAX(rowid), 0) FROM assets').pluck().get() as number) || 0;
    if (localIds.length * 4 >= bound) {
      const wanted = new Set(localIds);
      const found = new Map<string, number>();
      const rows = this.sql(`SELECT local_id, service_asset_id FROM assets WHERE ${plain}`)
        .raw()
        .all() as Array<[string, number]>;
      for (const [localId, serviceAssetId] of rows)
        if (wanted.has(localId)) found.set(localId, serviceAssetId);
      return found;
    }
    const rows = this.sql(
      `SELECT local_id, service_asset_id FROM assets WHERE local_id IN (SELECT value FROM json_each(?)) AND ${plain}`,
    )
      .raw()
      .all(JSON.stringify(localIds)) as Array<[string, number]>;
    return new Map(rows);
  }

  /**
   * A mark that moves with every write of the assets, their conflicts or the journal (their count,
   * write times, the journal's last entry), read in one statement: the sync's pending-work plan is
   * kept while it stays (electron/sync/pending-plan.ts).
   */
  changeMark(): string {
    const row = this.sql(
      'SELECT COUNT(*) AS n, COALESCE(MAX(updated_at), 0) AS latest, COALESCE(SUM(updated_at), 0) AS times, (SELECT COUNT(*) FROM conflicts) AS conflicts, (SELECT COALESCE(MAX(seq), 0) FROM journal) AS seq FROM assets',
    ).get() as { n: number; latest: number; times: number; conflicts: number; seq: number };
    return `${row.n}:${row.latest}:${row.times}:${row.conflicts}:${row.seq}`;
  }

  /** The assets the journal names after its entry `seq` (edits committed since then). */
  journalledSince(seq: number): Set<string> {
    return new Set(
      this.sql('SELECT DISTINCT local_id FROM journal WHERE seq > ?').pluck().all(seq) as string[],
    );
  }

  /** For a connection that reads the whole file in bulk (the sync's worker): more cache, a map. */
  tuneForBulk(): void {
    this.db.pragma('cache_size = -65536');
    this.db.pragma('mmap_size = 268435456');
  }

  /** The assets with an open conflict. */
  conflictedIds(): Set<string> {
    const rows = this.sql('SELECT DISTINCT local_id FROM conflicts').all() as Array<{ local_id: string }>;
    return new Set(rows.map((row) => row.local_id));
  }

  /** The name in every local copy (SQLite reads it out of the JSON), for the duplicate-name rule. */
  currentNames(): unknown[] {
    const rows = this.sql(
      "SELECT json_extract(current, '$.name') AS name FROM assets WHERE current IS NOT NULL",
    ).all() as Array<{ name: unknown }>;
    return rows.map((row) => row.name);
  }

  /** Pending creates that carry a partners_id: a pull adopts them if a lost answer had created them. */
  createsByPartner(): Map<number, string> {
    const rows = this.sql(
      'SELECT local_id, partners_id FROM assets WHERE service_asset_id IS NULL AND current IS NOT NULL AND partners_id IS NOT NULL AND remote_deleted = 0 AND local_id NOT IN (SELECT local_id FROM conflicts)',
    ).all() as Array<{ local_id: string; partners_id: number }>;
    return new Map(rows.map((row) => [row.partners_id, row.local_id]));
  }
}

/** An `assets` row as arrays come back (raw), in `assetColumns`' order. */
type RawAssetRow = [
  string,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  number,
  string | null,
  number,
];

function rowsOf(raw: readonly RawAssetRow[]): AssetRow[] {
  const rows = new Array<AssetRow>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i] as RawAssetRow;
    rows[i] = {
      local_id: r[0],
      service_asset_id: r[1],
      partners_id: r[2],
      base: r[3],
      current: r[4],
      server_validations: r[5],
      outliers: r[6],
      remote_deleted: r[7],
      not_found: r[8],
      in_flight: r[9],
      updated_at: r[10],
    };
  }
  return rows;
}
