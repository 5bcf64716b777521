import { randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openSqlite } from '../storage/sqlite';
import type { Asset, Entity, Outlier, Validations } from '../../shared/domain';
import {
  changedPaths,
  createPayload,
  mergeThreeWay,
  setPathFrom,
  setPathValue,
  updatePayload,
  type AssetDoc,
  type FieldConflict,
  type Scalar,
} from '../../shared/sync/asset-doc';
import type { ServerVerdict } from '../../shared/sync/types';
import { verdictOf } from '../../shared/sync/server-verdict';
import { migrate } from './migrations';

export type { ServerVerdict };

export interface AssetRecord {
  localId: string;
  serviceAssetId: number | null;
  partnersId: number | null;
  base: AssetDoc | null;
  current: AssetDoc | null;
  serverValidations: ServerVerdict | null;
  outliers: Outlier[];
  remoteDeleted: boolean;
  notFound: boolean;
  inFlight: string | null;
  updatedAt: number;
  /** The local copy is byte-for-byte the service's copy: nothing to diff (unset: not known). */
  inStep?: boolean;
}

export interface PendingWork {
  creates: AssetRecord[];
  updates: Array<{ record: AssetRecord; patch: AssetDoc }>;
  deletes: AssetRecord[];
  /** Held back until the user resolves them. */
  conflicted: AssetRecord[];
}

export interface Edit {
  localId: string;
  path: string;
  value: Scalar;
}

interface Row {
  local_id: string;
  service_asset_id: number | null;
  partners_id: number | null;
  base: string | null;
  current: string | null;
  server_validations: string | null;
  outliers: string | null;
  remote_deleted: number;
  not_found: number;
  in_flight: string | null;
  updated_at: number;
}

const parseDoc = (text: string | null): AssetDoc | null =>
  text === null ? null : (JSON.parse(text) as AssetDoc);

function toRecord(row: Row): AssetRecord {
  return {
    localId: row.local_id,
    serviceAssetId: row.service_asset_id,
    partnersId: row.partners_id,
    base: parseDoc(row.base),
    current: parseDoc(row.current),
    serverValidations: row.server_validations ? (JSON.parse(row.server_validations) as ServerVerdict) : null,
    outliers: row.outliers ? (JSON.parse(row.outliers) as Outlier[]) : [],
    remoteDeleted: row.remote_deleted === 1,
    notFound: row.not_found === 1,
    inFlight: row.in_flight,
    updatedAt: row.updated_at,
    inStep: row.base !== null && row.base === row.current,
  };
}

/** The service's asset reduced to the document the analyst edits (service-owned keys kept aside). */
export function docFromRemote(asset: Asset): AssetDoc {
  const { _validations: _v, _outliers: _o, created_at: _c, updated_at: _u, asset_size: _s, ...rest } = asset;
  const doc: AssetDoc = { ...rest };
  doc.annual_data = asset.annual_data.map(({ _validations: _av, ...entry }) => entry);
  doc.certifications = asset.certifications.map(({ _validations: _cv, ...entry }) => entry);
  if (asset.energy_ratings)
    doc.energy_ratings = asset.energy_ratings.map(({ _validations: _ev, ...entry }) => entry);
  return doc;
}

/** An edit the workspace cannot take (an asset that is gone or deleted): the user's to fix. */
export class WorkspaceEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceEditError';
  }
}

/** A 48-bit random id: unique enough across laptops that reconciling by partners_id is safe. */
export function newPartnersId(): number {
  return randomBytes(6).readUIntBE(0, 6) || 1;
}

/**
 * The durable local workspace of one connection and entity: a SQLite file (WAL, synchronous FULL),
 * so an edit acknowledged to the analyst survives a crash or a power cut. Each public mutation is
 * one transaction.
 */
export class WorkspaceStore {
  private readonly db: Database.Database;
  private readonly now: () => number;

  private readonly statements = new Map<string, Database.Statement>();

  private constructor(db: Database.Database, now: () => number) {
    this.db = db;
    this.now = now;
  }

