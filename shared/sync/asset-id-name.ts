/**
 * The one place that decides the asset id's name on the wire. Our spec writes it
 * `service_asset_id`, a stand-in; the real service (GRESB/api-docs) calls it `gresb_asset_id`.
 * Inside the app (workspace, rules, grid, sandbox store) the id is always `service_asset_id`; only
 * what crosses to a service is named the way that service speaks:
 *
 * - reading: an answer's asset carries its id under either name (`readAssetId`, `withLocalIdName`);
 * - writing: a request names it as the connection's service does (`toWireRequest`), and to a
 *   service that speaks the real names, the fields the real service removed are never sent
 *   (`lat`/`lng` since 2.07, annual `owned_entire_period` since 2.08): they stay in the workspace;
 * - learning: which name a service speaks is read from its answers (`idNameIn`) and kept per
 *   connection (`AssetIdNaming`).
 */

/** Our spec's stand-in name (the sandbox's default, our contract). */
export const specIdName = 'service_asset_id';
/** The real service's name, in every example of its docs. */
export const serviceIdName = 'gresb_asset_id';
export type AssetIdName = typeof specIdName | typeof serviceIdName;
export const assetIdNames: readonly AssetIdName[] = [specIdName, serviceIdName];

/** Asset fields the real service removed (`lat`, `lng`: v2.07). Kept locally; never sent to it. */
export const removedAssetFields: readonly string[] = ['lat', 'lng'];
/** Annual fields the real service removed (`owned_entire_period`: v2.08, now asset-level dates). */
export const removedAnnualFields: readonly string[] = ['owned_entire_period'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The name an asset object carries its id under, or undefined when it carries neither. */
export function idNameOf(asset: unknown): AssetIdName | undefined {
  if (!isObject(asset)) return undefined;
  if (serviceIdName in asset) return serviceIdName;
  if (specIdName in asset) return specIdName;
  return undefined;
}

/**
 * The name the first asset of an answer carries its id under: a listing (an array), one asset, or a
 * batch or validation answer (its lists of assets). Undefined when no asset in it names its id.
 */
export function idNameIn(answer: unknown): AssetIdName | undefined {
  if (Array.isArray(answer)) return firstName(answer);
  if (!isObject(answer)) return undefined;
  const own = idNameOf(answer);
  if (own) return own;
  for (const key of answerLists) {
    const name = firstName(answer[key]);
    if (name) return name;
  }
  return undefined;
}

const answerLists = [
  'created',
  'always_created',
  'updated',
  'always_updated',
  'deleted',
  'valid',
  'invalid',
  'not_found',
];

function firstName(list: unknown): AssetIdName | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list) {
    const name = idNameOf(item);
    if (name) return name;
  }
  return undefined;
}

/** The id an asset object carries under either name (ours first); undefined when it has none. */
export function readAssetId(asset: Json): unknown {
  return asset[specIdName] ?? asset[serviceIdName];
}

/**
 * The asset object with its id under our name, first (as our schemas list it); the real name is
 * not kept beside it (it would be a field of its own, sent back). Anything else is returned as is.
 */
export function withLocalIdName(raw: unknown): unknown {
  if (!isObject(raw) || !(serviceIdName in raw)) return raw;
  const { [serviceIdName]: real, [specIdName]: ours, ...rest } = raw;
  return { [specIdName]: ours ?? real, ...rest };
}

/**
 * One asset of a request, as a service that speaks `name` reads it. For the real names: the id
 * under `gresb_asset_id` and the removed fields left out (of the asset and of each annual record);
 * records without them are not copied.
 */
export function toWireAsset<T extends Json>(asset: T, name: AssetIdName): Json {
  if (name === specIdName) return asset;
  const out: Json = {};
  if (specIdName in asset) out[serviceIdName] = asset[specIdName];
  for (const key of Object.keys(asset)) {
    if (key === specIdName || key === serviceIdName || removedAssetFields.includes(key)) continue;
    out[key] = asset[key];
  }
  const annual = out['annual_data'];
  if (Array.isArray(annual)) {
    out['annual_data'] = annual.map((record: unknown) => {
      if (!isObject(record) || !removedAnnualFields.some((field) => field in record)) return record;
      const kept: Json = {};
      for (const key of Object.keys(record)) if (!removedAnnualFields.includes(key)) kept[key] = record[key];
      return kept;
    });
  }
  return out;
}

/**
 * Whether an update still changes anything once written for a service that speaks `name`: an edit
 * of a field the real service removed stays in the workspace and is not sent as an empty update.
 */
export function changesAnything(update: Json, name: AssetIdName): boolean {
  const wire = toWireAsset(update, name);
  return Object.entries(wire).some(([key, value]) => {
    if (key === specIdName || key === serviceIdName) return false;
    if (key !== 'annual_data' || !Array.isArray(value)) return true;
    return value.some(
      (record: unknown) => !isObject(record) || Object.keys(record).some((k) => k !== 'year'),
    );
  });
}

/**
 * The service's copy of an asset, from a service that speaks the real names, with the fields it
 * removed taken from ours (`base`): it never sends them, so their absence says nothing, and what
 * the workspace holds of them is kept rather than merged away. Undefined when there is nothing to
 * take (the usual case: the copy is used as it came).
 */
