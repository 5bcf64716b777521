import { z } from 'zod';
import { indicatorCatalog } from '../../shared/responses/catalog';
import { variableNotFoundMessage } from '../../shared/responses/schemas';
import {
  sameIndicatorValue,
  type EvidenceItemView,
  type ResponseDetail,
  type ResponsesSyncReport,
} from '../../shared/responses/types';
import { ApiError } from '../service-client/errors';
import type { SubmissionApiClient } from '../service-client/service-client';
import { readEvidence } from './evidence';
import { ResponsesClient, type ServiceValue } from './responses-client';
import type { PulledResponse, ResponsesStore } from './responses-store';

export interface ResponsesSyncOptions {
  store: ResponsesStore;
  client: SubmissionApiClient;
  entityId: number;
  signal?: AbortSignal | undefined;
  /** Told why a sync stopped early (offline, refused token). */
  onStop?: ((error: ApiError) => void) | undefined;
}

/** Reads in flight at once: a response is a few dozen small GETs, one per variable. */
const readConcurrency = 4;

const validationBody = z.object({
  _validations: z.object({ errors: z.record(z.string(), z.array(z.string())) }),
});

async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * One response as the service holds it: its summary (GET of one), each catalog variable's value
 * (GET values/{variable}; a 404 marks that variable not available, not the response failed) and
 * the items of each evidence answer.
 */
async function pullOne(
  api: ResponsesClient,
  store: ResponsesStore,
  entityId: number,
  responseId: number,
  signal?: AbortSignal,
): Promise<PulledResponse> {
  const summary = await api.get(entityId, responseId, signal);
  const values: ServiceValue[] = [];
  const unavailable: PulledResponse['unavailable'] = [];
  await eachLimited(indicatorCatalog, readConcurrency, async (def) => {
    const read = await api.readValue(entityId, responseId, def.variable, signal);
    if (read.found) values.push(read.value);
    else unavailable.push({ variable: def.variable, message: read.message });
  });
  const evidence = new Map<string, EvidenceItemView[]>();
  const stored = store.evidence(responseId);
  const answers = indicatorCatalog.flatMap((d) =>
    d.evidence === undefined || unavailable.some((u) => u.variable === d.variable) ? [] : [d.evidence],
  );
  await eachLimited(answers, readConcurrency, async (answerName) => {
    const highest = Math.max(
      0,
      ...stored.filter((e) => e.answerName === answerName).map((e) => e.itemNumber ?? 0),
    );
    const items = await readEvidence({ client: api, entityId, responseId, answerName, signal }, highest);
    if (items) evidence.set(answerName, items);
  });
  return { summary: { ...summary, id: responseId }, values, unavailable, evidence };
}

/**
 * Reads every response of the entity into the store. A response the service will not show (a
 * historical one the entity has not authorised: 403, or gone: 404) keeps what was read before and
 * says why; any other failure stops the pull.
 */
export async function pullResponses(
  opts: ResponsesSyncOptions,
): Promise<{ pulled: number; conflicts: Array<{ responseId: number; variable: string }> }> {
  const { store, entityId, signal } = opts;
  const api = new ResponsesClient(opts.client);
  const summaries = await api.list(entityId, signal);
  store.saveList(summaries);
  const conflicts: Array<{ responseId: number; variable: string }> = [];
  let pulled = 0;
  await eachLimited(summaries, 2, async (summary) => {
    try {
      const response = await pullOne(api, store, entityId, summary.id, signal);
      for (const variable of store.applyRemote(response))
        conflicts.push({ responseId: summary.id, variable });
      pulled++;
    } catch (error) {
      if (error instanceof ApiError && (error.kind === 'forbidden' || error.kind === 'not_found')) {
        store.markUnavailable(summary.id, error.message);
        return;
      }
      throw error;
    }
  });
  return { pulled, conflicts };
}

/**
 * Pulls, then sends each pending answer with the lock_version it was based on, as the service gave
 * it. A stale version (409) never overwrites: the service's value is merged like a pulled one, which
 * makes it a conflict for the analyst, or a success when it is the very value sent (a write whose
 * answer was lost), or a retry when only the version moved. So a resend after a lost answer is safe.
 */
