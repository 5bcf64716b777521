/**
 * Validation results mapped onto document paths, so a message finds its cell. Pure. Offline results
 * come from the shared rules (`validateAsset`), service results from the `_validations` the service
 * answered (kept on the asset view); both use the same paths as edits and staged changes.
 */
import {
  assetFieldCatalog,
  type AssetValidationResult,
  type FieldMessages,
  type Validations,
} from '../../../shared/domain';
import { entryKey, type AssetDoc } from '../../../shared/sync/asset-doc';
import type { ServerVerdict } from '../../../shared/sync/types';

export type Severity = 'error' | 'warning';
export type IssueSource = 'local' | 'service';

export interface Issue {
  localId: string;
  path: string;
  /** The field key as the rules reported it. */
  field: string;
  severity: Severity;
  source: IssueSource;
  message: string;
  /** The rules' own words when the message shown is reworded, to match the service's. */
  said?: string;
  /** A local issue the service reported too (shown once, marked as confirmed). */
  confirmed?: boolean;
  /**
   * A service issue on a value changed here since the service judged it: the analyst fixed it, and
   * the service checks it again at the next sync. Not counted as a problem, not drawn as one.
   */
  fixedHere?: boolean;
}

/** The service's issues on values changed here since its verdict, marked as fixed here. */
export function markFixedHere(issues: Issue[], changedPaths: readonly string[]): Issue[] {
  if (changedPaths.length === 0 || issues.length === 0) return issues;
  const changed = new Set(changedPaths);
  for (const issue of issues) if (changed.has(issue.path)) issue.fixedHere = true;
  return issues;
}

export const fixedHereNote = 'fixed here, checked again at sync';

/** Error keys that differ from the column's field (`asset_size` is the `size` column). */
const fieldOfErrorKey = new Map(
  assetFieldCatalog.filter((d) => d.errorKey !== undefined).map((d) => [d.errorKey as string, d.name]),
);

function push(
  out: Issue[],
  messages: FieldMessages | undefined,
  base: { localId: string; severity: Severity; source: IssueSource },
  pathFor: (field: string) => string,
): void {
  if (!messages) return;
  for (const [field, list] of Object.entries(messages)) {
    for (const message of list) out.push({ ...base, field, path: pathFor(field), message });
  }
}

function pushValidations(
  out: Issue[],
  v: Validations | undefined,
  localId: string,
  source: IssueSource,
  pathFor: (field: string) => string,
): void {
  if (!v) return;
  push(out, v.errors, { localId, severity: 'error', source }, pathFor);
  push(out, v.warnings, { localId, severity: 'warning', source }, pathFor);
}

const assetPath = (field: string): string => fieldOfErrorKey.get(field) ?? field;

const notANumber = 'is not a number';
export const requiredFloorArea = 'is required: enter the floor area';
const isBlankValue = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