export function withRemovedFieldsKept(theirs: Json, base: Json): Json | undefined {
  let out: Json | undefined;
  for (const field of removedAssetFields) {
    if (base[field] === undefined || base[field] === null || field in theirs) continue;
    out ??= { ...theirs };
    out[field] = base[field];
  }
  const ours = base['annual_data'];
  const records = theirs['annual_data'];
  if (Array.isArray(ours) && Array.isArray(records)) {
    const byYear = new Map<unknown, Json>();
    for (const record of ours) if (isObject(record)) byYear.set(record['year'], record);
    let changed = false;
    const kept = records.map((record: unknown) => {
      const mine = isObject(record) ? byYear.get(record['year']) : undefined;
      if (!isObject(record) || !mine) return record;
      let copy: Json | undefined;
      for (const field of removedAnnualFields) {
        if (mine[field] === undefined || mine[field] === null || field in record) continue;
        copy ??= { ...record };
        copy[field] = mine[field];
      }
      if (copy) changed = true;
      return copy ?? record;
    });
    if (changed) {
      out ??= { ...theirs };
      out['annual_data'] = kept;
    }
  }
  return out;
}

/**
 * Whether a document path (`lat`, `annual_data/2024/owned_entire_period`, as the grid and review
 * name them) is a field the real service removed.
 */
export function isRemovedFieldPath(path: string): boolean {
  if (removedAssetFields.includes(path)) return true;
  const parts = path.split('/');
  return parts.length === 3 && parts[0] === 'annual_data' && removedAnnualFields.includes(parts[2] ?? '');
}

/** Whether an asset's stored text may hold a field the real service removed (a cheap first look). */
export function mayHoldRemovedFields(json: string): boolean {
  return [...removedAssetFields, ...removedAnnualFields].some((field) => json.includes(`"${field}"`));
}

/** A batch or validation request as a service that speaks `name` reads it (each list's assets). */
export function toWireRequest<T extends object>(body: T, name: AssetIdName): T {
  if (name === specIdName) return body;
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    out[key] = Array.isArray(value)
      ? value.map((item: unknown) => (isObject(item) ? toWireAsset(item, name) : item))
      : value;
  }
  return out as T;
}

/**
 * An answer (one asset, a listing, a batch or validation answer, an error) as a service that
 * speaks `name` gives it: what the sandbox answers in its real-names mode.
 */
export function toWireAnswer(answer: unknown, name: AssetIdName): unknown {
  if (name === specIdName) return answer;
  if (Array.isArray(answer)) return answer.map((item) => (isObject(item) ? toWireAsset(item, name) : item));
  if (!isObject(answer)) return answer;
  return idNameOf(answer) ? toWireAsset(answer, name) : toWireRequest(answer, name);
}

/**
 * A request's asset as a service that speaks only the real names reads it (the sandbox's
 * real-names mode): the id taken from `gresb_asset_id` alone (our stand-in name means nothing to
 * it), the removed fields not there.
 */
export function fromRealNamesAsset(asset: Json): Json {
  const { [specIdName]: _stand_in, [serviceIdName]: id, ...rest } = asset;
  const out = toWireAsset(rest, serviceIdName);
  return id === undefined ? out : { [specIdName]: id, ...out };
}

/** A request (one asset, or a batch or validation request's lists) read as `fromRealNamesAsset`. */
export function fromRealNamesRequest(body: unknown): unknown {
  if (!isObject(body)) return body;
  if (!requestLists.some((key) => key in body)) return fromRealNamesAsset(body);
  const out: Json = { ...body };
  for (const key of requestLists) {
    const list = body[key];
    if (Array.isArray(list))
      out[key] = list.map((item: unknown) => (isObject(item) ? fromRealNamesAsset(item) : item));
  }
  return out;
}

const requestLists = ['create', 'always_create', 'update', 'always_update', 'delete'];

/** How a connection came to its name: said by its preset, read from its answers, or assumed. */
export type AssetIdNameSource = 'stated' | 'learned' | 'assumed';

export interface AssetIdNameState {
  name: AssetIdName;
  source: AssetIdNameSource;
}

/**
 * Until a connection states or shows its name, the real service's is assumed: a connection the
 * analyst adds is most likely the real service, and the built-in sandboxes state theirs.
 */
export const assumedIdName: AssetIdNameState = { name: serviceIdName, source: 'assumed' };

/**
 * The name one connection's service speaks. What its answers show wins over what was stated or
 * assumed (the service knows its own names); `onLearned` is told when that changes it, to keep it.
 */
export class AssetIdNaming {
  private current: AssetIdNameState;

  constructor(
    initial: AssetIdNameState,
    private readonly onLearned?: (state: AssetIdNameState) => void,
  ) {
    this.current = initial;
  }

  get name(): AssetIdName {
    return this.current.name;
  }

  get state(): AssetIdNameState {
    return this.current;
  }

  /** An answer's name (see `idNameIn`); undefined (no asset in it) teaches nothing. */
  learn(seen: AssetIdName | undefined): void {
    if (seen === undefined) return;
    if (seen === this.current.name && this.current.source !== 'assumed') return;
    this.current = { name: seen, source: 'learned' };
    this.onLearned?.(this.current);
  }
}
