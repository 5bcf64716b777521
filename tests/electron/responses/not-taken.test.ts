/**
 * Indicators the service does not take. The app ships seven indicators; the real service's docs name
 * one of them (PO_1, with its evidence) and answer the documented 404 ("Variable could not be
 * found.") for a variable that is not whitelisted. Against a replay server answering so, the sync
 * names the indicators this service does not take, keeps the analyst's answers to them, and sends
 * every other answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indicatorCatalog } from '../../../shared/responses/catalog';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import { syncResponses } from '../../../electron/responses/responses-sync';
import { startReplayServer, type ReplayRequest, type ReplayServer } from '../../support/replay-server';
import * as docs from '../../fixtures/service-docs/responses';
import { tempWorkspace } from '../../../support/sync-harness';

const E = 4107;
const R = 7701;
const base = `/api/v0/entities/${E}/responses`;
const valuePath = new RegExp(`^${base}/(\\d+)/values/([A-Za-z0-9_]+)$`);

/** What the service takes: every catalog variable, or only those its docs name (PO_1 and its evidence). */
let takes: (variable: string, method: string) => boolean = () => true;
const docsNamed = (variable: string) => variable === 'PO_1' || variable.startsWith('PO_1_A1_EVD_');

let replay: ReplayServer;
let core: SubmissionApiClient;

function answer(request: ReplayRequest) {
  const match = valuePath.exec(request.path);
  if (!match?.[2]) return { status: 404, body: { error: `no replay for ${request.path}` } };
  const variable = match[2];
  if (!takes(variable, request.method)) return { status: 404, body: docs.valueUnknown404.body };
  const row = (value: unknown) => ({
    body: { ...(docs.valueRead.body as object), variable, value, lock_version: '1' },
  });
  if (request.method === 'POST') return row((request.body as { value?: unknown }).value ?? null);
  return row(null);
}

beforeAll(async () => {
  replay = await startReplayServer(
    {
      [`GET ${base}`]: { body: docs.responsesList.body },
      [`GET ${base}/${R}`]: { body: docs.responseOne.body },
      [`GET ${base}/7702`]: { body: [(docs.responsesList.body as object[])[1]] },
    },
    answer,
  );
  core = new SubmissionApiClient({ baseUrl: replay.baseUrl, getToken: () => 'replay-token', retries: 0 });
});
afterAll(async () => {
  await replay.close();
});

describe('indicators the service does not take', () => {
  it('names them, keeps their answers unsent, and never blocks the others', async () => {
    const { store: workspace, file } = tempWorkspace('not-taken');
    const store = ResponsesStore.open(file);
    try {
      // Read while the service showed every variable: the analyst answers three of them.
      takes = () => true;
      expect((await syncResponses({ store, client: core, entityId: E })).notTaken).toEqual([]);
      store.setValue(R, 'LE2_responsible', 'dedicated');
      store.setValue(R, 'PO_1', '0');
      store.setValue(R, 'RS1_tenant_engagement', 'Quarterly meetings');

      // The service now refuses writes to a variable it does not whitelist: the documented 404.
      takes = (variable, method) => method === 'GET' || docsNamed(variable) || variable.startsWith('RS1');
      replay.requests.length = 0;
      const writes = await syncResponses({ store, client: core, entityId: E });
      expect(writes.stopped).toBeUndefined();
      expect(writes.sent).toBe(2);
      expect(writes.rejected).toEqual([]);
      expect(writes.notTaken).toEqual([
        {
          variable: 'LE2_responsible',
          label: 'Who is responsible for ESG?',
          message: 'Variable could not be found.',
        },
      ]);
      const posted = replay.requests.filter((r) => r.method === 'POST').map((r) => r.path.split('/').pop());
      // The refused one went first (in order); the ones after it went all the same.
      expect(posted).toEqual(['LE2_responsible', 'PO_1', 'RS1_tenant_engagement']);
      const le2 = store.detail(R)?.values.find((v) => v.variable === 'LE2_responsible');
      expect(le2).toMatchObject({ value: 'dedicated', available: false });
      expect(le2?.serverErrors).toBeUndefined();

      // As the real service: only the variables its docs name are there; the other six answer 404.
      takes = (variable) => docsNamed(variable);
      const pulled = await syncResponses({ store, client: core, entityId: E });
      expect(pulled.stopped).toBeUndefined();
      expect(pulled.pulled).toBe(2);
      const others = indicatorCatalog.filter((d) => d.variable !== 'PO_1');
      expect(others).toHaveLength(6);
      expect(pulled.notTaken).toEqual(
        others.map((d) => ({
          variable: d.variable,
          label: d.label,
          message: 'Variable could not be found.',
        })),
      );
      expect(store.detail(R)?.values.find((v) => v.variable === 'PO_1')).toMatchObject({ available: true });
      // What the analyst wrote for a variable the service does not take is kept, not lost.
      expect(store.detail(R)?.values.find((v) => v.variable === 'LE2_responsible')?.value).toBe('dedicated');
    } finally {
      store.close();
      workspace.close();
    }
  });
});
