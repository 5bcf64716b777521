/**
 * Every responses, values and evidence answer the real service's docs publish goes through the app's
 * own client (and its pull and evidence flows) over real HTTP from a replay server: no error, no field
 * the app uses lost, and the requests it sends are the documented ones.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SubmissionApiClient } from '../../../electron/service-client/service-client';
import { ApiError } from '../../../electron/service-client/errors';
import { ResponsesClient } from '../../../electron/responses/responses-client';
import { ResponsesStore } from '../../../electron/responses/responses-store';
import { syncResponses } from '../../../electron/responses/responses-sync';
import { addEvidence } from '../../../electron/responses/evidence';
import { startReplayServer, type ReplayServer } from '../../support/replay-server';
import * as docs from '../../fixtures/service-docs/responses';
import { tempWorkspace } from '../../../support/sync-harness';

const E = 4107;
const R = 7701;
const SFDR = 7702;
const values = `/api/v0/entities/${E}/responses/${R}/values`;
let replay: ReplayServer;
let api: ResponsesClient;
let core: SubmissionApiClient;

type Row = Record<string, unknown>;
const body = <T = Row>(x: docs.DocsExchange): T => structuredClone(x.body) as T;
/** A documented answer row, holding what was written (the docs' row is one example of it). */
const rowEcho = (answer: docs.DocsExchange, variable: string) => (request: { body: unknown }) => ({
  body: { ...body(answer), variable, value: (request.body as Row)['value'] },
});
const valueOf = (variable: string, value: unknown, lock: string) => ({
  body: { ...body(docs.valueRead), variable, value, lock_version: lock },
});

beforeAll(async () => {
  replay = await startReplayServer(
    {
      [`GET /api/v0/entities/${E}/responses`]: { body: docs.responsesList.body },
      [`GET /api/v0/entities/${E}/responses/${R}`]: { body: docs.responseOne.body },
      [`GET /api/v0/entities/${E}/responses/${SFDR}`]: {
        body: [(docs.responsesList.body as Row[])[1]],
      },
      [`GET ${values}/PO_1`]: { body: docs.valueRead.body },
      [`POST ${values}/PO_1`]: rowEcho(docs.valueWriteAnswer, 'PO_1'),
      // The evidence answer PO_1_A1_EVD: item 1 a hyperlink, item 2 free, as in the docs' walk-through.
      [`GET ${values}/PO_1_A1_EVD_TYPE_1`]: valueOf('PO_1_A1_EVD_TYPE_1', 'H', '1'),
      [`GET ${values}/PO_1_A1_EVD_LINK_1`]: valueOf(
        'PO_1_A1_EVD_LINK_1',
        'https://www.example.org/sustainability/policies',
        '1',
      ),
      [`GET ${values}/PO_1_A1_EVD_NOTES_1`]: valueOf('PO_1_A1_EVD_NOTES_1', null, '1'),
      [`GET ${values}/PO_1_A1_EVD_TYPE_2`]: valueOf('PO_1_A1_EVD_TYPE_2', null, '0'),
      [`GET ${values}/PO_1_A1_EVD_SHARE_2`]: valueOf('PO_1_A1_EVD_SHARE_2', null, '1'),
      [`POST ${values}/PO_1_A1_EVD_LINK_1`]: { body: docs.evidenceLinkAnswer.body },
      [`POST ${values}/PO_1_A1_EVD_SHARE_2`]: { body: docs.evidenceShareAnswer.body },
      [`POST /api/v0/entities/${E}/responses/${R}/documents`]: { body: docs.documentAnswer.body },
    },
    // Any other variable is not whitelisted: the documented 404.
    () => ({ status: 404, body: docs.valueUnknown404.body }),
  );
  core = new SubmissionApiClient({ baseUrl: replay.baseUrl, getToken: () => 'replay-token', retries: 0 });
  api = new ResponsesClient(core);
});
afterAll(async () => {
  await replay.close();
});
beforeEach(() => {
  replay.requests.length = 0;
});