  static open(file: string, opts: { now?: () => number } = {}): WorkspaceStore {
    const db = openSqlite(file);
    migrate(db);
    return new WorkspaceStore(db, opts.now ?? Date.now);
  }

  close(): void {
    this.db.close();
  }

  // --- entity and reference data (for offline pickers, dropdowns and rules)

  saveEntity(entity: Entity): void {
    this.sql(
      'INSERT INTO entity (id, json, fetched_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at',
    ).run(entity.id, JSON.stringify(entity), this.now());
  }

  entity(): Entity | undefined {
    const row = this.sql('SELECT json FROM entity LIMIT 1').get() as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as Entity) : undefined;
  }

  saveReference(key: string, value: unknown): void {
    this.sql(
      'INSERT INTO reference_data (key, json, fetched_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at',
    ).run(key, JSON.stringify(value), this.now());
  }

  reference(key: string): unknown {
    const row = this.sql('SELECT json FROM reference_data WHERE key = ?').get(key) as
      { json: string } | undefined;
    return row ? (JSON.parse(row.json) as unknown) : undefined;
  }

  getMeta(key: string): string | undefined {
    const row = this.sql('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  // --- reading

  listAssets(): AssetRecord[] {
    return (this.sql('SELECT * FROM assets ORDER BY rowid').all() as Row[]).map(toRecord);
  }

  asset(localId: string): AssetRecord | undefined {
    const row = this.sql('SELECT * FROM assets WHERE local_id = ?').get(localId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  assetByServiceId(serviceAssetId: number): AssetRecord | undefined {
    const row = this.sql('SELECT * FROM assets WHERE service_asset_id = ?').get(serviceAssetId) as
      Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  journalLength(): number {
    return (this.sql('SELECT COUNT(*) AS n FROM journal').get() as { n: number }).n;
  }

  lastJournalSeq(): number {
    return (this.sql('SELECT COALESCE(MAX(seq), 0) AS n FROM journal').get() as { n: number }).n;
  }

  conflicts(localId?: string): Array<FieldConflict & { localId: string }> {
    const rows = (
      localId === undefined
        ? this.sql('SELECT * FROM conflicts ORDER BY local_id, path').all()
        : this.sql('SELECT * FROM conflicts WHERE local_id = ? ORDER BY path').all(localId)
    ) as Array<{ local_id: string; path: string; base: string; mine: string; theirs: string }>;
    return rows.map((row) => ({
      localId: row.local_id,
      path: row.path,
      base: JSON.parse(row.base) as Scalar,
      mine: JSON.parse(row.mine) as Scalar,
      theirs: JSON.parse(row.theirs) as Scalar,
    }));
  }

  // --- the analyst's edits: each is journalled and committed before it returns

  createAsset(doc: AssetDoc): AssetRecord {
    const localId = randomUUID();
    const partnersId = typeof doc.partners_id === 'number' ? doc.partners_id : newPartnersId();
    const current = { ...doc, partners_id: partnersId };
    this.db.transaction(() => {
      this.sql(
        'INSERT INTO assets (local_id, partners_id, base, current, updated_at) VALUES (?, ?, NULL, ?, ?)',
      ).run(localId, partnersId, JSON.stringify(current), this.now());
      this.journal(localId, 'create', current);
    })();
    return this.mustGet(localId);
  }

  /** Applies many cell edits at once (a paste, a fill-down) as one transaction. */
  setValues(edits: readonly Edit[]): void {
    this.db.transaction(() => {
      for (const edit of edits) {
        const record = this.mustGet(edit.localId);
        if (!record.current)
          throw new WorkspaceEditError(`Asset ${edit.localId} is deleted; restore it before editing`);
        const next = setPathValue(record.current, edit.path, edit.value);
        this.writeCurrent(edit.localId, next);
        this.journal(edit.localId, 'set', { path: edit.path, value: edit.value });
      }
    })();
  }

  setValue(localId: string, path: string, value: Scalar): void {
    this.setValues([{ localId, path, value }]);
  }

  /** Replaces the whole local copy (entry edits, imports); the journal keeps the new document. */
  replaceDoc(localId: string, doc: AssetDoc, kind = 'replace'): void {
    this.db.transaction(() => {
      this.mustGet(localId);
      this.writeCurrent(localId, doc);
      this.journal(localId, kind, doc);
    })();
  }

  deleteAsset(localId: string): void {
    this.db.transaction(() => {
      const record = this.mustGet(localId);
      // Never sent: nothing on the service to delete, so the row simply goes.
      if (record.serviceAssetId === null && record.inFlight === null) {
        this.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      } else {
        this.writeCurrent(localId, null);
      }
      this.journal(localId, 'delete', {});
    })();
  }

  /** Drops local changes of an asset: back to what the service has. */
  revertAsset(localId: string): void {
    this.db.transaction(() => {
      const record = this.mustGet(localId);
      if (record.base === null) this.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      else this.writeCurrent(localId, record.base);
      this.sql('DELETE FROM conflicts WHERE local_id = ?').run(localId);
      this.journal(localId, 'revert', {});
    })();
  }

  resolveConflict(localId: string, path: string, choice: 'mine' | 'theirs'): void {
    this.db.transaction(() => {
      const record = this.mustGet(localId);
      if (choice === 'theirs' && record.current && record.base) {
        this.writeCurrent(localId, setPathFrom(record.current, record.base, path));
      }
      this.sql('DELETE FROM conflicts WHERE local_id = ? AND path = ?').run(localId, path);
      this.journal(localId, 'resolve', { path, choice });
    })();
  }

  /** An asset deleted on the service while edited here: keep mine (create again) or take theirs. */
  resolveRemoteDeletion(localId: string, choice: 'mine' | 'theirs'): void {
    this.db.transaction(() => {
      const record = this.mustGet(localId);
      if (!record.remoteDeleted) return;
      if (choice === 'theirs' || record.current === null) {
        this.sql('DELETE FROM assets WHERE local_id = ?').run(localId);
      } else {
        const { service_asset_id: _id, ...doc } = record.current;
        this.sql(
          'UPDATE assets SET service_asset_id = NULL, base = NULL, current = ?, remote_deleted = 0, updated_at = ? WHERE local_id = ?',
        ).run(JSON.stringify(doc), this.now(), localId);
      }
      this.journal(localId, 'resolve-deletion', { choice });
    })();
  }

  // --- what the sync sends

  pending(): PendingWork {
    const work: PendingWork = { creates: [], updates: [], deletes: [], conflicted: [] };
    const conflicted = new Set(
      (this.sql('SELECT DISTINCT local_id FROM conflicts').all() as Array<{ local_id: string }>).map(
        (r) => r.local_id,
      ),
    );
    for (const row of this.sql('SELECT * FROM assets ORDER BY rowid').iterate() as IterableIterator<Row>) {
      // Most rows are in step with the service: same text, nothing to parse or compare.
      if (row.base !== null && row.base === row.current && row.remote_deleted === 0) continue;
      const record = toRecord(row);
      if (record.remoteDeleted || conflicted.has(record.localId)) {
        if (record.remoteDeleted || changedPaths(record.base, record.current).length > 0)
          work.conflicted.push(record);
        continue;
      }
      if (record.serviceAssetId === null) {
        if (record.current) work.creates.push(record);
        continue;
      }
      if (record.current === null) {
        work.deletes.push(record);
        continue;
      }
      if (record.base && !record.notFound) {
        const patch = updatePayload(record.serviceAssetId, record.base, record.current);
        if (patch) work.updates.push({ record, patch });
      }
    }
    return work;
  }

  createPayloadOf(record: AssetRecord): AssetDoc {
    if (!record.current) throw new Error(`Asset ${record.localId} has no local copy`);
    return createPayload(record.current);
  }

  // --- the outbox: which assets rode in a batch whose outcome is not applied yet

  beginBatch(batchId: string, localIds: readonly string[]): void {
    this.db.transaction(() => {
      this.sql("INSERT INTO outbox (batch_id, created_at, state, local_ids) VALUES (?, ?, 'sending', ?)").run(
        batchId,
        this.now(),
        JSON.stringify(localIds),
      );
      const mark = this.sql('UPDATE assets SET in_flight = ?, sent = NULL WHERE local_id = ?');
      for (const localId of localIds) mark.run(batchId, localId);
    })();
  }

  markBatchAmbiguous(batchId: string): void {
    this.sql("UPDATE outbox SET state = 'ambiguous' WHERE batch_id = ?").run(batchId);
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

  /** Applies a whole batch answer in one transaction, then forgets the batch. */
  settleBatch(batchId: string, apply: (tx: BatchSettlement) => void): void {
    this.db.transaction(() => {
      apply(new BatchSettlement(this));
      this.sql('UPDATE assets SET in_flight = NULL, sent = NULL WHERE in_flight = ?').run(batchId);
      this.sql('DELETE FROM outbox WHERE batch_id = ?').run(batchId);
    })();
  }

  /** Forgets a batch the service refused whole (nothing applied). */
  abandonBatch(batchId: string): void {
    this.settleBatch(batchId, () => undefined);
  }

  // --- pulls

  /**
   * Brings one remote asset in: a new asset is added; a known one is merged three ways, with
   * conflicts kept for the user. Returns what happened, for the pull's summary.
   */
  applyRemote(asset: Asset): 'added' | 'updated' | 'unchanged' | 'conflict' {
    const id = asset.service_asset_id;
    if (id === null) return 'unchanged';
    const theirs = docFromRemote(asset);
    const known = this.sql('SELECT local_id FROM assets WHERE service_asset_id = ?').get(id) as
      { local_id: string } | undefined;
    const existing = known ? this.mustGet(known.local_id) : undefined;
    if (!existing) {
      const json = JSON.stringify(theirs);
      this.sql(
        'INSERT INTO assets (local_id, service_asset_id, partners_id, base, current, outliers, server_validations, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        randomUUID(),
        id,
        typeof asset.partners_id === 'number' ? asset.partners_id : null,
        json,
        json,
        JSON.stringify(asset._outliers),
        verdictJson(asset),
        this.now(),
      );
      return 'added';
    }
    return this.mergeInto(existing, theirs, asset);
  }

  /**
   * Takes the service's answer for an asset it created or updated from what we sent: the answer
   * becomes the base, and edits the analyst made while the batch was in flight stay pending.
   */
  acknowledge(localId: string, asset: Asset): void {
    const row = this.sql('SELECT current, sent FROM assets WHERE local_id = ?').get(localId) as
      { current: string | null; sent: string | null } | undefined;
    if (!row) throw new WorkspaceEditError(`No asset ${localId} in the workspace`);
    const theirs = docFromRemote(asset);
    const theirsJson = JSON.stringify(theirs);
    let currentJson: string | null;
    if (row.current === null) currentJson = null;
    else if (row.sent === null || row.current === row.sent) {
      // Nothing was edited while the batch was out (no copy was kept): the service's copy is the
      // new local copy.
      currentJson = theirsJson;
    } else {
      const sent = parseDoc(row.sent) ?? theirs;
      currentJson = JSON.stringify(mergeThreeWay(sent, parseDoc(row.current) ?? {}, theirs).merged);
    }
    this.sql(
      'UPDATE assets SET service_asset_id = ?, base = ?, current = ?, outliers = ?, server_validations = ?, not_found = 0, updated_at = ? WHERE local_id = ?',
    ).run(
      asset.service_asset_id,
      theirsJson,
      currentJson,
      JSON.stringify(asset._outliers),
      verdictJson(asset),
      this.now(),
      localId,
    );
  }

  /** Local assets with a service id that the last full pull did not see: deleted on the service. */
  markMissingRemote(seen: ReadonlySet<number>): { removed: number; conflicts: number } {
    let removed = 0;
    let conflicts = 0;
    this.db.transaction(() => {
      for (const record of this.listAssets()) {
        if (record.serviceAssetId === null || seen.has(record.serviceAssetId) || record.inFlight) continue;
        const edited = record.current === null || changedPaths(record.base, record.current).length > 0;
        if (record.current !== null && edited) {
          this.sql('UPDATE assets SET remote_deleted = 1 WHERE local_id = ?').run(record.localId);
          conflicts++;
        } else {
          this.sql('DELETE FROM assets WHERE local_id = ?').run(record.localId);
          removed++;
        }
      }
    })();
    return { removed, conflicts };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // --- internals shared with BatchSettlement

  /** @internal */
  mergeInto(existing: AssetRecord, theirs: AssetDoc, asset: Asset): 'updated' | 'unchanged' | 'conflict' {
    const base = existing.base ?? theirs;
    const changedRemotely = changedPaths(base, theirs).length > 0;
    let current = existing.current;
    let result: 'updated' | 'unchanged' | 'conflict' = changedRemotely ? 'updated' : 'unchanged';
    if (current !== null && changedRemotely) {
      const { merged, conflicts } = mergeThreeWay(base, current, theirs);
      current = merged;
      const insert = this.sql(
        'INSERT INTO conflicts (local_id, path, base, mine, theirs) VALUES (?, ?, ?, ?, ?) ON CONFLICT(local_id, path) DO UPDATE SET base = excluded.base, mine = excluded.mine, theirs = excluded.theirs',
      );
      for (const conflict of conflicts) {
        insert.run(
          existing.localId,
          conflict.path,
          JSON.stringify(conflict.base),
          JSON.stringify(conflict.mine),
          JSON.stringify(conflict.theirs),
        );
      }
      if (conflicts.length > 0) result = 'conflict';
    }
    this.sql(
      'UPDATE assets SET base = ?, current = ?, outliers = ?, server_validations = COALESCE(?, server_validations), remote_deleted = 0, not_found = 0, updated_at = ? WHERE local_id = ?',
    ).run(
      JSON.stringify(theirs),
      current === null ? null : JSON.stringify(current),
      JSON.stringify(asset._outliers),
      verdictJson(asset),
      this.now(),
      existing.localId,
    );
    return result;
  }

  /** @internal */
  run(sql: string, ...params: unknown[]): void {
    this.sql(sql).run(...params);
  }

  /** @internal */
  mustGet(localId: string): AssetRecord {
    const record = this.asset(localId);
    if (!record) throw new WorkspaceEditError(`No asset ${localId} in the workspace`);
    return record;
  }

  /** Prepared once per text: preparing costs more than running for these one-row statements. */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * The first edit of an asset whose batch is out keeps the copy that was sent (copy on write), so
   * the answer can be merged under the edits; SET expressions read the row as it was.
   */
  private writeCurrent(localId: string, doc: AssetDoc | null): void {
    this.sql(
      `UPDATE assets SET sent = CASE WHEN in_flight IS NOT NULL AND sent IS NULL THEN current ELSE sent END,
       current = ?, updated_at = ? WHERE local_id = ?`,
    ).run(doc === null ? null : JSON.stringify(doc), this.now(), localId);
  }

  private journal(localId: string, kind: string, payload: unknown): void {
    this.sql('INSERT INTO journal (at, local_id, kind, payload) VALUES (?, ?, ?, ?)').run(
      this.now(),
      localId,
      kind,
      JSON.stringify(payload),
    );
  }
}

/** What a pulled or acknowledged asset says of itself, stored as the service's verdict. */
function verdictJson(asset: {
  _validations?: Validations;
  annual_data?: unknown;
  certifications?: unknown;
}): string | null {
  return asset._validations ? JSON.stringify(verdictOf(asset)) : null;
}

/** The operations a batch answer may apply, inside the settlement's transaction. */
export class BatchSettlement {
  constructor(private readonly store: WorkspaceStore) {}

  /** `created`, `always_created`, `updated`, `always_updated`: the service now holds this. */
  acknowledged(localId: string, asset: Asset): void {
    this.store.acknowledge(localId, asset);
  }

  deleted(localId: string): void {
    this.store.run('DELETE FROM assets WHERE local_id = ?', localId);
  }

  invalid(localId: string, verdict: ServerVerdict): void {
    this.store.run(
      'UPDATE assets SET server_validations = ? WHERE local_id = ?',
      JSON.stringify(verdict),
      localId,
    );
  }

  notFound(localId: string): void {
    this.store.run('UPDATE assets SET not_found = 1 WHERE local_id = ?', localId);
  }
}
