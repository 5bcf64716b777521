import type { Db } from './db';
import type { Asset, Outlier, Validations } from '../../shared/domain';

/** What is persisted per asset besides id, entity and timestamps: the asset's own fields. */
export type AssetDoc = Omit<
  Asset,
  'service_asset_id' | 'created_at' | 'updated_at' | '_outliers' | '_validations'
>;

/** Validations as stored at write time, indexed like the doc's arrays. */
export interface StoredValidations {
  asset: Validations;
  annualData: Validations[];
  certifications: Validations[];
  energyRatings: Validations[];
}

export interface StoredAsset {
  id: number;
  entityId: number;
  doc: AssetDoc;
  outliers: Outlier[];
  validations: StoredValidations;
  createdAt: string;
  updatedAt: string;
}

interface AssetRow {
  id: number;
  entity_id: number;
  doc: string;
  outliers: string;
  validations: string;
  created_at: string;
  updated_at: string;
}

const emptyValidations = (): StoredValidations => ({
  asset: { errors: {} },
  annualData: [],
  certifications: [],
  energyRatings: [],
});

const isClean = (v: Validations): boolean => {
  for (const _ in v.errors) return false;
  if (v.warnings) for (const _ in v.warnings) return false;
  return true;
};

/**
 * Most stored assets are clean; '{}' stands for "clean at every level" (readers fall back to
 * `{ errors: {} }` per missing index), which keeps a 5,000-asset batch from writing 35,000
 * empty objects.
 */
function serializeValidations(v: StoredValidations): string {
  const clean =
    isClean(v.asset) &&
    v.annualData.every(isClean) &&
    v.certifications.every(isClean) &&
    v.energyRatings.every(isClean);
  return clean ? '{}' : JSON.stringify(v);
}

function fromRow(row: AssetRow): StoredAsset {
  const v = JSON.parse(row.validations) as Partial<StoredValidations>;
  return {
    id: row.id,
    entityId: row.entity_id,
    doc: JSON.parse(row.doc) as AssetDoc,
    outliers: JSON.parse(row.outliers) as Outlier[],
    validations: { ...emptyValidations(), ...v },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * One row per asset with the asset's fields as JSON: a listing page is one indexed range read and
 * a batch is one prepared insert per asset, which is what keeps 5,000 creates well under the goal.
 * `name` and `partners_id` are duplicated into columns for the lookups that need them.
 */
export function createAssetsRepo(db: Db) {
  const st = {
    get: db.prepare('SELECT * FROM assets WHERE id = ? AND entity_id = ?'),
    page: db.prepare('SELECT * FROM assets WHERE entity_id = ? ORDER BY id LIMIT ? OFFSET ?'),
    all: db.prepare('SELECT * FROM assets WHERE entity_id = ? ORDER BY id'),
    count: db.prepare('SELECT COUNT(*) AS n FROM assets WHERE entity_id = ?'),
    names: db.prepare('SELECT id, name FROM assets WHERE entity_id = ? AND name IS NOT NULL ORDER BY id'),
    insert:
      db.prepare(`INSERT INTO assets (entity_id, name, partners_id, doc, outliers, validations, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    update:
      db.prepare(`UPDATE assets SET name = ?, partners_id = ?, doc = ?, outliers = ?, validations = ?, updated_at = ?
      WHERE id = ? AND entity_id = ?`),
    delete: db.prepare('DELETE FROM assets WHERE id = ? AND entity_id = ?'),
    nextSeq: db.prepare('UPDATE sequences SET value = value + 1 WHERE name = ? RETURNING value'),
  };

  const partnersIdColumn = (doc: AssetDoc): number | null =>
    typeof doc.partners_id === 'number' && Number.isInteger(doc.partners_id) ? doc.partners_id : null;

  return {
    /** Only finds the asset inside `entityId`'s pool: another entity's id reads as not found. */
    get(entityId: number, id: number): StoredAsset | undefined {
      const row = st.get.get(id, entityId) as AssetRow | undefined;
      return row ? fromRow(row) : undefined;
    },
    page(entityId: number, limit: number, offset: number): StoredAsset[] {
      return (st.page.all(entityId, limit, offset) as AssetRow[]).map(fromRow);
    },
    all(entityId: number): StoredAsset[] {
      return (st.all.all(entityId) as AssetRow[]).map(fromRow);
    },
    count(entityId: number): number {
      return (st.count.get(entityId) as { n: number }).n;
    },
    /** Trimmed name to asset id (the first holder), for the one-name-per-entity rule. */
    namesIndex(entityId: number): Map<string, number> {
      const rows = st.names.all(entityId) as { id: number; name: string }[];
      const out = new Map<string, number>();
      for (const r of rows) if (!out.has(r.name.trim())) out.set(r.name.trim(), r.id);
      return out;
    },
    insert(
      entityId: number,
      doc: AssetDoc,
      outliers: Outlier[],
      validations: StoredValidations,
      at: string,
    ): number {
      const r = st.insert.run(
        entityId,
        doc.name,
        partnersIdColumn(doc),
        JSON.stringify(doc),
        JSON.stringify(outliers),
        serializeValidations(validations),
        at,
        at,
      );
      return Number(r.lastInsertRowid);
    },
    update(
      entityId: number,
      id: number,
      doc: AssetDoc,
      outliers: Outlier[],
      validations: StoredValidations,
      at: string,
    ): boolean {
      const r = st.update.run(
        doc.name,
        partnersIdColumn(doc),
        JSON.stringify(doc),
        JSON.stringify(outliers),
        serializeValidations(validations),
        at,
        id,
        entityId,
      );
      return r.changes > 0;
    },
    delete(entityId: number, id: number): boolean {
      return st.delete.run(id, entityId).changes > 0;
    },
    /** Ids for certification and energy-rating records, unique across the sandbox like the service's. */
    nextId(sequence: 'certification' | 'energy_rating'): number {
      return (st.nextSeq.get(sequence) as { value: number }).value;
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  };
}

export type AssetsRepo = ReturnType<typeof createAssetsRepo>;
