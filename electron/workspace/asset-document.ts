import { randomInt } from 'node:crypto';
import { entryKey, setPathFrom, type AssetDoc } from '../../shared/sync/asset-doc';
import type { DocumentKind } from './document-kind';
import type { SqlAccess } from './store-access';

/**
 * A listed asset made ready to write: its row's texts, the parsed answer let go. A pull prepares
 * each page as it arrives, so what is left once the last page is in is the writing alone, and the
 * pages' object trees do not outlive their page.
 */
export interface RemoteCopy {
  id: number;
  /** Our creates carry integer partners ids; a string one (older answers) is someone else's. */
  partnersId: number | null;
  theirsJson: string;
  outliers: string;
  verdict: string | null;
  /** The service's `updated_at` for the asset: the source its pulled values are recorded with. */
  updatedAt?: string | null;
}

/**
 * The asset as a document of the write path: its analyst's copy (the `assets` row's `local` and
 * `deleted`, and the row itself: created, gone). Every statement that writes those is here; the
 * service's columns beside them (`outliers`, verdicts, `in_flight`, `sent`, `remote_deleted`,
 * `not_found`) are the sync ledger's, written with `base` when the service's copy changes.
 */

/** An asset row as an action found or left it; null: there was no row. */
export type RowImage = {
  current: AssetDoc | null;
  serviceAssetId: number | null;
  partnersId: number | null;
} | null;

/**
 * A random 9-digit id (100000000–999999999): short enough for an analyst to read and type, and in
 * a space of 900 million, so two laptops rarely give the same one; a reconcile adopts an asset by
 * it only among the entity's assets the workspace does not know yet.
 */
export function newPartnersId(): number {
  return 100_000_000 + randomInt(900_000_000);
}

/** The service's copy of an asset as its row stores it, beside the analyst's (see `localColumns`). */
export interface ServiceColumns {
  base: string;
  local: string | null;
  deleted: 0 | 1;
  outliers: string;
  verdict: string | null;
}

export type AssetWriter = ReturnType<typeof assetWriter>;

function assetWriter(access: SqlAccess) {
  const { sql, now } = access;
  return {
    /** A new asset of the analyst's (never sent). */
    insertLocal(localId: string, partnersId: number, doc: AssetDoc): void {
      sql(
        'INSERT INTO assets (local_id, partners_id, base, local, updated_at) VALUES (?, ?, NULL, ?, ?)',
      ).run(localId, partnersId, JSON.stringify(doc), now());
    },

    /**
     * Writes the analyst's copy (null: deleted here). The first write to an asset whose batch is out
     * keeps the copy that was sent (copy on write), so the answer can be merged under the edits; SET
     * expressions read the row as it was. A copy that is the base again is stored as no copy.
     */
    setCurrent(localId: string, doc: AssetDoc | null): void {
      sql(
        `UPDATE assets SET sent = CASE WHEN in_flight IS NOT NULL AND sent IS NULL THEN current ELSE sent END,
         local = NULLIF(?, base), deleted = ?, updated_at = ? WHERE local_id = ?`,
      ).run(doc === null ? null : JSON.stringify(doc), doc === null ? 1 : 0, now(), localId);
    },

    /** The row goes (never sent, or gone from the service). */
    remove(localId: string): void {
      sql('DELETE FROM assets WHERE local_id = ?').run(localId);
    },

    /** Deleted on the service, kept here: a new asset again (its copy `doc`, created by the next push). */
    detachFromService(localId: string, doc: AssetDoc): void {
      sql(
        'UPDATE assets SET service_asset_id = NULL, base = NULL, local = ?, deleted = 0, remote_deleted = 0, updated_at = ? WHERE local_id = ?',
      ).run(JSON.stringify(doc), now(), localId);
    },

    /** An asset the service lists and the workspace did not know: its copy is the base, stored once. */
    insertFromService(localId: string, row: RemoteCopy): void {
      sql(
        'INSERT INTO assets (local_id, service_asset_id, partners_id, base, outliers, server_validations, updated_at, arrived_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        localId,
        row.id,
        row.partnersId,
        row.theirsJson,
        row.outliers,
        row.verdict,
        now(),
        // The service's date its cells' history shows (history-schema.ts), in the same row write.
        row.updatedAt?.slice(0, 64) ?? null,
      );
    },

    /** A pull's newer copy merged three ways: the base, the analyst's copy on it, and the service's word. */
    mergeFromService(localId: string, columns: ServiceColumns): void {
      sql(
        'UPDATE assets SET base = ?, local = ?, deleted = ?, outliers = ?, server_validations = COALESCE(?, server_validations), remote_deleted = 0, not_found = 0, updated_at = ? WHERE local_id = ?',
      ).run(columns.base, columns.local, columns.deleted, columns.outliers, columns.verdict, now(), localId);
    },

    /**
     * A batch answer taken: the service's copy is the base and the asset leaves its batch.
     * `keepOutliers`: the answer said nothing of them. `where`: a further condition (with its
     * parameters); returns whether the row was written.
     */
    acknowledge(
      localId: string,
      serviceAssetId: number | null | undefined,
      columns: ServiceColumns,
      keepOutliers: boolean,
      where = '',
      ...params: unknown[]
    ): boolean {
      return (
        sql(acknowledgeText(keepOutliers, where)).run(
          serviceAssetId,
          columns.base,
          columns.local,
          columns.deleted,
          columns.outliers,
          columns.verdict,
          now(),
          localId,
          ...params,
        ).changes > 0
      );
    },
  };
}

