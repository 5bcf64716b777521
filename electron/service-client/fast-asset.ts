/**
 * `assetSchema`'s parse (shared/domain/schemas.ts) for assets already in the service's usual form:
 * numbers as numbers, ids as integers, the current field names. It builds the very object zod
 * builds (same values, same key order) without zod's per-field machinery, which is a fifth of the
 * sync's local work on a 5,000-asset answer. Anything else (a decimal as a string, an older field
 * name to read, a value zod would refuse) is `undefined`, and zod reads the whole answer: its
 * coercions and its errors stay the only ones. For the pull, the same reading builds each listed
 * asset's document directly, what the service owns read aside (`readListedPage`).
 * tests/electron/service-client/fast-asset.test.ts holds both to zod's output.
 */
import {
  batchResponseSchema,
  schemaKeys,
  type Asset,
  type BatchResponse,
  type Outlier,
  type Validations,
} from '../../shared/domain';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import {
  idNameIn,
  readAssetId,
  serviceIdName,
  specIdName,
  type AssetIdName,
} from '../../shared/sync/asset-id-name';
import { listedOf, type ListedAsset } from '../../shared/sync/listed-asset';
import { hasMessages, type VerdictKind } from '../../shared/sync/server-verdict';
import { parseAssetPage, parseBatchAnswer } from './service-client';
import { jsonNestsDeeperThan } from '../../shared/text/json-depth';

/**
 * A batch answer's bytes as `parseBatchAnswer` reads them (the same result, the same errors), with
 * its JSON as it came (the parsed answer fills in what an asset left out, the JSON says what it
 * carried: see electron/sync/answer-merge.ts) and the name its assets carry their id under
 * (see asset-id-name.ts). `depthChecked`: see `jsonOf`.
 */
export function readBatchAnswer(
  bytes: Uint8Array,
  status: number,
  depthChecked = false,
): { answer: BatchResponse; json: unknown; idName: AssetIdName | undefined } {
  const json = jsonOf(bytes, depthChecked);
  const answer = fastBatchResponse(json) ?? parseBatchAnswer(bytes, status);
  return { answer, json, idName: idNameIn(json) };
}

/**
 * A listing page's assets as the pull takes them in: read straight into each asset's document when
 * the page is in the usual form (one object per asset, where zod's asset and then its document
 * were two), else through zod as `parseAssetPage` reads them (the same errors). `idName`: the name
 * the page's assets carry their id under (the connection learns it: see asset-id-name.ts).
 * `depthChecked`: see `jsonOf` (`listAssetsPageBytes` scans a page's nesting as it arrives).
 */
export function readListedPage(
  bytes: Uint8Array,
  page: number,
  status: number,
  depthChecked = false,
): { listed: ListedAsset[]; idName: AssetIdName | undefined } {
  const json = jsonOf(bytes, depthChecked);
  const listed = fastListed(json) ?? parseAssetPage(bytes, page, status).map(listedOf);
  return { listed, idName: idNameIn(json) };
}

/**
 * The bytes as JSON, or undefined (zod's path then says why it cannot read them). `depthChecked`:
 * their nesting was read as they arrived (`readAnswerBytes` with `json`, which refuses an answer
 * nested too deep), so they are not scanned a second time (a sixteenth of settling a 5,000-asset answer).
 */
function jsonOf(bytes: Uint8Array, depthChecked = false): unknown {
  // Too deep to parse at all: zod's path refuses it before parsing, with the reason.
  if (!depthChecked && jsonNestsDeeperThan(bytes)) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** Thrown inside: this value needs zod. */
const unfit = Symbol('needs zod');
type Json = Record<string, unknown>;

/** The asset as `assetSchema.parse` would return it, or undefined when zod has to read it. */
export function fastAsset(raw: unknown): Asset | undefined {
  return fitOrUndefined(() => asset(raw) as Asset);
}

/** What `read` gives, or undefined when it found a value that needs zod. */
function fitOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error === unfit) return undefined;
    throw error;
  }
}

/** Each item as `read` gives it, or undefined when any one needs zod (zod then reads them all). */
function everyItem<T>(json: unknown, read: (raw: unknown) => T): T[] | undefined {
  if (!Array.isArray(json)) return undefined;
  return fitOrUndefined(() => json.map((raw) => read(raw)));
}

/** A batch answer as `batchResponseSchema.parse` would return it, or undefined (see fastAsset). */
export function fastBatchResponse(json: unknown): BatchResponse | undefined {
  if (!isObject(json)) return undefined;
  const lists = ['created', 'always_created', 'updated', 'always_updated', 'deleted'] as const;
  const assets: Partial<Record<(typeof lists)[number], Asset[]>> = {};
  for (const key of lists) {
    const parsed = fastAssets(json[key] === undefined ? [] : json[key]);
    if (!parsed) return undefined;
    assets[key] = parsed;
  }
  // The rest (refusals, counts) is small: the schema reads it, its assets' lists left empty.
  const { invalid, not_found, counts } = json;
  const rest = batchResponseSchema.safeParse({ invalid, not_found, counts });
  return rest.success ? { ...rest.data, ...assets } : undefined;
}

