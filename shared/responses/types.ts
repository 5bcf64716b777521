/**
 * Portfolio responses (the service's v0 endpoints) as the app shows them. Shared by main and the
 * renderer: plain types and small pure helpers, no Node, no zod (the parsers of the service's answers
 * are in ./schemas, used by main only).
 */

/**
 * checkbox: option codes (a set); radio: one code; text: a string; null: not answered. The service
 * also stores numbers (an evidence share flag is the number 1), so a value read back may be one.
 */
export type IndicatorValue = string | number | string[] | null;

/** The kinds of question the catalog holds. */
export type IndicatorKind = 'checkbox' | 'radio' | 'text';

/** Every kind of variable the app writes: the catalog's questions and the parts of evidence items. */
export type ValueKind = IndicatorKind | 'url' | 'flag';

export interface IndicatorOption {
  code: string;
  label: string;
}

/** What a value of a variable must be. */
export interface ValueRule {
  kind: ValueKind;
  options?: readonly IndicatorOption[] | undefined;
  max_length?: number | undefined;
}

/**
 * One question of a response, from the app's own catalog (shared/responses/catalog.ts): the service
 * does not serve definitions, only values by variable.
 */
export interface IndicatorDefinition extends ValueRule {
  variable: string;
  section: string;
  kind: IndicatorKind;
  label: string;
  /** The evidence answer (`answer_name`, e.g. `PO_1_A1_EVD`) when the question takes evidence. */
  evidence?: string | undefined;
}

/** The service's summary of a response, as GET .../responses lists it. */
export interface ResponseSummary {
  id: number;
  entity_id: number | null;
  business_line: string | null;
  survey_year: number;
  /** The reporting entity's name (the docs' example: "API Test Entity"). */
  name: string;
  manager: string | null;
  /** e.g. `new`, `in_progress`, `submitted`. */
  status: string;
  survey_open: boolean;
  /** e.g. `real_estate`, `sfdr_re`. */
  assessment_type: string | null;
  percent_completed: number | null;
  created_at: string | null;
  updated_at: string | null;
}

/** A closed survey or a submitted response takes no answers: it is history, shown read-only. */
export function isReadOnlyResponse(summary: Pick<ResponseSummary, 'status' | 'survey_open'>): boolean {
  return !summary.survey_open || summary.status === 'submitted';
}

/** `F`: a document file, linked by the URL where it is hosted; `H`: a hyperlink to a web page. */
export type EvidenceType = 'F' | 'H';

/** The parts of one evidence item, each a variable `<answer>_<PART>_<item>`. */
export type EvidencePart = 'TYPE' | 'LINK' | 'DOCID' | 'NOTES' | 'SHARE';

/** One evidence item of an indicator, as the service holds it (and, for a link, as it was sent). */
export interface EvidenceItemView {
  /** The catalog question the evidence supports; null for an old upload for the whole response. */
  variable: string | null;
  /** The evidence answer, e.g. `PO_1_A1_EVD`. */
  answerName: string;
  /** The service's item number; null for a file uploaded by an earlier version of the app. */
  itemNumber: number | null;
  evidenceType: string | null;
  /** The link the analyst gave (a hyperlink's LINK value, or the URL a file was posted with). */
  url: string | null;
  docId: string | null;
  notes: string | null;
  shared: boolean | null;
  /** Where the service shows the document (the documents endpoint's `report_url`). */
  reportUrl: string | null;
  /** The item's variables with their values, as the service named them. */
  variables: Partial<Record<EvidencePart, { variable: string; value: IndicatorValue }>>;
  /** A file uploaded by an earlier version of this app (kept, but the service takes links only). */
  legacyFile?: { filename: string; size: number; contentType: string } | undefined;
}

/**
 * clean: as on the service; modified: the analyst's answer waits for the next sync; conflict:
 * someone else changed the answer on the service since the last pull, and the analyst chooses.
 */
export type ResponseValueStatus = 'clean' | 'modified' | 'conflict';

export interface ResponseValueView {
  variable: string;
  /** The analyst's answer (what the form shows). */
  value: IndicatorValue;
  /** The answer as last seen on the service. */
  base: IndicatorValue;
  /** The service's lock_version of `base`, as the service gave it: what the next write echoes. */
  lockVersion: string;
  status: ResponseValueStatus;
  /** For a conflict: the service's answer that differs from the analyst's. */
  theirs?: { value: IndicatorValue; lockVersion: string } | undefined;
  /** Why the service refused the last write of this answer (422, read-only response). */
  serverErrors?: string[] | undefined;
  /** False when the service answered that it has no such variable in this response (404). */
  available: boolean;
  unavailableReason?: string | undefined;
  updatedAt: string | null;
}

