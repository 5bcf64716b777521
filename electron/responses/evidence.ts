import { UserFacingError } from '../../shared/errors';
import {
  evidenceVariable,
  indicatorOfEvidence,
  maxEvidenceItems,
  maxEvidenceNotes,
  maxEvidenceUrl,
} from '../../shared/responses/catalog';
import type { RemoteDocumentAnswer } from '../../shared/responses/schemas';
import {
  checkEvidenceUrl,
  type EvidenceInput,
  type EvidenceItemView,
  type EvidencePart,
  type IndicatorValue,
} from '../../shared/responses/types';
import type { ResponsesClient, ServiceValue } from './responses-client';

/**
 * Evidence as the service takes it (the docs' _evidence.md): never an upload. A file is posted to
 * .../documents as JSON — its answer, type `F` and the URL where it is already hosted — and the service
 * answers the item's number, report link and variables; a hyperlink is written as values: the item's
 * TYPE (`H`), LINK and NOTES. Each value write echoes the version the service gave on a fresh read.
 */

export class EvidenceInputError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'EvidenceInputError';
  }
}

/** Someone else wrote the same item meanwhile (a 409): nothing of ours is lost; try again. */
export class EvidenceConflictError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'EvidenceConflictError';
  }
}

interface Target {
  client: ResponsesClient;
  entityId: number;
  responseId: number;
  answerName: string;
  signal?: AbortSignal | undefined;
}

/** Checks what the analyst typed, with the plain explanation for a file on this computer. */
export function checkEvidenceInput(input: EvidenceInput): EvidenceInput {
  const url = input.url.trim();
  const problem = checkEvidenceUrl(url);
  if (problem) throw new EvidenceInputError(`The link ${problem}.`);
  if (url.length > maxEvidenceUrl)
    throw new EvidenceInputError(`The link must be at most ${maxEvidenceUrl} characters.`);
  const notes = input.notes?.trim() ?? '';
  if (notes.length > maxEvidenceNotes)
    throw new EvidenceInputError(`The notes must be at most ${maxEvidenceNotes} characters.`);
  if (input.evidenceType === 'H' && input.share)
    throw new EvidenceInputError(
      'A hyperlink is shared with investors already; only files have a share setting.',
    );
  return {
    evidenceType: input.evidenceType,
    url,
    notes: notes === '' ? undefined : notes,
    share: input.share,
  };
}

/**
 * The items of one evidence answer, read part by part: item numbers stay with their items (a removed
 * item leaves a gap), so the scan goes past gaps up to the highest number known here. Undefined when
 * the service has no such variables in this response.
 */
export async function readEvidence(t: Target, knownHighest: number): Promise<EvidenceItemView[] | undefined> {
  const items: EvidenceItemView[] = [];
  for (let n = 1; n <= maxEvidenceItems; n++) {
    const type = await read(t, 'TYPE', n);
    if (type === undefined) return n === 1 ? undefined : items;
    if (type.value === null) {
      if (n > knownHighest) break;
      continue;
    }
    const parts: EvidencePart[] = type.value === 'H' ? ['LINK', 'NOTES'] : ['DOCID', 'NOTES', 'SHARE'];
    const variables: EvidenceItemView['variables'] = { TYPE: { variable: type.variable, value: type.value } };
    for (const part of parts) {
      const v = await read(t, part, n);
      if (v) variables[part] = { variable: v.variable, value: v.value };
    }
    items.push(itemView(t.answerName, n, variables, { url: null, reportUrl: null }));
  }
  return items;
}

/** Adds one evidence item and answers it as the service now holds it. */
export async function addEvidence(
  t: Target,
  input: EvidenceInput,
  knownHighest: number,
): Promise<EvidenceItemView> {
  const item = await nextItem(t, knownHighest);
  try {
    return input.evidenceType === 'F' ? await addFile(t, input, item) : await addHyperlink(t, input, item);
  } catch (error) {
    if (error instanceof StaleWrite)
      throw new EvidenceConflictError(
        `Someone else changed evidence item ${error.variable} at the same time. Nothing was overwritten: sync, then add the evidence again.`,
      );
    throw error;
  }
}

