/**
 * /api/v0 portfolio responses of the sandbox against the service's docs: every documented request
 * gets the documented outcome (status and shape), values lock optimistically (409 with the current
 * value), evidence is a link (JSON), never an upload.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedResponses } from '../../sandbox/seed-responses';
import { migrations } from '../../sandbox/store/migrations';
import { openStore } from '../../sandbox/store';
import * as docs from '../fixtures/service-docs/responses';
import { asJson, asList, assessmentYear, startHarness, type Harness, type Json } from './helpers';

let h: Harness;
let openId: number;
let submittedId: number;
const base = (): string => `/api/v0/entities/${h.entityId}/responses`;
/** A documented exchange's path, on the sandbox's entity and open response. */
const onSandbox = (x: docs.DocsExchange, responseId = openId): string =>
  `${base()}/${responseId}${x.path.replace(/^.*\/responses\/\d+/, '')}`;
const keys = (v: unknown): string[] => Object.keys(asJson(v)).sort();
const post = (pathname: string, body: unknown, token?: string) =>
  h.api('POST', pathname, { body, ...(token ? { token } : {}) });

beforeAll(async () => {
  h = await startHarness();
  seedResponses(h.server.store, h.entityId, assessmentYear);
  const list = asList((await h.api('GET', base())).body);
  openId = list.find((r) => r['survey_open'] === true)?.['id'] as number;
  submittedId = list.find((r) => r['status'] === 'submitted')?.['id'] as number;
});
afterAll(async () => {
  await h.close();
});

describe('responses and values in the documented shapes', () => {
  it('lists summaries with exactly the documented fields; last year submitted and closed', async () => {
    const r = await h.api('GET', base());
    expect(r.status).toBe(200);
    const list = asList(r.body);
    const documented = asList(docs.responsesList.body)[0];
    expect(list.map(keys)).toEqual([keys(documented), keys(documented)]);
    expect(list.map((x) => [x['survey_year'], x['status'], x['survey_open'], x['assessment_type']])).toEqual([
      [assessmentYear, 'in_progress', true, 'real_estate'],
      [assessmentYear - 1, 'submitted', false, 'real_estate'],
    ]);
    const entity = h.admin.getEntity(h.entityId);
    expect(list[0]).toMatchObject({
      id: openId,
      entity_id: h.entityId,
      name: entity?.name,
      business_line: 'real_estate',
    });
    expect(typeof list[0]?.['percent_completed']).toBe('number');
  });

  it('GET of one answers an array of one summary, without values or documents', async () => {
    const one = await h.api('GET', `${base()}/${openId}`);
    expect(one.status).toBe(200);
    expect(asList(one.body)).toEqual([asList((await h.api('GET', base())).body)[0]]);
  });

  it('a value has exactly the documented fields, lock_version a string; one never written is null at "0"', async () => {
    const written = await h.api('GET', onSandbox(docs.valueRead));
    expect(keys(written.body)).toEqual(keys(docs.valueRead.body));
    expect(written.body).toMatchObject({ variable: 'PO_1', value: '1', lock_version: '1' });
    const never = await h.api('GET', `${base()}/${openId}/values/LE3_governance`);
    expect(never.body).toMatchObject({ value: null, lock_version: '0', updated_at: null });
  });

  it('a variable that is not whitelisted is the documented 404, read or written', async () => {
    const write = await post(onSandbox(docs.valueUnknown404), docs.valueUnknown404.request);
    expect([write.status, write.body]).toEqual([404, docs.valueUnknown404.body]);
    const read = await h.api('GET', onSandbox(docs.valueUnknown404));
    expect([read.status, read.body]).toEqual([404, docs.valueUnknown404.body]);
    expect((await h.api('GET', `${base()}/999999`)).status).toBe(404);
    expect((await h.api('GET', `/api/v0/entities/${h.otherEntityId}/responses`)).status).toBe(403);
  });

  it('needs read:responses to read and write:responses to write', async () => {
    const readOnly = h.tokenWith(['read:responses']);
    expect((await h.api('GET', base(), { token: h.tokenWith(['read:assets']) })).status).toBe(403);
    expect((await h.api('GET', base(), { token: readOnly })).status).toBe(200);
    expect(
      (await post(onSandbox(docs.valueWriteRequest), docs.valueWriteRequest.body, readOnly)).status,
    ).toBe(403);
    expect((await post(`${base()}/${openId}/documents`, docs.documentRequest.body, readOnly)).status).toBe(
      403,
    );
  });
});