describe('the documented answers through the client', () => {
  it('the responses list and GET of one (an array of one) keep every summary field', async () => {
    const list = await api.list(E);
    expect(list).toEqual(docs.responsesList.body);
    expect(await api.get(E, R)).toEqual((docs.responseOne.body as Row[])[0]);
  });

  it('a value keeps its lock_version as the string the service gave', async () => {
    expect(await api.readValue(E, R, 'PO_1')).toEqual({ found: true, value: docs.valueRead.body });
  });

  it('a write sends the documented body, echoing the version as a string, and reads the answer row', async () => {
    const outcome = await api.writeValue(E, R, 'PO_1', '1', '1');
    expect(replay.requests.at(-1)?.body).toEqual(docs.valueWriteRequest.body);
    expect(replay.requests.at(-1)?.headers['content-type']).toBe('application/json');
    const row = body(docs.valueWriteAnswer);
    expect(outcome).toEqual({
      ok: true,
      value: {
        variable: 'PO_1',
        value: '1',
        lock_version: String(row['lock_version']),
        created_at: row['created_at'],
        updated_at: row['updated_at'],
      },
    });
  });

  it('the 404 of a variable that is not whitelisted: a read is "not available", a write an error with its words', async () => {
    expect(await api.readValue(E, R, 'SCORE_LE_1')).toEqual({
      found: false,
      message: 'Variable could not be found.',
    });
    const write = api.writeValue(E, R, 'SCORE_LE_1', '1', '1');
    await expect(write).rejects.toBeInstanceOf(ApiError);
    await expect(write).rejects.toMatchObject({
      kind: 'not_found',
      message: /Variable could not be found\./,
    });
  });

  it('a hyperlink and a share flag are value writes; the number 1 stays a number', async () => {
    const link = await api.writeValue(
      E,
      R,
      'PO_1_A1_EVD_LINK_1',
      'https://www.example.org/sustainability/policies',
      '1',
    );
    expect(link).toMatchObject({
      ok: true,
      value: { value: 'https://www.example.org/sustainability/policies', lock_version: '1' },
    });
    const share = await api.writeValue(E, R, 'PO_1_A1_EVD_SHARE_2', 1, '1');
    expect(replay.requests.at(-1)?.body).toEqual({ lock_version: '1', value: 1 });
    expect(share).toMatchObject({
      ok: true,
      value: { variable: 'PO_1_A1_EVD_SHARE_2', value: 1, lock_version: '1' },
    });
  });

  it('a document is posted as the documented JSON and its answer keeps number, report link and variables', async () => {
    const request = body<{ answer_name: string; lock_version: string; evidence_type: string; url: string }>(
      docs.documentRequest,
    );
    const answer = await api.addDocument(E, R, request);
    expect(replay.requests.at(-1)?.body).toEqual(docs.documentRequest.body);
    expect(answer).toEqual(docs.documentAnswer.body);
  });

  it('unknown fields are ignored, and varied types are read (integer lock_version, array and number values)', async () => {
    const varied = await startReplayServer({
      'GET /api/v0/entities/1/responses/2/values/A': {
        body: {
          variable: 'A',
          value: ['x', 3],
          lock_version: 7,
          created_at: null,
          updated_at: null,
          extra: { x: 1 },
        },
      },
      'GET /api/v0/entities/1/responses/2/values/B': {
        body: { variable: 'B', value: 2.5, lock_version: '12' },
      },
      'GET /api/v0/entities/1/responses/2': {
        body: { ...(docs.responseOne.body as Row[])[0], id: 2, score: 99 },
      },
    });
    try {
      const client = new ResponsesClient(
        new SubmissionApiClient({ baseUrl: varied.baseUrl, getToken: () => 't', retries: 0 }),
      );
      expect(await client.readValue(1, 2, 'A')).toMatchObject({
        found: true,
        value: { value: ['x', '3'], lock_version: '7' },
      });
      expect(await client.readValue(1, 2, 'B')).toMatchObject({
        found: true,
        value: { value: 2.5, lock_version: '12' },
      });
      expect(await client.get(1, 2)).not.toHaveProperty('score');
    } finally {
      await varied.close();
    }
  });

  it('an answer the app cannot use fails naming the field', async () => {
    const broken = await startReplayServer({
      'GET /api/v0/entities/1/responses': {
        body: [{ ...(docs.responseOne.body as Row[])[0], survey_open: undefined }],
      },
    });
    try {
      const client = new ResponsesClient(
        new SubmissionApiClient({ baseUrl: broken.baseUrl, getToken: () => 't', retries: 0 }),
      );
      await expect(client.list(1)).rejects.toThrow(/0\.survey_open/);
    } finally {
      await broken.close();
    }
  });
});