/** The asset kind over a connection. */
export function assetDocuments(access: SqlAccess): DocumentKind<NonNullable<RowImage>, AssetWriter> {
  const writer = assetWriter(access);
  const read = (localId: string): NonNullable<RowImage> | null => {
    const row = access
      .sql('SELECT current, service_asset_id, partners_id FROM assets WHERE local_id = ?')
      .get(localId) as
      { current: string | null; service_asset_id: number | null; partners_id: number | null } | undefined;
    if (!row) return null;
    return {
      current: row.current === null ? null : (JSON.parse(row.current) as AssetDoc),
      serviceAssetId: row.service_asset_id,
      partnersId: row.partners_id,
    };
  };
  return {
    kind: 'asset',
    journalKey: (id) => id,
    // Assets' rows are keyed by the bare local id (older files too): any key no other kind claims.
    idOfJournalKey: (key) => key,
    read,
    document: (image) => image?.current ?? null,
    writer,
    restore(localId, target, journal) {
      const existing = access
        .sql('SELECT current, service_asset_id, in_flight FROM assets WHERE local_id = ?')
        .get(localId) as
        { current: string | null; service_asset_id: number | null; in_flight: string | null } | undefined;
      const wanted = target?.current ?? null;
      if (!existing) {
        if (wanted === null || target === null) return;
        // Gone meanwhile (never sent and deleted, or deleted on the service): back under the same
        // local id as a new asset; one the service had gets a fresh partners id, so it is not
        // mistaken for the old one when its answer is reconciled.
        const partnersId =
          target.serviceAssetId !== null ? newPartnersId() : (target.partnersId ?? newPartnersId());
        writer.insertLocal(localId, partnersId, { ...wanted, partners_id: partnersId });
        return;
      }
      if (wanted === null) {
        if (existing.service_asset_id === null && existing.in_flight === null) writer.remove(localId);
        else writer.setCurrent(localId, null);
        return;
      }
      let next: AssetDoc = wanted;
      const paths = cellPaths(journal);
      if (paths && existing.current !== null) {
        next = JSON.parse(existing.current) as AssetDoc;
        for (const path of paths) next = setPathFrom(next, wanted, entryLevel(wanted, path));
      }
      writer.setCurrent(localId, next);
    },
  };
}

/** The paths a cell edit touched; undefined for whole-document changes. */
function cellPaths(row: { kind: string; payload: string }): string[] | undefined {
  if (row.kind !== 'set') return undefined;
  const payload = JSON.parse(row.payload) as { edits?: Array<{ path?: unknown }> };
  if (!Array.isArray(payload.edits)) return undefined;
  return [
    ...new Set(payload.edits.map((edit) => edit.path).filter((p): p is string => typeof p === 'string')),
  ];
}

/**
 * A cell of an annual row (or entry) the wanted copy does not have at all: the whole row goes, so
 * undoing a paste that added a year leaves no empty record behind.
 */
function entryLevel(wanted: AssetDoc, path: string): string {
  const [head, key, field] = path.split('/');
  if (head === undefined || key === undefined || field === undefined) return path;
  const list = wanted[head];
  const has =
    Array.isArray(list) &&
    list.some(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        entryKey(head as Parameters<typeof entryKey>[0], entry as Record<string, unknown>) === key,
    );
  return has ? path : `${head}/${key}`;
}

/**
 * The statement text of `acknowledge`, made once per form: built per call (5,000 times a batch), the
 * text was a new string each time, flattened and hashed again to find its prepared statement.
 */
const acknowledgeTexts = { keep: new Map<string, string>(), replace: new Map<string, string>() };
function acknowledgeText(keepOutliers: boolean, where: string): string {
  const texts = keepOutliers ? acknowledgeTexts.keep : acknowledgeTexts.replace;
  let text = texts.get(where);
  if (text === undefined) {
    text = `UPDATE assets SET service_asset_id = ?, base = ?, local = ?, deleted = ?, outliers = ${keepOutliers ? 'COALESCE(outliers, ?)' : '?'}, server_validations = ?, not_found = 0, in_flight = NULL, sent = NULL, updated_at = ? WHERE local_id = ?${where}`;
    texts.set(where, text);
  }
  return text;
}