describe('the documented requests', () => {
  it('a value write ("1" / "1") answers the stored answer row, lock_version an integer', async () => {
    const r = await post(onSandbox(docs.valueWriteRequest), docs.valueWriteRequest.body);
    expect(r.status).toBe(200);
    expect(keys(r.body)).toEqual(keys(docs.valueWriteAnswer.body));
    expect(r.body).toMatchObject({ variable: 'PO_1', value: '1', lock_version: 2, analysis_id: openId });
    expect(typeof asJson(r.body)['id']).toBe('number');
    expect((await h.api('GET', onSandbox(docs.valueRead))).body).toMatchObject({ lock_version: '2' });
  });

  it('a hyperlink: TYPE "H" with a string version, LINK with an integer one', async () => {
    const type = onSandbox(docs.evidenceTypeRequest);
    const link = onSandbox(docs.evidenceLinkRequest);
    // Each documented write echoes version 1: the item's first writes bring it there.
    expect((await post(type, { lock_version: '0', value: 'H' })).status).toBe(200);
    const typed = await post(type, docs.evidenceTypeRequest.body);
    expect([typed.status, asJson(typed.body)['value']]).toEqual([200, 'H']);
    expect((await post(link, { lock_version: 0, value: 'https://www.example.org/' })).status).toBe(200);
    const linked = await post(link, docs.evidenceLinkRequest.body);
    expect(linked.status).toBe(200);
    expect(keys(linked.body)).toEqual(keys(docs.evidenceLinkAnswer.body));
    expect(linked.body).toMatchObject({
      variable: 'PO_1_A1_EVD_LINK_1',
      value: asJson(docs.evidenceLinkRequest.body)['value'],
      lock_version: 2,
    });
  });

  it('a file by link (JSON): the next item, its report link and variables; then the share flag as the number 1', async () => {
    const r = await post(onSandbox(docs.documentRequest), docs.documentRequest.body);
    expect(r.status).toBe(200);
    expect(keys(r.body)).toEqual(keys(docs.documentAnswer.body));
    const answer = asJson(r.body);
    expect(answer).toMatchObject({ answer_name: 'PO_1_A1_EVD', item_number: 2, evidence_type: 'F' });
    expect(String(answer['report_url'])).toMatch(new RegExp(`^${h.baseUrl}/portal/view/`));
    const variables = asJson(answer['variables']);
    expect(Object.keys(variables).sort()).toEqual(keys(asJson(docs.documentAnswer.body)['variables']));
    expect(variables).toMatchObject({
      TYPE: { variable: 'PO_1_A1_EVD_TYPE_2', value: 'F' },
      DOCID: { variable: 'PO_1_A1_EVD_DOCID_2', value: expect.stringMatching(/^\d+$/) },
      NOTES: { variable: 'PO_1_A1_EVD_NOTES_2', value: null },
      SHARE: { variable: 'PO_1_A1_EVD_SHARE_2', value: null },
    });
    const share = await post(onSandbox(docs.evidenceShareRequest), docs.evidenceShareRequest.body);
    expect(share.status).toBe(200);
    expect(keys(share.body)).toEqual(keys(docs.evidenceShareAnswer.body));
    expect(share.body).toMatchObject({ variable: 'PO_1_A1_EVD_SHARE_2', value: 1, lock_version: 2 });
  });
});

describe('locking and checks', () => {
  const value = (variable: string) => `${base()}/${openId}/values/${variable}`;

  it('a stale lock_version gets 409 with the current value (its version a string), and nothing changes', async () => {
    const current = asJson((await h.api('GET', value('LE1_objectives'))).body);
    const ok = await post(value('LE1_objectives'), {
      value: ['public', 'internal'],
      lock_version: current['lock_version'],
    });
    expect(ok.status).toBe(200);
    const stale = await post(value('LE1_objectives'), {
      value: ['investors'],
      lock_version: current['lock_version'],
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'conflict',
      current: {
        variable: 'LE1_objectives',
        value: ['public', 'internal'],
        lock_version: String(Number(current['lock_version']) + 1),
      },
    });
    expect(asJson((await h.api('GET', value('LE1_objectives'))).body)['value']).toEqual([
      'public',
      'internal',
    ]);
  });

  it('values are checked against the catalog (422) and the body shape (400)', async () => {
    const refused = async (variable: string, body: unknown) => (await post(value(variable), body)).status;
    expect(await refused('LE2_responsible', { value: 'sometimes', lock_version: '1' })).toBe(422);
    expect(await refused('LE1_objectives', { value: 'public', lock_version: 2 })).toBe(422);
    expect(await refused('RS1_tenant_engagement', { value: 'x'.repeat(1001), lock_version: 0 })).toBe(422);
    expect(await refused('PO_1_A1_EVD_SHARE_5', { value: 2, lock_version: 0 })).toBe(422);
    const local = await post(value('PO_1_A1_EVD_LINK_5'), {
      value: 'C:\\Reports\\policy.pdf',
      lock_version: 0,
    });
    expect(local.status).toBe(422);
    expect(JSON.stringify(local.body)).toMatch(/file on this computer/);
    expect(await refused('DV1_design_standard', { value: 'yes' })).toBe(400);
    expect(await refused('DV1_design_standard', { value: 'yes', lock_version: 'one' })).toBe(400);
    // The number 1 answers a radio whose code is "1".
    const v = asJson((await h.api('GET', value('PO_1'))).body)['lock_version'];
    expect(await refused('PO_1', { value: 1, lock_version: v })).toBe(200);
  });

  it('a submitted response (survey closed) is read-only, for values and evidence', async () => {
    const r = await post(`${base()}/${submittedId}/values/LE2_responsible`, {
      value: 'none',
      lock_version: '1',
    });
    expect(r.status).toBe(403);
    expect(asJson(r.body)['message']).toMatch(/read-only/);
    expect((await post(`${base()}/${submittedId}/documents`, docs.documentRequest.body)).status).toBe(403);
  });
});

