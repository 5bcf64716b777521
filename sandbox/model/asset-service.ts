import {
  areaUnitFromName,
  computeOutliers,
  defaultCertificationSchemes,
  defaultEnergyRatingSchemes,
  defaultPropertyTypeCodes,
  hasErrors,
  mergeAssetPatch,
  validateAsset,
} from '../../shared/domain';
import type { AreaUnit, AssetInput, AssetValidationResult, ValidationContext } from '../../shared/domain';
import type { SandboxStore, StoredAsset } from '../store';
import { dropDestroyed, normalizeKeys, storedToAsset, toDoc, unknownNestedIds } from './asset-model';

export interface Checked {
  /** The asset as validated: the create body, or the PATCH merged into the stored asset. */
  merged: AssetInput;
  result: AssetValidationResult;
  valid: boolean;
}

const nameKey = (name: unknown): string | undefined =>
  typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;

/**
 * Validation, persistence and outliers for one entity's pool during one request. Holding the
 * pool's names in memory makes the one-name-per-entity rule O(1) per asset in a 5,000-asset batch
 * and lets assets created earlier in the same batch count.
 */
export function openEntitySession(
  store: SandboxStore,
  entityId: number,
  opts: { now: () => number; assessmentYear: number },
) {
  const entity = store.admin.getEntity(entityId);
  const areaUnit: AreaUnit = areaUnitFromName(entity?.reporting_preferences.area_units_name);
  const names = store.assets.namesIndex(entityId);
  // The asset being updated may keep its own name; read by isNameTaken through the closure.
  let selfId: number | null = null;
  const isNameTaken = (name: string): boolean => {
    const owner = names.get(name.trim());
    return owner !== undefined && owner !== selfId;
  };
  // One context object per mode: the domain compiles (and caches) lookups per context object.
  const base = {
    assessmentYear: opts.assessmentYear,
    areaUnit,
    certifications: defaultCertificationSchemes,
    energyRatings: defaultEnergyRatingSchemes,
    propertyTypes: defaultPropertyTypeCodes,
    isNameTaken,
  };
  const createCtx: ValidationContext = { ...base, mode: 'create' };
  const updateCtx: ValidationContext = { ...base, mode: 'update' };
  const iso = (): string => new Date(opts.now()).toISOString();
  const allocate = (seq: 'certification' | 'energy_rating'): number => store.assets.nextId(seq);

  const outliersFor = (doc: object, previous: StoredAsset | undefined) =>
    computeOutliers({ ...(doc as AssetInput), _outliers: previous?.outliers ?? [] }, { areaUnit });

  return {
    entityId,
    checkCreate(input: AssetInput): Checked {
      // Ids are generated on create; a body's service_asset_id names nothing here.
      const { service_asset_id: _ignored, ...rest } = input;
      const merged = dropDestroyed(normalizeKeys(rest));
      selfId = null;
      const result = validateAsset(merged, createCtx);
      unknownNestedIds(merged, { certifications: [], energyRatings: [] }, result);
      return { merged, result, valid: !hasErrors(result) };
    },

    checkUpdate(existing: StoredAsset, patch: AssetInput): Checked {
      const merged = mergeAssetPatch(storedToAsset(existing), normalizeKeys(patch));
      selfId = existing.id;
      const result = validateAsset(merged, updateCtx);
      selfId = null;
      unknownNestedIds(
        merged,
        {
          certifications: existing.doc.certifications
            .map((c) => c.id)
            .filter((id): id is number => id !== null),
          energyRatings: (existing.doc.energy_ratings ?? [])
            .map((c) => c.id)
            .filter((id): id is number => id !== null),
        },
        result,
      );
      return { merged, result, valid: !hasErrors(result) };
    },

    /** Saves a checked create (valid, or forced by always_create). Call inside a transaction. */
    insert(checked: Checked): StoredAsset {
      const { doc, validations } = toDoc(checked.merged, checked.result, allocate);
      const outliers = outliersFor(doc, undefined);
      const at = iso();
      const id = store.assets.insert(entityId, doc, outliers, validations, at);
      const key = nameKey(doc.name);
      if (key !== undefined && !names.has(key)) names.set(key, id);
      return { id, entityId, doc, outliers, validations, createdAt: at, updatedAt: at };
    },

    /** Saves a checked update over `existing`. Call inside a transaction. */
    update(existing: StoredAsset, checked: Checked): StoredAsset {
      const { doc, validations } = toDoc(checked.merged, checked.result, allocate);
      const outliers = outliersFor(doc, existing);
      const at = iso();
      store.assets.update(entityId, existing.id, doc, outliers, validations, at);
      const oldKey = nameKey(existing.doc.name);
      if (oldKey !== undefined && names.get(oldKey) === existing.id) names.delete(oldKey);
      const key = nameKey(doc.name);
      if (key !== undefined && !names.has(key)) names.set(key, existing.id);
      return { ...existing, doc, outliers, validations, updatedAt: at };
    },

    remove(existing: StoredAsset): void {
      store.assets.delete(entityId, existing.id);
      const key = nameKey(existing.doc.name);
      if (key !== undefined && names.get(key) === existing.id) names.delete(key);
    },

    /** Outliers the service would compute for a checked input, without saving it. */
    previewOutliers(checked: Checked, existing?: StoredAsset) {
      return outliersFor(checked.merged, existing);
    },
  };
}

export type EntitySession = ReturnType<typeof openEntitySession>;