export async function syncResponses(opts: ResponsesSyncOptions): Promise<ResponsesSyncReport> {
  const { store, entityId, signal } = opts;
  const api = new ResponsesClient(opts.client);
  const report: ResponsesSyncReport = { pulled: 0, sent: 0, conflicts: [], rejected: [], notTaken: [] };
  /** Variables whose write the service answered with its "Variable could not be found." 404. */
  const refused = new Map<string, string>();
  try {
    const pull = await pullResponses(opts);
    report.pulled = pull.pulled;
    for (const item of store.pending()) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const current = store.value(item.responseId, item.variable);
        if (!current || current.status !== 'modified') break;
        const sent = current.value;
        try {
          const outcome = await api.writeValue(
            entityId,
            item.responseId,
            item.variable,
            sent,
            current.lockVersion,
            signal,
          );
          if (outcome.ok) {
            store.acknowledge(item.responseId, item.variable, sent, outcome.value);
            report.sent++;
            break;
          }
          if (sameIndicatorValue(outcome.current.value, sent)) {
            store.acknowledge(item.responseId, item.variable, sent, outcome.current);
            report.sent++;
            break;
          }
          store.stale(item.responseId, outcome.current);
          // Only the version moved (same value rewritten): the answer is resent over it, once.
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const notTaken = error.status === 404 ? variableNotFoundMessage(error.details.body) : undefined;
          if (notTaken !== undefined) {
            // The service does not take this variable (not whitelisted): it is not available here,
            // the answer stays unsent, and the other answers go on.
            store.notTaken(item.responseId, item.variable, notTaken);
            refused.set(item.variable, notTaken);
            break;
          }
          if (error.kind === 'validation' || error.kind === 'forbidden' || error.kind === 'not_found') {
            const messages = serviceMessages(error);
            store.reject(item.responseId, item.variable, messages);
            report.rejected.push({
              responseId: item.responseId,
              variable: item.variable,
              message: messages.join('; '),
            });
            break;
          }
          throw error;
        }
      }
    }
    // The service's completion moved with the answers sent: its summaries are read again, or the
    // list would show the percentage of the pull before ("57 %" where the service says 71 %).
    if (report.sent > 0) store.saveList(await api.list(entityId, signal));
  } catch (error) {
    if (error instanceof ApiError) {
      opts.onStop?.(error);
      report.stopped = {
        reason: error.kind === 'unauthorized' ? 'unauthorized' : 'error',
        message: error.message,
      };
    } else throw error;
  }
  const details = store.list().flatMap((item) => {
    const detail = item.available ? store.detail(item.id) : undefined;
    return detail ? [detail] : [];
  });
  for (const detail of details) {
    for (const value of detail.values)
      if (value.status === 'conflict')
        report.conflicts.push({ responseId: detail.response.id, variable: value.variable });
  }
  report.notTaken = notTakenIndicators(details, refused);
  return report;
}

/**
 * The catalog's indicators this service does not take: those it refused a write of (`refused`), and
 * those no response it showed has (each one's value "not available", a 404, in every one of them).
 * One that some response has is only absent from the others.
 */
function notTakenIndicators(
  details: readonly ResponseDetail[],
  refused: ReadonlyMap<string, string>,
): ResponsesSyncReport['notTaken'] {
  return indicatorCatalog.flatMap((def) => {
    const views = details.map((d) => d.values.find((v) => v.variable === def.variable));
    const absent = views.length > 0 && views.every((v) => v !== undefined && !v.available);
    if (!absent && !refused.has(def.variable)) return [];
    const message =
      refused.get(def.variable) ??
      views.find((v) => v?.unavailableReason)?.unavailableReason ??
      'Variable could not be found.';
    return [{ variable: def.variable, label: def.label, message }];
  });
}

function serviceMessages(error: ApiError): string[] {
  const parsed = validationBody.safeParse(error.details.body);
  if (parsed.success) {
    const messages = Object.values(parsed.data._validations.errors).flat();
    if (messages.length > 0) return messages;
  }
  return [error.message];
}