/** Assets as `z.array(assetSchema).parse` would return them, or undefined (see fastAsset). */
export function fastAssets(json: unknown): Asset[] | undefined {
  return everyItem(json, (raw) => asset(raw) as Asset);
}

/** Assets as `readListedPage` reads them, or undefined (see fastAsset). */
export function fastListed(json: unknown): ListedAsset[] | undefined {
  return everyItem(json, (raw) => new FastListed(raw));
}

/**
 * What the service owns of an asset, read aside from its document: its outliers, whether it has a
 * verdict of its own, whether any verdict `verdictOf` reads (the asset's, a record's, a
 * certification's) has a message.
 */
interface Aside {
  outliers: Json[];
  judged: boolean;
  loud: boolean;
  updatedAt: string | null;
}

class FastListed implements ListedAsset {
  readonly id: number | null;
  readonly partnersId: Asset['partners_id'];
  readonly doc: AssetDoc;
  readonly outliers: Outlier[];
  readonly verdict: VerdictKind;
  readonly updatedAt: string | null;

  constructor(private readonly raw: unknown) {
    const aside: Aside = { outliers: [], judged: false, loud: false, updatedAt: null };
    const doc = asset(raw, aside);
    this.id = doc['service_asset_id'] as number | null;
    this.partnersId = doc['partners_id'] as Asset['partners_id'];
    this.doc = doc as AssetDoc;
    this.outliers = aside.outliers as Outlier[];
    this.verdict = !aside.judged ? 'none' : aside.loud ? 'loud' : 'silent';
    this.updatedAt = aside.updatedAt;
  }

  /** Read again from the answer, which the document's reading has already found fit. */
  asset(): Asset {
    return asset(this.raw) as Asset;
  }
}

/** The schemas' own keys (the loose rest follows in the input's order). */
const assetKeysAndRealId = new Set([...schemaKeys.asset, serviceIdName]);
const certificationKeys = new Set(schemaKeys.certification);
const ratingKeys = new Set(schemaKeys.energyRating);

/**
 * The asset as `assetSchema.parse` would return it; with `aside`, its document (`docFromRemote` of
 * that), what the service owns read into `aside` instead.
 */
function asset(raw: unknown, aside?: Aside): Json {
  if (!isObject(raw)) throw unfit;
  const out: Json = {};
  // Either name of the id (shared/sync/asset-id-name.ts), kept under ours as the schema keeps it.
  out[specIdName] = orNull(readAssetId(raw), int);
  optional(out, raw, 'partners_id', numberOrString);
  for (const key of ['name', 'country', 'state_province', 'city']) out[key] = orNull(raw[key], string);
  optional(out, raw, 'address', string);
  optional(out, raw, 'lat', number);
  optional(out, raw, 'lng', number);
  optional(out, raw, 'construction_year', int);
  out['ownership'] = orNull(raw['ownership'], number);
  optional(out, raw, 'ownership_from', string);
  optional(out, raw, 'ownership_to', string);
  optional(out, raw, 'property_type_code', string);
  optional(out, raw, 'gav', number);
  out['size'] = orNull(raw['size'], number);
  const assetSize = raw['asset_size'] === undefined ? undefined : orNull(raw['asset_size'], numberOrString);
  if (!aside && assetSize !== undefined) out['asset_size'] = assetSize;
  out['certifications'] = list(
    raw['certifications'] === undefined ? [] : raw['certifications'],
    certification,
    aside,
  );
  if (raw['energy_ratings'] !== undefined) out['energy_ratings'] = list(raw['energy_ratings'], rating, aside);
  out['annual_data'] = list(raw['annual_data'] === undefined ? [] : raw['annual_data'], annual, aside);
  const outliers = list(raw['_outliers'] === undefined ? [] : raw['_outliers'], outlier);
  const createdAt = orNull(raw['created_at'], string);
  const updatedAt = orNull(raw['updated_at'], string);
  if (aside) {
    aside.outliers = outliers;
    aside.judged = raw['_validations'] !== undefined;
    aside.updatedAt = updatedAt;
  } else {
    out['_outliers'] = outliers;
    out['created_at'] = createdAt;
    out['updated_at'] = updatedAt;
  }
  verdictInto(out, raw, aside);
  looseRest(out, raw, assetKeysAndRealId);
  olderNames(out, assetSize);
  return out;
}

/** A `_validations` read: kept in `out`, or (aside) only whether it has a message. */
function verdictInto(out: Json, raw: Json, aside: Aside | undefined, partOfVerdict = true): void {
  if (raw['_validations'] === undefined) return;
  const verdict = validations(raw['_validations']);
  if (!aside) out['_validations'] = verdict;
  else if (partOfVerdict && hasMessages(verdict as Validations)) aside.loud = true;
}