function entries(doc: AssetDoc, collection: 'annual_data' | 'certifications' | 'energy_ratings') {
  const list = doc[collection];
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** The shared rules' result for one asset, as issues on paths. Indexes follow the document's arrays. */
export function localIssues(localId: string, doc: AssetDoc, result: AssetValidationResult): Issue[] {
  const out: Issue[] = [];
  pushValidations(out, result.asset, localId, 'local', assetPath);
  // The service calls an empty floor area "not a number"; the analyst is told it is required.
  if (isBlankValue(doc['size']))
    for (const issue of out)
      if (issue.path === 'size' && issue.message === notANumber)
        Object.assign(issue, { said: issue.message, message: requiredFloorArea });
  entries(doc, 'annual_data').forEach((rec, i) => {
    const year = String(rec['year']);
    pushValidations(out, result.annualData[i], localId, 'local', (f) => `annual_data/${year}/${f}`);
  });
  entries(doc, 'certifications').forEach((rec, i) => {
    const key = entryKey('certifications', rec);
    pushValidations(out, result.certifications[i], localId, 'local', (f) => `certifications/${key}/${f}`);
  });
  entries(doc, 'energy_ratings').forEach((rec, i) => {
    const key = entryKey('energy_ratings', rec);
    pushValidations(out, result.energyRatings[i], localId, 'local', (f) => `energy_ratings/${key}/${f}`);
  });
  return out;
}

/** The service's `_validations` from its last answer about the asset. */
export function serviceIssues(localId: string, verdict: ServerVerdict | null): Issue[] {
  const out: Issue[] = [];
  if (!verdict) return out;
  pushValidations(out, verdict.asset, localId, 'service', assetPath);
  for (const rec of verdict.annualData ?? []) {
    const year = String(rec.year);
    pushValidations(out, rec._validations, localId, 'service', (f) => `annual_data/${year}/${f}`);
  }
  for (const rec of verdict.certifications ?? []) {
    const key = typeof rec.id === 'number' ? `id:${rec.id}` : 'new:';
    pushValidations(out, rec._validations, localId, 'service', (f) => `certifications/${key}/${f}`);
  }
  return out;
}

export interface CellIssues {
  errors: string[];
  warnings: string[];
  service: string[];
  /** What the service said of a value changed here since (checked again at sync). */
  fixed: string[];
}

/** Issues by path, for the cell class rules and tooltips. */
export function indexIssues(issues: readonly Issue[]): Map<string, CellIssues> {
  const index = new Map<string, CellIssues>();
  for (const issue of issues) {
    let cell = index.get(issue.path);
    if (!cell) {
      cell = { errors: [], warnings: [], service: [], fixed: [] };
      index.set(issue.path, cell);
    }
    if (issue.fixedHere) cell.fixed.push(issue.message);
    else if (issue.source === 'service')
      cell.service.push(`${issue.severity === 'error' ? '' : 'Warning: '}${issue.message}`);
    else if (issue.severity === 'error') cell.errors.push(issue.message);
    else cell.warnings.push(issue.message);
    if (issue.confirmed) cell.service.push(`${issue.message} (the service agrees)`);
  }
  return index;
}

/**
 * Offline and service issues together: a service message the shared rules also found marks the
 * local issue as confirmed instead of appearing twice.
 */
export function mergeIssues(local: readonly Issue[], service: readonly Issue[]): Issue[] {
  const out = local.map((issue) => ({ ...issue }));
  const byKey = new Map(
    out.map((issue) => [`${issue.path}\u0000${(issue.said ?? issue.message).toLowerCase()}`, issue]),
  );
  for (const issue of service) {
    const twin = byKey.get(`${issue.path}\u0000${issue.message.toLowerCase()}`);
    if (twin) twin.confirmed = true;
    else out.push(issue);
  }
  return out;
}

export function countIssues(issues: readonly Issue[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const issue of issues) {
    if (issue.fixedHere) continue;
    if (issue.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}

/** The text a cell's tooltip shows. */
export function tooltipText(cell: CellIssues | undefined): string | undefined {
  if (!cell) return undefined;
  const lines = [
    ...cell.errors.map((m) => `Error: ${m}`),
    ...cell.warnings.map((m) => `Warning: ${m}`),
    ...cell.service.map((m) => `Service: ${m}`),
    ...cell.fixed.map((m) => `The service said "${m}": ${fixedHereNote}`),
  ];
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * The sync's "held back" error keys (`annual_data[3].en_cov_wf`, `certifications[0].level`, `name`)
 * as document paths, by the asset's current arrays.
 */
export function blockedKeyToPath(doc: AssetDoc | undefined, key: string): string {
  const m = /^(annual_data|certifications|energy_ratings)\[(\d+)\]\.(.+)$/.exec(key);
  if (!m) return assetPath(key);
  const collection = m[1] as 'annual_data' | 'certifications' | 'energy_ratings';
  const entry = doc ? entries(doc, collection)[Number(m[2])] : undefined;
  if (!entry) return `${collection}/?/${m[3]}`;
  return `${collection}/${entryKey(collection, entry)}/${m[3]}`;
}
