/**
 * Portfolio responses against the sandbox over real HTTP: two analysts' workspaces (two files, as
 * on two laptops) edit the same answers, so every lock_version path is the service's own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seedResponses } from '../../../sandbox/seed-responses';
import { ResponseEditError, ResponsesStore } from '../../../electron/responses/responses-store';
import { syncResponses } from '../../../electron/responses/responses-sync';
import { ResponsesClient } from '../../../electron/responses/responses-client';
import { responseValueSchema } from '../../../shared/responses/schemas';
import { assessmentYear, startHarness, type Harness } from '../../sandbox/helpers';
import { makeClient, tempWorkspace } from '../../../support/sync-harness';

let h: Harness;
let openId: number;
let historicalId: number;

/** An analyst: the workspace file (migrated by the workspace store, as the app does) and its responses. */
function analyst(fetchImpl?: typeof fetch) {
  const { store: workspace, file } = tempWorkspace('responses');
  const store = ResponsesStore.open(file);
  const client = makeClient(h.baseUrl, h.token, fetchImpl ? { fetch: fetchImpl } : {});
  return {
    store,
    workspace,
    client,
    sync: () => syncResponses({ store, client, entityId: h.entityId }),
    close() {
      store.close();
      workspace.close();
    },
  };
}

async function serviceValue(responseId: number, variable: string) {
  const r = await h.api('GET', `/api/v0/entities/${h.entityId}/responses/${responseId}/values/${variable}`);
  expect(r.status).toBe(200);
  return responseValueSchema.parse(r.body);
}

/** Someone else's write, straight to the service. */
async function writeElsewhere(responseId: number, variable: string, value: string | string[]) {
  const { lock_version } = await serviceValue(responseId, variable);
  const r = await h.api('POST', `/api/v0/entities/${h.entityId}/responses/${responseId}/values/${variable}`, {
    body: { value, lock_version },
  });
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  h = await startHarness();
  seedResponses(h.server.store, h.entityId, assessmentYear);
  const list = z
    .array(z.object({ id: z.number(), status: z.string(), survey_open: z.boolean() }))
    .parse((await h.api('GET', `/api/v0/entities/${h.entityId}/responses`)).body);
  openId = list.find((r) => r.survey_open)?.id ?? 0;
  historicalId = list.find((r) => r.status === 'submitted')?.id ?? 0;
});
afterAll(async () => {
  await h.close();
});

describe('responses in the workspace', () => {
  let a: ReturnType<typeof analyst>;
  beforeEach(() => {
    a = analyst();
    return () => a.close();
  });

  it('pulls the list and each response’s catalog values and evidence; history is read-only', async () => {
    const report = await a.sync();
    expect(report).toMatchObject({ pulled: 2, sent: 0, conflicts: [], rejected: [] });
    const list = a.store.list();
    expect(list.map((r) => [r.survey_year, r.status, r.readOnly, r.available])).toEqual([
      [assessmentYear, 'in_progress', false, true],
      [assessmentYear - 1, 'submitted', true, true],
    ]);
    const open = a.store.detail(openId);
    expect(new Set(open?.indicators.map((d) => d.kind))).toEqual(new Set(['checkbox', 'radio', 'text']));
    expect(open?.values.find((v) => v.variable === 'LE1_objectives')).toMatchObject({
      value: ['public'],
      lockVersion: '1',
      status: 'clean',
      available: true,
    });
    expect(open?.values.find((v) => v.variable === 'LE3_governance')).toMatchObject({
      value: null,
      lockVersion: '0',
    });
    const history = a.store.detail(historicalId);
    expect(history?.values.find((v) => v.variable === 'LE3_governance')?.value).toContain('ESG committee');
    // Last year's hyperlink evidence, read part by part.
    expect(history?.evidence).toMatchObject([
      {
        answerName: 'PO_1_A1_EVD',
        itemNumber: 1,
        evidenceType: 'H',
        notes: expect.stringContaining('Section 2'),
      },
    ]);
    expect(() => a.store.setValue(historicalId, 'LE2_responsible', 'external')).toThrow(ResponseEditError);
  });

  it('checks an answer by its kind before storing it', async () => {
    await a.sync();
    expect(() => a.store.setValue(openId, 'LE1_objectives', 'public')).toThrow(/list of option codes/);
    expect(() => a.store.setValue(openId, 'LE2_responsible', 'nobody')).toThrow(/unknown option code/);
    expect(() => a.store.setValue(openId, 'RS1_tenant_engagement', 'x'.repeat(1001))).toThrow(/at most 1000/);
    expect(() => a.store.setValue(openId, 'NOPE', 'x')).toThrow(/No indicator/);
  });

  it('edits offline, journals the edit and syncs it with its lock_version', async () => {
    await a.sync();
    const journalBefore = a.workspace.journalLength();
    const text = `Governance by the board, edit ${Date.now()}`;
    const before = (await serviceValue(openId, 'LE3_governance')).lock_version;
    expect(a.store.setValue(openId, 'LE3_governance', text)).toMatchObject({
      status: 'modified',
      value: text,
    });
    expect(a.store.setValue(openId, 'RO1_risk_assessment', ['flooding', 'climate_physical']).status).toBe(
      'modified',
    );
    expect(a.workspace.journalLength()).toBe(journalBefore + 2);
    expect(a.store.list().find((r) => r.id === openId)?.modified).toBe(2);

    const report = await a.sync();
    expect(report).toMatchObject({ sent: 2, conflicts: [], rejected: [] });
    expect(report.stopped).toBeUndefined();
    const stored = await serviceValue(openId, 'LE3_governance');
    expect(stored).toMatchObject({ value: text, lock_version: String(Number(before) + 1) });
    expect((await serviceValue(openId, 'RO1_risk_assessment')).value).toEqual([
      'flooding',
      'climate_physical',
    ]);
    expect(a.store.value(openId, 'LE3_governance')).toMatchObject({
      status: 'clean',
      lockVersion: String(Number(before) + 1),
    });
    expect(a.store.pending()).toEqual([]);
  });
});