describe('the documented answers through a pull and the evidence flow', () => {
  it('pulls both responses; a variable the service does not have is "not available", not a failure', async () => {
    const { store: workspace, file } = tempWorkspace('docs-responses');
    const store = ResponsesStore.open(file);
    try {
      const report = await syncResponses({ store, client: core, entityId: E });
      expect(report).toMatchObject({ pulled: 2, sent: 0, conflicts: [], rejected: [] });
      expect(report.stopped).toBeUndefined();
      const list = store.list();
      expect(list.map((r) => [r.id, r.status, r.assessment_type, r.readOnly])).toEqual([
        [R, 'in_progress', 'real_estate', false],
        [SFDR, 'new', 'sfdr_re', false],
      ]);
      const detail = store.detail(R);
      expect(detail?.values.find((v) => v.variable === 'PO_1')).toMatchObject({
        value: '1',
        lockVersion: '1',
        available: true,
        status: 'clean',
      });
      expect(detail?.values.find((v) => v.variable === 'LE2_responsible')).toMatchObject({
        available: false,
        unavailableReason: 'Variable could not be found.',
      });
      expect(detail?.evidence).toMatchObject([
        {
          answerName: 'PO_1_A1_EVD',
          itemNumber: 1,
          evidenceType: 'H',
          url: 'https://www.example.org/sustainability/policies',
        },
      ]);
      expect(store.detail(SFDR)?.values.every((v) => !v.available)).toBe(true);
      expect(() => store.setValue(R, 'LE2_responsible', 'none')).toThrow(/not available/);

      // An edit goes out echoing the version as read ("1"); the answer row becomes the new base.
      store.setValue(R, 'PO_1', '0');
      replay.requests.length = 0;
      expect((await syncResponses({ store, client: core, entityId: E })).sent).toBe(1);
      const write = replay.requests.find((r) => r.method === 'POST');
      expect(write).toMatchObject({ path: `${values}/PO_1`, body: { lock_version: '1', value: '0' } });
    } finally {
      store.close();
      workspace.close();
    }
  });

  it('a file by link: POST documents as documented, then the share flag on the variable the answer named', async () => {
    replay.requests.length = 0;
    const item = await addEvidence(
      { client: api, entityId: E, responseId: R, answerName: 'PO_1_A1_EVD' },
      { evidenceType: 'F', url: 'https://files.example.org/esg/environmental-policy-2025.pdf', share: true },
      1,
    );
    const posts = replay.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, r.body])).toEqual([
      [`/api/v0/entities/${E}/responses/${R}/documents`, docs.documentRequest.body],
      [`${values}/PO_1_A1_EVD_SHARE_2`, { lock_version: '1', value: 1 }],
    ]);
    const answer = body<{ item_number: number; report_url: string }>(docs.documentAnswer);
    expect(item).toMatchObject({
      answerName: 'PO_1_A1_EVD',
      itemNumber: answer.item_number,
      evidenceType: 'F',
      url: 'https://files.example.org/esg/environmental-policy-2025.pdf',
      reportUrl: answer.report_url,
      docId: '550321',
      shared: true,
      variables: { TYPE: { variable: 'PO_1_A1_EVD_TYPE_2', value: 'F' }, SHARE: { value: 1 } },
    });
  });
});
