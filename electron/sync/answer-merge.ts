import type { AssetDoc } from '../../shared/sync/asset-doc';

/**
 * The service's copy of an asset after it acknowledged what was sent. A batch answer need not be
 * the whole asset: the service's own docs answer with copies "trimmed for brevity" (an update's
 * answer there carries the id, the location and the timestamps, nothing else). Taken as the whole
 * copy, such an answer dropped the name, the address and the annual records from the base, and the
 * asset showed as in step with a service that still holds them. So what the answer carries is
 * merged into the copy that was sent (what the service now holds, as far as we know) and what it
 * omits is kept: asset fields by name, annual records by year, certifications and energy ratings by
 * id. Pure.
 *
 * `answered`: the answer's asset as the workspace reads it (`docFromRemote`: the schema's defaults
 * filled in); `carried`: the same asset as the answer's JSON held it, which says what it carried.
 */
export function mergeAnswer(prior: AssetDoc, answered: AssetDoc, carried: Record<string, unknown>): AssetDoc {
  const merged = mergeEntry(prior, answered, carried);
  // Its collections are set below: a copy, never the answered document itself (this stays pure).
  const out = (merged === answered ? { ...answered } : merged) as AssetDoc;
  const annual = carriedArray(carried, 'annual_data');
  out.annual_data = annual
    ? mergeByYear(asEntries(prior.annual_data), asEntries(answered.annual_data), annual)
    : (prior.annual_data ?? answered.annual_data);
  for (const [collection, scheme] of [
    ['certifications', 'certification_id'],
    ['energy_ratings', 'energy_rating_id'],
  ] as const) {
    const raw = carriedArray(carried, collection);
    if (raw)
      out[collection] = mergeById(asEntries(prior[collection]), asEntries(answered[collection]), raw, scheme);
    else if (prior[collection] !== undefined) out[collection] = prior[collection];
  }
  return out;
}

type Entry = Record<string, unknown>;

/**
 * Whether the answer carried a field: named in its JSON, or given a value by the schema from an
 * older name it carried (`asset_size` for `size`, an annual record's `asset_name` for `name`). A
 * field the answer left out reads as null after parsing; that null is not the service's word.
 */
function wasCarried(field: string, value: unknown, carried: Entry): boolean {
  return Object.hasOwn(carried, field) || (value !== null && value !== undefined);
}

function carriedArray(carried: Entry, field: string): Entry[] | undefined {
  const value = carried[field];
  return Array.isArray(value) ? value.map((v) => (isEntry(v) ? v : {})) : undefined;
}

const isEntry = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function asEntries(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter(isEntry) : [];
}

/**
 * An answered entry's fields that it carried, onto the entry it answers (or alone when new). Keys
 * in the answer's order, then those only the prior copy has: a full answer gives the very text a
 * listing of the same asset gives, so the next pull finds nothing to rewrite.
 */
function mergeEntry(prior: Entry | undefined, answered: Entry, carried: Entry): Entry {
  // The answer carried every field of the prior copy (a whole answer, the usual case): it is the
  // merge, taken as it is (documents are never changed in place): no object built, not even a copy,
  // for each asset and each of its records (a 5,000-asset batch settles each of them).
  if (!prior || covers(carried, prior)) return answered;
  const out: Entry = {};
  for (const [field, value] of Object.entries(answered)) {
    if (wasCarried(field, value, carried) || !prior || !Object.hasOwn(prior, field)) out[field] = value;
    else out[field] = prior[field];
  }
  for (const [field, value] of Object.entries(prior ?? {}))
    if (field !== '_key' && !Object.hasOwn(out, field)) out[field] = value;
  return out;
}

/** Whether `carried` names every field of `prior` (its local `_key` aside). */
function covers(carried: Entry, prior: Entry): boolean {
  for (const field in prior) if (field !== '_key' && !Object.hasOwn(carried, field)) return false;
  return true;
}

/** Whether an entry has its service id (declared once: a closure made per call is named per call). */
function hasId(entry: Entry): boolean {
  return entry['id'] !== undefined && entry['id'] !== null;
}

/** Annual records by year: an answered year merges into the record sent; other years stay. */
function mergeByYear(prior: Entry[], answered: Entry[], carried: Entry[]): Entry[] {
  const left = prior.slice();
  const out = answered.map((entry, i) => {
    const at = left.findIndex((e) => e['year'] === entry['year']);
    const [match] = at >= 0 ? left.splice(at, 1) : [];
    return mergeEntry(match, entry, carried[i] ?? {});
  });
  return [...out, ...left];
}

/**
 * Certifications (energy ratings) by id. An answered entry with an id the sent copy lacks is one the
 * service just created from an entry sent without an id: it takes that entry's place, found by its
 * scheme, level and year (unique per asset, the docs say) as far as the answer carried them.
 */
function mergeById(prior: Entry[], answered: Entry[], carried: Entry[], scheme: string): Entry[] {
  const left = prior.slice();
  const out = answered.map((entry, i) => {
    let at = hasId(entry) ? left.findIndex((e) => e['id'] === entry['id']) : -1;
    if (at < 0) {
      const keys = [scheme, 'level', 'year'].filter((k) => Object.hasOwn(carried[i] ?? {}, k));
      at = left.findIndex((e) => !hasId(e) && keys.every((k) => (e[k] ?? null) === (entry[k] ?? null)));
    }
    const [match] = at >= 0 ? left.splice(at, 1) : [];
    return mergeEntry(match, entry, carried[i] ?? {});
  });
  return [...out, ...left];
}