describe("the response's completion after a sync", () => {
  it("reads the service's percent again once answers are sent, not the one of the pull before", async () => {
    const a = analyst();
    try {
      await a.sync();
      const percent = async () =>
        z
          .array(z.object({ id: z.number(), percent_completed: z.number() }))
          .parse((await h.api('GET', `/api/v0/entities/${h.entityId}/responses`)).body)
          .find((r) => r.id === openId)?.percent_completed;
      const before = await percent();
      expect(a.store.summary(openId)?.percent_completed).toBe(before);
      const answered = a.store.detail(openId)!.values.find((v) => v.variable === 'DV1_design_standard');
      expect(answered?.value).toBeNull();
      a.store.setValue(openId, 'DV1_design_standard', 'no');
      expect((await a.sync()).sent).toBe(1);
      const after = await percent();
      expect(after).toBeGreaterThan(before!);
      expect(a.store.summary(openId)?.percent_completed).toBe(after);
      // The answer taken back, for the tests after this one.
      a.store.setValue(openId, 'DV1_design_standard', null);
      expect((await a.sync()).sent).toBe(1);
      expect(a.store.summary(openId)?.percent_completed).toBe(before);
    } finally {
      a.close();
    }
  });
});

describe('two analysts on one response', () => {
  it('a change made elsewhere since the last pull is a conflict shown to the user, never overwritten', async () => {
    const a = analyst();
    const b = analyst();
    try {
      await a.sync();
      await b.sync();
      a.store.setValue(openId, 'LE2_responsible', 'external');
      b.store.setValue(openId, 'LE2_responsible', 'part_time');
      expect((await a.sync()).sent).toBe(1);

      const report = await b.sync();
      expect(report.sent).toBe(0);
      expect(report.conflicts).toEqual([{ responseId: openId, variable: 'LE2_responsible' }]);
      expect((await serviceValue(openId, 'LE2_responsible')).value).toBe('external');
      const conflict = b.store.value(openId, 'LE2_responsible');
      expect(conflict).toMatchObject({
        status: 'conflict',
        value: 'part_time',
        theirs: { value: 'external' },
      });
      expect(b.store.list().find((r) => r.id === openId)?.conflicts).toBe(1);

      // Held back until the analyst chooses; a second sync sends nothing either.
      expect((await b.sync()).sent).toBe(0);
      expect((await serviceValue(openId, 'LE2_responsible')).value).toBe('external');

      expect(b.store.resolveConflict(openId, 'LE2_responsible', 'mine').status).toBe('modified');
      expect((await b.sync()).sent).toBe(1);
      expect((await serviceValue(openId, 'LE2_responsible')).value).toBe('part_time');

      // And the first analyst now sees it as a clean remote change.
      await a.sync();
      expect(a.store.value(openId, 'LE2_responsible')).toMatchObject({ status: 'clean', value: 'part_time' });
    } finally {
      a.close();
      b.close();
    }
  });

  it('a write that meets a stale lock_version (409) between pull and push becomes a conflict; theirs takes the service value', async () => {
    let raced = false;
    const racing: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!raced && init?.method === 'POST' && url.endsWith('/values/DV1_design_standard')) {
        raced = true;
        await writeElsewhere(openId, 'DV1_design_standard', 'na');
      }
      return fetch(input, init);
    };
    const b = analyst(racing);
    try {
      await b.sync();
      b.store.setValue(openId, 'DV1_design_standard', 'no');
      const report = await b.sync();
      expect(raced).toBe(true);
      expect(report.sent).toBe(0);
      expect(report.conflicts).toEqual([{ responseId: openId, variable: 'DV1_design_standard' }]);
      expect(b.store.value(openId, 'DV1_design_standard')).toMatchObject({
        status: 'conflict',
        value: 'no',
        theirs: { value: 'na' },
      });
      expect((await serviceValue(openId, 'DV1_design_standard')).value).toBe('na');
      expect(b.store.resolveConflict(openId, 'DV1_design_standard', 'theirs')).toMatchObject({
        status: 'clean',
        value: 'na',
      });
      expect((await b.sync()).sent).toBe(0);
    } finally {
      b.close();
    }
  });

  it('a write whose answer was lost is recognised on the next sync, not resent as a conflict', async () => {
    let dropped = false;
    const losing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (!dropped && init?.method === 'POST' && url.includes('/values/')) {
        dropped = true;
        await response.body?.cancel();
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      return response;
    };
    const a = analyst(losing);
    try {
      await a.sync();
      const text = `Resident survey, lost answer ${Date.now()}`;
      a.store.setValue(openId, 'RS1_tenant_engagement', text);
      const first = await a.sync();
      expect(first.stopped?.reason).toBe('error');
      expect((await serviceValue(openId, 'RS1_tenant_engagement')).value).toBe(text);
      const second = await a.sync();
      expect(second).toMatchObject({ conflicts: [], rejected: [] });
      expect(a.store.value(openId, 'RS1_tenant_engagement')).toMatchObject({ status: 'clean', value: text });
    } finally {
      a.close();
    }
  });

  it('a lock_version moved by a write of the same value is merged without a conflict', async () => {
    const a = analyst();
    try {
      await a.sync();
      const current = a.store.value(openId, 'LE1_objectives')?.value;
      expect(Array.isArray(current)).toBe(true);
      a.store.setValue(openId, 'LE1_objectives', ['internal']);
      await writeElsewhere(openId, 'LE1_objectives', current as string[]);
      const report = await a.sync();
      expect(report).toMatchObject({ sent: 1, conflicts: [] });
      expect((await serviceValue(openId, 'LE1_objectives')).value).toEqual(['internal']);
    } finally {
      a.close();
    }
  });
});

