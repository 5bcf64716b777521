import {
  documentAnswerSchema,
  oneResponseSchema,
  responseListSchema,
  responseValueSchema,
  valueConflictSchema,
  variableNotFoundMessage,
  type RemoteDocumentAnswer,
  type RemoteResponseSummary,
  type RemoteResponseValue,
} from '../../shared/responses/schemas';
import type { IndicatorValue } from '../../shared/responses/types';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';

/** A value as the app keeps it: always named (the service's answer may leave the name out). */
export type ServiceValue = Omit<RemoteResponseValue, 'variable'> & { variable: string };

/** A value read: the value, or the service's word that this response has no such variable (404). */
export type ValueRead = { found: true; value: ServiceValue } | { found: false; message: string };

/** A write of one answer: accepted (the stored row), or stale (the service's current value). */
export type ValueWriteOutcome = { ok: true; value: ServiceValue } | { ok: false; current: ServiceValue };

/** The body of POST .../documents: a link to a file hosted elsewhere, never the file itself. */
export interface DocumentLink {
  answer_name: string;
  lock_version: string;
  evidence_type: string;
  url: string;
}

/**
 * The v0 portfolio endpoints as the docs describe them, over the app's API client (its token, retries,
 * timeouts and error kinds). Every answer is parsed leniently into the shapes the app uses.
 */
export class ResponsesClient {
  constructor(private readonly api: SubmissionApiClient) {}

  list(entityId: number, signal?: AbortSignal): Promise<RemoteResponseSummary[]> {
    return this.api.callJson('GET', `/api/v0/entities/${entityId}/responses`, responseListSchema, {
      what: 'the portfolio responses',
      signal,
    });
  }

  /** GET of one response answers an array holding its summary (no values: those are read by variable). */
  get(entityId: number, responseId: number, signal?: AbortSignal): Promise<RemoteResponseSummary> {
    return this.api.callJson('GET', responsePath(entityId, responseId), oneResponseSchema, {
      what: `response ${responseId}`,
      signal,
    });
  }

  async readValue(
    entityId: number,
    responseId: number,
    variable: string,
    signal?: AbortSignal,
  ): Promise<ValueRead> {
    try {
      const value = await this.api.callJson(
        'GET',
        valuePath(entityId, responseId, variable),
        responseValueSchema,
        { what: `${variable} of response ${responseId}`, signal },
      );
      return { found: true, value: { ...value, variable: value.variable ?? variable } };
    } catch (error) {
      const message = notFoundVariable(error);
      if (message === undefined) throw error;
      return { found: false, message };
    }
  }

  /**
   * Optimistic locking: `lockVersion` is the version the answer was based on, echoed as the service
   * gave it. A 409 is not an error to the caller but an outcome: someone else wrote since, and their
   * value comes back to merge with (from the 409's body when it carries it, else read again).
   */
  async writeValue(
    entityId: number,
    responseId: number,
    variable: string,
    value: IndicatorValue,
    lockVersion: string,
    signal?: AbortSignal,
  ): Promise<ValueWriteOutcome> {
    const what = `${variable} of response ${responseId}`;
    try {
      const row = await this.api.callJson(
        'POST',
        valuePath(entityId, responseId, variable),
        responseValueSchema,
        {
          body: { lock_version: lockVersion, value },
          what,
          signal,
        },
      );
      return { ok: true, value: { ...row, variable: row.variable ?? variable } };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      const conflict = valueConflictSchema.safeParse(error.details.body);
      if (conflict.success)
        return {
          ok: false,
          current: { ...conflict.data.current, variable: conflict.data.current.variable ?? variable },
        };
      const read = await this.readValue(entityId, responseId, variable, signal);
      if (!read.found) throw error;
      return { ok: false, current: read.value };
    }
  }

  /** Evidence by link: the service records the item and answers its number, report link and variables. */
  addDocument(
    entityId: number,
    responseId: number,
    link: DocumentLink,
    signal?: AbortSignal,
  ): Promise<RemoteDocumentAnswer> {
    return this.api.callJson(
      'POST',
      `${responsePath(entityId, responseId)}/documents`,
      documentAnswerSchema,
      {
        body: link,
        what: `evidence for ${link.answer_name} of response ${responseId}`,
        signal,
      },
    );
  }
}

/**
 * The service's word that a variable is not in this response: its 404 ("Variable could not be
 * found." in the docs; any 404 of a value once the response itself was read), else undefined.
 */
export function notFoundVariable(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 404) return undefined;
  const body = error.details.body;
  const known = variableNotFoundMessage(body);
  if (known) return known;
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const said = [record['message'], record['error']].find((v) => typeof v === 'string' && v !== '');
  return typeof said === 'string' ? said.slice(0, 300) : 'Variable could not be found.';
}

function responsePath(entityId: number, responseId: number): string {
  return `/api/v0/entities/${entityId}/responses/${responseId}`;
}

function valuePath(entityId: number, responseId: number, variable: string): string {
  return `${responsePath(entityId, responseId)}/values/${encodeURIComponent(variable)}`;
}