async function addFile(t: Target, input: EvidenceInput, next: { n: number; typeLock: string }) {
  const answer = await t.client.addDocument(
    t.entityId,
    t.responseId,
    // The docs send "0" for a new item: the version of its (unwritten) TYPE.
    { answer_name: t.answerName, lock_version: next.typeLock, evidence_type: 'F', url: input.url },
    t.signal,
  );
  const n = answer.item_number;
  const variables = variablesOf(answer);
  // Follow-up writes go to the variables the service named (its answer names them per item).
  const named = (part: EvidencePart) => variables[part]?.variable ?? evidenceVariable(t.answerName, part, n);
  if (input.notes !== undefined) variables.NOTES = await write(t, named('NOTES'), input.notes);
  if (input.share) variables.SHARE = await write(t, named('SHARE'), 1);
  return itemView(answer.answer_name, n, variables, {
    url: input.url,
    reportUrl: answer.report_url,
    evidenceType: answer.evidence_type ?? 'F',
  });
}

async function addHyperlink(t: Target, input: EvidenceInput, next: { n: number; typeLock: string }) {
  const { n } = next;
  const variables: EvidenceItemView['variables'] = {};
  variables.TYPE = await write(t, evidenceVariable(t.answerName, 'TYPE', n), 'H', next.typeLock);
  variables.LINK = await write(t, evidenceVariable(t.answerName, 'LINK', n), input.url);
  if (input.notes !== undefined)
    variables.NOTES = await write(t, evidenceVariable(t.answerName, 'NOTES', n), input.notes);
  return itemView(t.answerName, n, variables, { url: input.url, reportUrl: null });
}

/** The first item number with no TYPE on the service, past every item known here. */
async function nextItem(t: Target, knownHighest: number): Promise<{ n: number; typeLock: string }> {
  for (let n = 1; n <= maxEvidenceItems; n++) {
    const type = await read(t, 'TYPE', n);
    if (type === undefined)
      throw new EvidenceInputError(
        `The service does not take evidence for ${t.answerName} in this response.`,
      );
    if (type.value === null && n > knownHighest) return { n, typeLock: type.lock_version };
  }
  throw new EvidenceInputError(`${t.answerName} already holds ${maxEvidenceItems} evidence items.`);
}

class StaleWrite extends Error {
  constructor(readonly variable: string) {
    super(`stale ${variable}`);
  }
}

async function read(t: Target, part: EvidencePart, n: number): Promise<ServiceValue | undefined> {
  const r = await t.client.readValue(
    t.entityId,
    t.responseId,
    evidenceVariable(t.answerName, part, n),
    t.signal,
  );
  return r.found ? r.value : undefined;
}

/** A value write echoing the version just read (or given); a 409 stops the whole addition. */
async function write(t: Target, variable: string, value: IndicatorValue, lockVersion?: string) {
  let lock = lockVersion;
  if (lock === undefined) {
    const r = await t.client.readValue(t.entityId, t.responseId, variable, t.signal);
    lock = r.found ? r.value.lock_version : '0';
  }
  const outcome = await t.client.writeValue(t.entityId, t.responseId, variable, value, lock, t.signal);
  if (!outcome.ok) throw new StaleWrite(variable);
  return { variable: outcome.value.variable, value: outcome.value.value };
}

function variablesOf(answer: RemoteDocumentAnswer): EvidenceItemView['variables'] {
  const out: EvidenceItemView['variables'] = {};
  for (const part of ['TYPE', 'LINK', 'DOCID', 'NOTES', 'SHARE'] as const) {
    const v = answer.variables[part];
    if (v) out[part] = { variable: v.variable, value: v.value };
  }
  return out;
}

const text = (v: IndicatorValue | undefined): string | null =>
  v === null || v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);

function itemView(
  answerName: string,
  itemNumber: number,
  variables: EvidenceItemView['variables'],
  known: { url: string | null; reportUrl: string | null; evidenceType?: string | undefined },
): EvidenceItemView {
  const share = variables.SHARE?.value;
  return {
    variable: indicatorOfEvidence(answerName)?.variable ?? null,
    answerName,
    itemNumber,
    evidenceType: text(variables.TYPE?.value) ?? known.evidenceType ?? null,
    url: text(variables.LINK?.value) ?? known.url,
    docId: text(variables.DOCID?.value),
    notes: text(variables.NOTES?.value),
    shared: share === null || share === undefined ? null : share === 1 || share === '1',
    reportUrl: known.reportUrl,
    variables,
  };
}
