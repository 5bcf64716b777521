/**
 * Portfolio responses through the bridge handlers of the whole app (embedded sandbox, browser
 * host): edit and sync an answer, add evidence as the service takes it (links, no upload), and find
 * both on the sandbox's view-only response page, as a data partner checks portfolio data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserEmail } from '../../../sandbox/demo-user';
import { PortalClient } from '../../sandbox/portal-client';
import { startTestApp, testAssessmentYear, type TestApp } from '../../../support/test-app';

describe('portfolio responses in the app', () => {
  let app: TestApp;
  let entityId: number;
  let responseId: number;
  let historyId: number;

  beforeAll(async () => {
    app = await startTestApp();
    const session = await app.core.handlers['session.get']({});
    entityId = session.activeEntityId ?? 0;
  });
  afterAll(() => app?.close());

  const open = async (id: number) => await app.core.handlers['responses.open']({ responseId: id });
  const addEvidence = (args: {
    variable: string;
    evidenceType: 'F' | 'H';
    url: string;
    notes?: string;
    share?: boolean;
    responseId?: number;
  }) => app.core.handlers['responses.addEvidence']({ responseId, ...args });

  async function viewPage(): Promise<string> {
    const portal = new PortalClient(app.core.sandbox.baseUrl);
    expect((await portal.signIn(demoUserEmail, app.core.sandbox.demoUser.password)).status).toBe(303);
    const page = await portal.get(`/portal/view/entities/${entityId}/responses/${responseId}`);
    expect(page.status).toBe(200);
    return page.text;
  }

  it('lists the entity’s responses on first use, this year’s in progress and last year’s read-only', async () => {
    const list = await app.core.handlers['responses.list']({});
    expect(list.map((r) => [r.survey_year, r.status, r.survey_open, r.readOnly])).toEqual([
      [testAssessmentYear, 'in_progress', true, false],
      [testAssessmentYear - 1, 'submitted', false, true],
    ]);
    responseId = list[0]?.id ?? 0;
    historyId = list[1]?.id ?? 0;
    const detail = await open(responseId);
    expect(detail.indicators.map((d) => d.variable)).toContain('PO_1');
    expect(detail.values.every((v) => v.status === 'clean' && v.available)).toBe(true);
    expect(detail.values.find((v) => v.variable === 'PO_1')).toMatchObject({ value: '1', lockVersion: '1' });
  });

  it('edits an answer offline and syncs it; the view-only page shows it', async () => {
    const text = 'Quarterly ESG committee reporting to the board';
    const edited = await app.core.handlers['responses.setValue']({
      responseId,
      variable: 'LE3_governance',
      value: text,
    });
    expect(edited).toMatchObject({ status: 'modified', lockVersion: '0' });
    const report = await app.core.handlers['responses.sync']({});
    expect(report).toMatchObject({ sent: 1, conflicts: [], rejected: [] });
    expect((await open(responseId)).values.find((v) => v.variable === 'LE3_governance')).toMatchObject({
      status: 'clean',
      value: text,
      lockVersion: '1',
    });
    expect(await viewPage()).toContain(text);
  });

  it('adds a file by its link (POST documents), shared, with notes: the service’s item is shown', async () => {
    const url = 'https://docs.example.com/esg/environmental-policy-2025.pdf';
    const item = await addEvidence({
      variable: 'PO_1',
      evidenceType: 'F',
      url,
      notes: 'Page 4, section 2',
      share: true,
    });
    expect(item).toMatchObject({
      variable: 'PO_1',
      answerName: 'PO_1_A1_EVD',
      itemNumber: 1,
      evidenceType: 'F',
      url,
      notes: 'Page 4, section 2',
      shared: true,
      docId: expect.stringMatching(/^\d+$/),
      reportUrl: expect.stringContaining(
        `/portal/view/entities/${entityId}/responses/${responseId}#PO_1_A1_EVD-1`,
      ),
      variables: {
        TYPE: { variable: 'PO_1_A1_EVD_TYPE_1', value: 'F' },
        NOTES: { variable: 'PO_1_A1_EVD_NOTES_1', value: 'Page 4, section 2' },
        SHARE: { variable: 'PO_1_A1_EVD_SHARE_1', value: 1 },
      },
    });
    const detail = await open(responseId);
    expect(detail.evidence).toEqual([item]);
    expect(detail.response.evidence).toBe(1);
    expect(await viewPage()).toContain(url);
  });

  it('adds a hyperlink as values (TYPE H, LINK, NOTES) as the next item', async () => {
    const url = 'https://www.example.com/sustainability';
    const item = await addEvidence({ variable: 'PO_1', evidenceType: 'H', url, notes: 'Policies tab' });
    expect(item).toMatchObject({
      itemNumber: 2,
      evidenceType: 'H',
      url,
      notes: 'Policies tab',
      shared: null,
    });
    expect(Object.keys(item.variables).sort()).toEqual(['LINK', 'NOTES', 'TYPE']);
    // A later pull reads both items back from the service and keeps what only this app knows.
    await app.core.handlers['responses.sync']({});
    const evidence = (await open(responseId)).evidence;
    expect(evidence.map((e) => [e.itemNumber, e.evidenceType, e.url])).toEqual([
      [1, 'F', 'https://docs.example.com/esg/environmental-policy-2025.pdf'],
      [2, 'H', url],
    ]);
    expect(evidence[0]?.reportUrl).toContain('#PO_1_A1_EVD-1');
  });

  it('says plainly what a file on this computer needs, and refuses what the service would not take', async () => {
    for (const local of ['C:\\Users\\ana\\policy.pdf', '/home/ana/policy.pdf', 'file:///home/ana/policy.pdf'])
      await expect(addEvidence({ variable: 'PO_1', evidenceType: 'F', url: local })).rejects.toThrow(
        /file on this computer.*put the file where it can be opened by a link.*paste that link/,
      );
    await expect(addEvidence({ variable: 'PO_1', evidenceType: 'F', url: 'policy.pdf' })).rejects.toThrow(
      /full web address/,
    );
    await expect(
      addEvidence({ variable: 'LE2_responsible', evidenceType: 'H', url: 'https://example.com/' }),
    ).rejects.toThrow(/takes no evidence/);
    await expect(
      addEvidence({ variable: 'PO_1', evidenceType: 'H', url: 'https://example.com/', share: true }),
    ).rejects.toThrow(/shared with investors already/);
    await expect(
      addEvidence({
        responseId: historyId,
        variable: 'PO_1',
        evidenceType: 'F',
        url: 'https://example.com/a.pdf',
      }),
    ).rejects.toThrow(/read-only/);
    expect((await open(responseId)).evidence).toHaveLength(2);
  });

  it('refuses edits of a historical response', async () => {
    await expect(
      app.core.handlers['responses.setValue']({
        responseId: historyId,
        variable: 'LE2_responsible',
        value: 'none',
      }),
    ).rejects.toThrow(/read-only/);
  });
});