export interface ResponseListItem extends ResponseSummary {
  /** Historical responses (closed survey, submitted) are shown, never edited. */
  readOnly: boolean;
  /** False when the service would not give this response's contents (history not authorised). */
  available: boolean;
  unavailableReason?: string | undefined;
  modified: number;
  conflicts: number;
  /** Catalog variables the service says this response does not have. */
  notAvailable: number;
  evidence: number;
  fetchedAt: string;
}

export interface ResponseDetail {
  response: ResponseListItem;
  indicators: IndicatorDefinition[];
  values: ResponseValueView[];
  evidence: EvidenceItemView[];
}

/** Evidence the analyst adds: a link with its type (no upload: the service takes links only). */
export interface EvidenceInput {
  evidenceType: EvidenceType;
  url: string;
  notes?: string | undefined;
  /** Files only: make the document visible to investors (hyperlinks are shared by default). */
  share?: boolean | undefined;
}

export interface ResponsesSyncReport {
  /** Responses whose contents were read. */
  pulled: number;
  /** Answers the service accepted. */
  sent: number;
  /** Answers now in conflict (found by the pull or refused with 409). */
  conflicts: Array<{ responseId: number; variable: string }>;
  /** Answers the service refused for another reason (invalid, read-only); they stay modified. */
  rejected: Array<{ responseId: number; variable: string; message: string }>;
  /**
   * Indicators of the app's catalog this service does not take: it answered 404 ("Variable could
   * not be found.") for them in every response it showed, or to a write of one. Answers to them
   * stay in the workspace, unsent; the other indicators sync as ever.
   */
  notTaken: Array<{ variable: string; label: string; message: string }>;
  /** Set when the sync stopped early (offline, signed out); what was done is kept. */
  stopped?: { reason: 'unauthorized' | 'error'; message: string } | undefined;
}

/** Checkbox answers are sets: the order of the codes carries no meaning. */
export function sameIndicatorValue(a: IndicatorValue, b: IndicatorValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const sorted = [...b].sort();
    return [...a].sort().every((code, i) => code === sorted[i]);
  }
  return a === b;
}

const localPath = /^(file:|[A-Za-z]:[\\/]|\\\\|\/|~[\\/])/i;

/**
 * Why a link cannot be evidence, or undefined when it can. The service takes evidence only as a link
 * it can reach, so a path on this computer gets the plain explanation of what to do first.
 */
export function checkEvidenceUrl(url: string): string | undefined {
  const text = url.trim();
  if (text === '') return 'a link is needed';
  if (localPath.test(text))
    return 'is a file on this computer, which the service cannot reach: put the file where it can be opened by a link (for example your company’s document store), then paste that link';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'must be a full web address starting with https:// (or http://)';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return 'must be a web address starting with https:// (or http://)';
  return undefined;
}

/**
 * Checks a value against its rule before it is stored or sent: an array of distinct option codes
 * (checkbox), one code (radio; the number 1 matches the code "1"), a string up to max_length (text), a
 * web address (url), 1 or 0 (flag); null clears. The one check of both the app and the sandbox (whose
 * 422 `_validations` carry these messages); the service's own check stays the final word.
 */
export function checkIndicatorValue(rule: ValueRule, value: unknown): string[] {
  if (value === null) return [];
  const codes = new Set((rule.options ?? []).map((o) => o.code));
  switch (rule.kind) {
    case 'checkbox': {
      if (!Array.isArray(value) || !value.every((c) => typeof c === 'string'))
        return ['must be a list of option codes'];
      const unknown = value.filter((c) => !codes.has(c));
      if (unknown.length > 0) return [`unknown option codes: ${unknown.join(', ')}`];
      if (new Set(value).size !== value.length) return ['option codes must not repeat'];
      return [];
    }
    case 'radio':
      if (typeof value !== 'string' && typeof value !== 'number') return ['must be one option code'];
      return codes.has(String(value)) ? [] : [`unknown option code: ${String(value)}`];
    case 'text':
      if (typeof value !== 'string') return ['must be text'];
      return rule.max_length !== undefined && value.length > rule.max_length
        ? [`must be at most ${rule.max_length} characters`]
        : [];
    case 'url': {
      if (typeof value !== 'string') return ['must be a web address'];
      const problem = checkEvidenceUrl(value);
      if (problem) return [problem];
      return rule.max_length !== undefined && value.length > rule.max_length
        ? [`must be at most ${rule.max_length} characters`]
        : [];
    }
    case 'flag':
      return value === 1 || value === 0 || value === '1' || value === '0'
        ? []
        : ['must be 1 (yes) or 0 (no)'];
  }
}