describe('the client at the edge', () => {
  it('parses a stale write into the current value, its version a string', async () => {
    const client = new ResponsesClient(makeClient(h.baseUrl, h.token));
    const outcome = await client.writeValue(h.entityId, openId, 'LE2_responsible', 'none', '0');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.current.lock_version).toMatch(/^[1-9]\d*$/);
  });

  it('a 409 that does not say what the service holds is followed by a read of the value', async () => {
    const bare: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status !== 409) return response;
      await response.body?.cancel();
      return new Response(JSON.stringify({ error: 'StaleObjectError' }), { status: 409 });
    };
    const client = new ResponsesClient(makeClient(h.baseUrl, h.token, { fetch: bare }));
    const outcome = await client.writeValue(h.entityId, openId, 'LE2_responsible', 'none', '0');
    const current = await serviceValue(openId, 'LE2_responsible');
    expect(outcome).toEqual({ ok: false, current: { ...current, variable: 'LE2_responsible' } });
  });

  it('a response submitted between pull and push refuses the write (403): the answer stays, with the reason, and is not resent', async () => {
    const submitting: typeof fetch = async (input, init) => {
      if (init?.method === 'POST') h.server.store.responses.setStatus(openId, 'submitted', false);
      return fetch(input, init);
    };
    const a = analyst(submitting);
    try {
      await a.sync();
      a.store.setValue(openId, 'LE2_responsible', 'none');
      const report = await a.sync();
      expect(report.sent).toBe(0);
      expect(report.rejected).toEqual([
        { responseId: openId, variable: 'LE2_responsible', message: expect.stringMatching(/read-only/) },
      ]);
      expect(a.store.value(openId, 'LE2_responsible')).toMatchObject({
        status: 'modified',
        serverErrors: [expect.stringMatching(/read-only/)],
      });
      expect(a.store.pending()).toEqual([]);
      // The next pull learns the state: the response is history now.
      await a.sync();
      expect(a.store.list().find((r) => r.id === openId)?.readOnly).toBe(true);
      expect(a.store.revertValue(openId, 'LE2_responsible').status).toBe('clean');
    } finally {
      h.server.store.responses.setStatus(openId, 'in_progress', true);
      a.close();
    }
  });
});
