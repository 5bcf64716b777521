import { z } from 'zod';
import { sameIndicatorValue, type ResponsesSyncReport } from '../../shared/responses/types';
import { ApiError } from '../sync/api-errors';
import type { SubmissionApiClient } from '../sync/api-client';
import type { ResponsesStore } from './responses-store';

export interface ResponsesSyncOptions {
  store: ResponsesStore;
  client: SubmissionApiClient;
  entityId: number;
  signal?: AbortSignal | undefined;
  /** Told why a sync stopped early (offline, refused token). */
  onStop?: ((error: ApiError) => void) | undefined;
}

/** How many responses are read at once: a handful per entity, each one small. */
const pullConcurrency = 4;

const validationBody = z.object({
  _validations: z.object({ errors: z.record(z.string(), z.array(z.string())) }),
});

/**
 * Reads every response of the entity into the store. A response the service will not show (a
 * historical one the entity has not authorised: 403, or gone: 404) keeps what was read before and
 * says why; any other failure stops the pull.
 */
export async function pullResponses(
  opts: ResponsesSyncOptions,
): Promise<{ pulled: number; conflicts: Array<{ responseId: number; variable: string }> }> {
  const { store, client, entityId, signal } = opts;
  const summaries = await client.listResponses(entityId, signal);
  store.saveList(summaries);
  const conflicts: Array<{ responseId: number; variable: string }> = [];
  let pulled = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < summaries.length) {
      const summary = summaries[next++];
      if (!summary) continue;
      try {
        const detail = await client.getResponse(entityId, summary.id, signal);
        for (const variable of store.applyRemote(detail)) conflicts.push({ responseId: detail.id, variable });
        pulled++;
      } catch (error) {
        if (error instanceof ApiError && (error.kind === 'forbidden' || error.kind === 'not_found')) {
          store.markUnavailable(summary.id, error.message);
          continue;
        }
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pullConcurrency, summaries.length) }, worker));
  return { pulled, conflicts };
}

/**
 * Pulls, then sends each pending answer with the lock_version it was based on. A stale version
 * (409) never overwrites: the service's value is merged like a pulled one, which makes it a
 * conflict for the analyst, or a success when it is the very value sent (a write whose answer was
 * lost), or a retry when only the version moved. So a resend after a lost answer is always safe.
 */
export async function syncResponses(opts: ResponsesSyncOptions): Promise<ResponsesSyncReport> {
  const { store, client, entityId, signal } = opts;
  const report: ResponsesSyncReport = { pulled: 0, sent: 0, conflicts: [], rejected: [] };
  try {
    const pull = await pullResponses(opts);
    report.pulled = pull.pulled;
    for (const item of store.pending()) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const current = store.value(item.responseId, item.variable);
        if (!current || current.status !== 'modified') break;
        const sent = current.value;
        try {
          const outcome = await client.writeResponseValue(
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
          store.stale(item.responseId, item.variable, outcome.current);
          // Only the version moved (same value rewritten): the answer is resent over it, once.
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
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
  } catch (error) {
    if (error instanceof ApiError) {
      opts.onStop?.(error);
      report.stopped = {
        reason: error.kind === 'unauthorized' ? 'unauthorized' : 'error',
        message: error.message,
      };
    } else throw error;
  }
  for (const item of store.list()) {
    if (item.conflicts === 0) continue;
    const detail = store.detail(item.id);
    for (const value of detail?.values ?? [])
      if (value.status === 'conflict')
        report.conflicts.push({ responseId: item.id, variable: value.variable });
  }
  return report;
}

function serviceMessages(error: ApiError): string[] {
  const parsed = validationBody.safeParse(error.details.body);
  if (parsed.success) {
    const messages = Object.values(parsed.data._validations.errors).flat();
    if (messages.length > 0) return messages;
  }
  return [error.message];
}
