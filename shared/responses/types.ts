/**
 * Portfolio responses (the service's v0 endpoints) as the app shows them. Shared by main and the
 * renderer: plain types and small pure helpers, no Node.
 */

/** checkbox: option codes (a set); radio: one code; text: a string; null: not answered. */
export type IndicatorValue = string | string[] | null;

export type IndicatorKind = 'checkbox' | 'radio' | 'text';

export interface IndicatorOption {
  code: string;
  label: string;
}

/** One question of a response, as the service defines it. */
export interface IndicatorDefinition {
  variable: string;
  section: string;
  kind: IndicatorKind;
  label: string;
  options?: IndicatorOption[] | undefined;
  max_length?: number | undefined;
  /** Whether evidence documents may be attached to this indicator. */
  evidence: boolean;
}

export interface ResponseSummary {
  id: number;
  year: number;
  name: string;
  /** `open` takes answers; anything else (`submitted`) is a historical, read-only response. */
  state: string;
  created_at: string;
  updated_at: string;
}

export interface ResponseDocumentView {
  id: number;
  filename: string;
  size: number;
  contentType: string;
  /** The indicator the document is evidence for; null for the response as a whole. */
  variable: string | null;
  createdAt: string | null;
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
  /** The service's lock_version of `base`: what the next write echoes. */
  lockVersion: number;
  status: ResponseValueStatus;
  /** For a conflict: the service's answer that differs from the analyst's. */
  theirs?: { value: IndicatorValue; lockVersion: number } | undefined;
  /** Why the service refused the last write of this answer (422, read-only response). */
  serverErrors?: string[] | undefined;
  updatedAt: string | null;
}

export interface ResponseListItem extends ResponseSummary {
  /** Historical responses (not `open`) are shown, never edited. */
  readOnly: boolean;
  /** False when the service would not give this response's contents (history not authorised). */
  available: boolean;
  unavailableReason?: string | undefined;
  modified: number;
  conflicts: number;
  documents: number;
  fetchedAt: string;
}

export interface ResponseDetail {
  response: ResponseListItem;
  indicators: IndicatorDefinition[];
  values: ResponseValueView[];
  documents: ResponseDocumentView[];
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
  /** Set when the sync stopped early (offline, signed out); what was done is kept. */
  stopped?: { reason: 'unauthorized' | 'error'; message: string } | undefined;
}

export interface UploadProgress {
  responseId: number;
  filename: string;
  sent: number;
  total: number;
  done: boolean;
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

/**
 * Checks an answer against its indicator before it is stored, so the analyst hears of a mistake
 * while typing rather than at sync. The service's own check (422) stays the final word.
 */
export function checkIndicatorValue(def: IndicatorDefinition, value: IndicatorValue): string[] {
  if (value === null) return [];
  const codes = new Set((def.options ?? []).map((o) => o.code));
  switch (def.kind) {
    case 'checkbox': {
      if (!Array.isArray(value)) return ['must be a list of option codes'];
      const unknown = value.filter((c) => !codes.has(c));
      if (unknown.length > 0) return [`unknown option codes: ${unknown.join(', ')}`];
      if (new Set(value).size !== value.length) return ['option codes must not repeat'];
      return [];
    }
    case 'radio':
      if (typeof value !== 'string') return ['must be one option code'];
      return codes.has(value) ? [] : [`unknown option code: ${value}`];
    case 'text':
      if (typeof value !== 'string') return ['must be text'];
      return def.max_length !== undefined && value.length > def.max_length
        ? [`must be at most ${def.max_length} characters`]
        : [];
  }
}