/** assetSchema's transform: where our field is missing, the older one is read. */
function olderNames(out: Json, assetSize: unknown): void {
  if (out['ownership'] === null) out['ownership'] = numericOrNull(out['asset_ownership']);
  if (out['size'] === null) out['size'] = numericOrNull(assetSize);
  // The latest record is looked for only when it is read (most assets carry both fields).
  if (out['name'] !== null && out['property_type_code'] != null) return;
  const latest = latestRecord(out['annual_data'] as Array<Json & { year: number }>);
  if (out['name'] === null && typeof latest?.['asset_name'] === 'string') out['name'] = latest['asset_name'];
  if (out['property_type_code'] == null && typeof latest?.['property_type_code'] === 'string')
    out['property_type_code'] = latest['property_type_code'];
}

/** The record of the latest year; the first of them on a tie (as a stable sort, newest first, gives). */
function latestRecord(annual: Array<Json & { year: number }>): (Json & { year: number }) | undefined {
  let latest = annual[0];
  for (const record of annual) if (latest && record.year > latest.year) latest = record;
  return latest;
}

function certification(raw: unknown, aside?: Aside): Json {
  if (!isObject(raw)) throw unfit;
  const out: Json = {};
  out['id'] = orNull(raw['id'], int);
  out['certification_id'] = orNull(raw['certification_id'], int);
  optional(out, raw, 'name', string);
  out['level'] = orNull(raw['level'], string);
  out['size'] = orNull(raw['size'], number);
  out['year'] = orNull(raw['year'], int);
  optional(out, raw, 'energy_rating_id', int);
  verdictInto(out, raw, aside);
  looseRest(out, raw, certificationKeys);
  return out;
}

function rating(raw: unknown, aside?: Aside): Json {
  if (!isObject(raw)) throw unfit;
  const out: Json = {};
  out['id'] = orNull(raw['id'], int);
  out['energy_rating_id'] = orNull(raw['energy_rating_id'], int);
  optional(out, raw, 'name', string);
  optional(out, raw, 'level', string);
  out['size'] = orNull(raw['size'], number);
  // A rating's verdict is not part of the asset's (see verdictOf): it is only kept out of the document.
  verdictInto(out, raw, aside, false);
  looseRest(out, raw, ratingKeys);
  return out;
}

/** An annual record: its year, its verdict, then every other field as sent (any JSON value). */
function annual(raw: unknown, aside?: Aside): Json {
  if (!isObject(raw)) throw unfit;
  const out: Json = { year: int(raw['year']) };
  verdictInto(out, raw, aside);
  for (const key of Object.keys(raw)) {
    if (key === 'year' || key === '_validations') continue;
    const value = raw[key];
    // Objects and arrays zod copies through z.json() (rare in a record), and what JSON cannot hold.
    if ((typeof value === 'object' && value !== null) || value === undefined) throw unfit;
    out[key] = value;
  }
  return out;
}

const kpis = new Set(['en', 'ghg', 'was', 'wat']);
const outlierTypes = new Set(['lfl', 'intensity']);

function outlier(raw: unknown): Json {
  if (!isObject(raw)) throw unfit;
  const { kpi, type, accepted, value } = raw;
  if (!kpis.has(kpi as string) || !outlierTypes.has(type as string) || typeof accepted !== 'boolean')
    throw unfit;
  if (typeof value === 'string') return { kpi, type, accepted, value };
  return { kpi, type, accepted, value: String(number(value)) };
}

function validations(raw: unknown): Json {
  if (!isObject(raw)) throw unfit;
  const out: Json = { errors: messages(raw['errors']) };
  if (raw['warnings'] !== undefined) out['warnings'] = messages(raw['warnings']);
  return out;
}

function messages(raw: unknown): Record<string, string[]> {
  if (!isObject(raw)) throw unfit;
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(raw)) {
    const list = raw[key];
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) throw unfit;
    out[key] = [...(list as string[])];
  }
  return out;
}

function looseRest(out: Json, raw: Json, known: ReadonlySet<string>): void {
  for (const key of Object.keys(raw)) {
    if (known.has(key)) continue;
    if (raw[key] === undefined) throw unfit;
    out[key] = raw[key];
  }
}

function list(raw: unknown, item: (value: unknown, aside?: Aside) => Json, aside?: Aside): Json[] {
  if (!Array.isArray(raw)) throw unfit;
  return raw.map((value) => item(value, aside));
}

/** `.nullable().default(null)`: absent or null is null. */
function orNull<T>(value: unknown, parse: (value: unknown) => T): T | null {
  return value === undefined || value === null ? null : parse(value);
}

/** `.nullable().optional()`: absent stays absent. */
function optional(out: Json, raw: Json, key: string, parse: (value: unknown) => unknown): void {
  const value = raw[key];
  if (value === undefined) return;
  out[key] = value === null ? null : parse(value);
}

function number(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw unfit;
}

function int(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw unfit;
}

function string(value: unknown): string {
  if (typeof value === 'string') return value;
  throw unfit;
}

function numberOrString(value: unknown): number | string {
  return typeof value === 'string' ? value : number(value);
}

/** As the schema's `numeric` reads an older field; a string (maybe a decimal) is zod's to read. */
function numericOrNull(value: unknown): number | null {
  if (typeof value === 'string') throw unfit;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
