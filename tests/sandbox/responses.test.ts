import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedResponses } from '../../electron/sandbox/seed-responses';
import { asJson, asList, assessmentYear, startHarness, type Harness, type Json } from './helpers';

/** /api/v0 portfolio responses: list, one, values with optimistic locking, evidence documents. */
let h: Harness;
let openId: number;
let submittedId: number;
const base = (): string => `/api/v0/entities/${h.entityId}/responses`;

function upload(
  responseId: number,
  file: { name: string; type: string; bytes: Uint8Array } | null,
  fields: Record<string, string> = {},
  token = h.token,
): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
  return fetch(`${h.baseUrl}${base()}/${responseId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}
const pdf = (size = 1000): Uint8Array => {
  const b = new Uint8Array(size);
  b.set(new TextEncoder().encode('%PDF-1.7\n'));
  return b;
};

beforeAll(async () => {
  h = await startHarness();
  seedResponses(h.server.store, h.entityId, assessmentYear);
  const list = asList((await h.api('GET', base())).body);
  openId = list.find((r) => r['state'] === 'open')?.['id'] as number;
  submittedId = list.find((r) => r['state'] === 'submitted')?.['id'] as number;
});
afterAll(async () => {
  await h.close();
});

describe('responses', () => {
  it('lists the entity’s responses as { id, year, name, state, created_at, updated_at }', async () => {
    const r = await h.api('GET', base());
    expect(r.status).toBe(200);
    const list = asList(r.body);
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual([
      'created_at',
      'id',
      'name',
      'state',
      'updated_at',
      'year',
    ]);
    expect(list.map((x) => x['year'])).toEqual([assessmentYear, assessmentYear - 1]);
  });

  it('one response carries indicator definitions of the three kinds, values and documents', async () => {
    const r = asJson((await h.api('GET', `${base()}/${openId}`)).body);
    const indicators = r['indicators'] as Json[];
    expect(new Set(indicators.map((i) => i['kind']))).toEqual(new Set(['checkbox', 'radio', 'text']));
    const values = r['values'] as Json[];
    expect(values).toHaveLength(indicators.length);
    expect(values.find((v) => v['variable'] === 'LE1_objectives')).toMatchObject({
      value: ['public'],
      lock_version: 1,
    });
    expect(values.find((v) => v['variable'] === 'LE3_governance')).toMatchObject({
      value: null,
      lock_version: 0,
      updated_at: null,
    });
    expect(r['documents']).toEqual([]);
  });

  it('another entity’s response, an unknown id and an unknown variable are 404; an ungranted entity is 403', async () => {
    expect((await h.api('GET', `${base()}/999999`)).status).toBe(404);
    expect((await h.api('GET', `${base()}/${openId}/values/NOPE`)).status).toBe(404);
    expect((await h.api('GET', `/api/v0/entities/${h.otherEntityId}/responses`)).status).toBe(403);
  });

  it('needs read:responses to read and write:responses to write', async () => {
    const readOnly = h.tokenWith(['read:responses']);
    const assetsOnly = h.tokenWith(['read:assets']);
    expect((await h.api('GET', base(), { token: assetsOnly })).status).toBe(403);
    expect((await h.api('GET', base(), { token: readOnly })).status).toBe(200);
    const w = await h.api('POST', `${base()}/${openId}/values/LE2_responsible`, {
      token: readOnly,
      body: { value: 'none', lock_version: 1 },
    });
    expect(w.status).toBe(403);
  });
});

describe('values with lock_version', () => {
  it('a write echoing the current lock_version lands and increments it', async () => {
    const path = `${base()}/${openId}/values/LE3_governance`;
    const first = await h.api('POST', path, { body: { value: 'Board committee', lock_version: 0 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      variable: 'LE3_governance',
      value: 'Board committee',
      lock_version: 1,
    });
    const second = await h.api('POST', path, {
      body: { value: 'Board committee, quarterly', lock_version: 1 },
    });
    expect(asJson(second.body)['lock_version']).toBe(2);
    expect(asJson((await h.api('GET', path)).body)).toMatchObject({
      value: 'Board committee, quarterly',
      lock_version: 2,
    });
  });

  it('a stale lock_version gets 409 with the current value, and nothing changes', async () => {
    const path = `${base()}/${openId}/values/LE1_objectives`;
    const current = asJson((await h.api('GET', path)).body);
    const ok = await h.api('POST', path, {
      body: { value: ['public', 'internal'], lock_version: current['lock_version'] },
    });
    expect(ok.status).toBe(200);
    const stale = await h.api('POST', path, {
      body: { value: ['investors'], lock_version: current['lock_version'] },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      error: 'conflict',
      current: {
        variable: 'LE1_objectives',
        value: ['public', 'internal'],
        lock_version: Number(current['lock_version']) + 1,
      },
    });
    expect(asJson((await h.api('GET', path)).body)['value']).toEqual(['public', 'internal']);
  });

  it('values are checked against their definition (422) and the body shape (400)', async () => {
    const v = (variable: string) => `${base()}/${openId}/values/${variable}`;
    const radio = await h.api('POST', v('LE2_responsible'), {
      body: { value: 'sometimes', lock_version: 1 },
    });
    expect(radio.status).toBe(422);
    expect(asJson(asJson(radio.body)['_validations'])['errors']).toHaveProperty('value');
    expect(
      (await h.api('POST', v('LE1_objectives'), { body: { value: 'public', lock_version: 2 } })).status,
    ).toBe(422);
    expect((await h.api('POST', v('DV1_design_standard'), { body: { value: 'yes' } })).status).toBe(400);
    const long = await h.api('POST', v('RS1_tenant_engagement'), {
      body: { value: 'x'.repeat(1001), lock_version: 0 },
    });
    expect(long.status).toBe(422);
  });

  it('a submitted response is read-only', async () => {
    const r = await h.api('POST', `${base()}/${submittedId}/values/LE2_responsible`, {
      body: { value: 'none', lock_version: 1 },
    });
    expect(r.status).toBe(403);
  });
});

describe('evidence documents', () => {
  it('accepts a PDF as multipart and lists it on the response', async () => {
    const res = await upload(
      openId,
      { name: 'policy.pdf', type: 'application/pdf', bytes: pdf() },
      { variable: 'LE1_objectives' },
    );
    expect(res.status).toBe(201);
    const doc = (await res.json()) as Json;
    expect(doc).toMatchObject({
      filename: 'policy.pdf',
      size: 1000,
      content_type: 'application/pdf',
      variable: 'LE1_objectives',
    });
    const r = asJson((await h.api('GET', `${base()}/${openId}`)).body);
    expect((r['documents'] as Json[]).map((d) => d['id'])).toContain(doc['id']);
  });

  it('refuses with clear errors: too large, wrong type, mismatched extension, empty, no file, not multipart', async () => {
    const big = await upload(openId, {
      name: 'big.pdf',
      type: 'application/pdf',
      bytes: pdf(10 * 1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as Json)['message']).toMatch(/larger than the limit of 10 MB/);
    const exe = await upload(openId, { name: 'tool.exe', type: 'application/x-msdownload', bytes: pdf() });
    expect(exe.status).toBe(415);
    expect(((await exe.json()) as Json)['message']).toMatch(/not accepted; allowed: application\/pdf/);
    const renamed = await upload(openId, { name: 'report.png', type: 'application/pdf', bytes: pdf() });
    expect(renamed.status).toBe(415);
    const empty = await upload(openId, {
      name: 'empty.pdf',
      type: 'application/pdf',
      bytes: new Uint8Array(0),
    });
    expect(empty.status).toBe(400);
    const none = await upload(openId, null, { variable: 'LE1_objectives' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as Json)['message']).toMatch(/"file"/);
    const json = await h.api('POST', `${base()}/${openId}/documents`, { body: { file: 'x' } });
    expect(json.status).toBe(415);
    const badVariable = await upload(
      openId,
      { name: 'a.pdf', type: 'application/pdf', bytes: pdf() },
      { variable: 'LE2_responsible' },
    );
    expect(badVariable.status).toBe(400);
  });

  it('needs write:responses and an open response', async () => {
    const readOnly = h.tokenWith(['read:responses']);
    expect(
      (await upload(openId, { name: 'a.pdf', type: 'application/pdf', bytes: pdf() }, {}, readOnly)).status,
    ).toBe(403);
    expect((await upload(submittedId, { name: 'a.pdf', type: 'application/pdf', bytes: pdf() })).status).toBe(
      403,
    );
  });
});