describe('evidence documents are links, not uploads', () => {
  const documents = () => `${base()}/${openId}/documents`;
  const link = {
    answer_name: 'LE1_objectives_EVD',
    lock_version: '0',
    evidence_type: 'F',
    url: 'https://files.example.org/a.pdf',
  };

  it('refuses an upload (multipart) or a form with 415, saying to send a link', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array([37, 80, 68, 70])], { type: 'application/pdf' }),
      'policy.pdf',
    );
    const multipart = await fetch(`${h.baseUrl}${documents()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}` },
      body: form,
    });
    expect(multipart.status).toBe(415);
    expect(((await multipart.json()) as Json)['message']).toMatch(/link to a file hosted elsewhere/);
    const urlencoded = await h.api('POST', documents(), {
      body: new URLSearchParams(link).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(urlencoded.status).toBe(415);
  });

  it('needs every field, a known answer, type F and a web address', async () => {
    const { url: _url, ...noUrl } = link;
    const missing = await post(documents(), noUrl);
    expect(missing.status).toBe(400);
    expect(asJson(missing.body)['message']).toMatch(/url/);
    const unknown = await post(documents(), { ...link, answer_name: 'NOPE_EVD' });
    expect([unknown.status, unknown.body]).toEqual([404, docs.valueUnknown404.body]);
    const hyperlink = await post(documents(), { ...link, evidence_type: 'H' });
    expect(hyperlink.status).toBe(422);
    const local = await post(documents(), { ...link, url: '/home/analyst/policy.pdf' });
    expect(local.status).toBe(422);
    expect(JSON.stringify(local.body)).toMatch(/file on this computer/);
    const ok = await post(documents(), { ...link, lock_version: 0 });
    expect(ok.body).toMatchObject({ answer_name: 'LE1_objectives_EVD', item_number: 1 });
  });
});

describe('a sandbox database from before the documented shapes', () => {
  it('migrates responses {year, state} and integer-versioned values without loss', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-old-'));
    const old = new Database(path.join(dir, 'sandbox.sqlite'));
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of migrations.filter((x) => x.version <= 2)) {
      old.exec(m.sql);
      old.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(m.version, '2024-01-01T00:00:00Z');
    }
    const ts = '2024-05-01T00:00:00.000Z';
    const entity = old
      .prepare(
        "INSERT INTO entities (name, manager, created_at, updated_at) VALUES ('Old Fund', 'Old Manager', ?, ?)",
      )
      .run(ts, ts);
    const eid = Number(entity.lastInsertRowid);
    const insert = old.prepare(
      'INSERT INTO responses (entity_id, year, name, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const closed = Number(
      insert.run(eid, 2023, '2023 Real Estate Assessment', 'submitted', ts, ts).lastInsertRowid,
    );
    const open = Number(insert.run(eid, 2024, '2024 Real Estate Assessment', 'open', ts, ts).lastInsertRowid);
    old
      .prepare("INSERT INTO response_values VALUES (?, 'LE2_responsible', '\"external\"', 3, ?)")
      .run(open, ts);
    old.close();

    const store = openStore(dir);
    try {
      expect(
        store.responses
          .list(eid)
          .map((r) => [r.id, r.survey_year, r.status, r.survey_open, r.name, r.manager]),
      ).toEqual([
        [open, 2024, 'in_progress', true, 'Old Fund', 'Old Manager'],
        [closed, 2023, 'submitted', false, 'Old Fund', 'Old Manager'],
      ]);
      expect(store.responses.getValue(open, 'LE2_responsible')).toMatchObject({
        value: 'external',
        lock_version: 3,
        created_at: ts,
      });
      expect(store.responses.writeValue(open, 'LE2_responsible', 'none', 3).ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
