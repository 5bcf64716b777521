/**
 * Portfolio responses through the bridge handlers of the whole app (embedded sandbox, browser
 * host): edit and sync an answer, attach evidence with progress, and find both on the sandbox's
 * view-only response page, as a data partner checks portfolio data.
 */
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventPayload } from '../../shared/bridge/contract';
import { demoUserEmail, demoUserPassword } from '../../electron/sandbox/demo-user';
import { PortalClient } from '../sandbox/portal-client';
import { startTestApp, testAssessmentYear } from '../support/test-app';

describe('portfolio responses in the app', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let files: string;
  let entityId: number;
  let responseId: number;
  const progress: Array<EventPayload<'responses.uploadProgress'>> = [];

  beforeAll(async () => {
    app = await startTestApp();
    files = mkdtempSync(join(tmpdir(), 'asset-desk-evidence-'));
    app.core.events.attach({
      emit: (name, payload) => {
        if (name === 'responses.uploadProgress')
          progress.push(payload as EventPayload<'responses.uploadProgress'>);
      },
    });
    const session = await app.core.handlers['session.get']({});
    entityId = session.activeEntityId ?? 0;
  });
  afterAll(() => app?.close());

  const open = async (id: number) => await app.core.handlers['responses.open']({ responseId: id });

  async function viewPage(): Promise<string> {
    const portal = new PortalClient(app.core.sandbox.baseUrl);
    expect((await portal.signIn(demoUserEmail, demoUserPassword)).status).toBe(303);
    const page = await portal.get(`/portal/view/entities/${entityId}/responses/${responseId}`);
    expect(page.status).toBe(200);
    return page.text;
  }

  /** The user picks the file in main's dialog; the renderer only ever holds the returned id. */
  async function attachPicked(path: string, variable?: string, onResponse = responseId) {
    app.picker.next = path;
    const picked = await app.core.handlers['files.pick']({ purpose: 'evidence' });
    if (!picked) throw new Error('the picker returned nothing');
    return app.core.handlers['responses.attachDocument']({
      responseId: onResponse,
      fileId: picked.fileId,
      variable,
    });
  }

  it('lists the entity’s responses on first use, this year’s open and last year’s read-only', async () => {
    const list = await app.core.handlers['responses.list']({});
    expect(list.map((r) => [r.year, r.readOnly])).toEqual([
      [testAssessmentYear, false],
      [testAssessmentYear - 1, true],
    ]);
    responseId = list[0]?.id ?? 0;
    const detail = await open(responseId);
    expect(detail.indicators.length).toBeGreaterThan(0);
    expect(detail.values.every((v) => v.status === 'clean')).toBe(true);
  });

  it('edits an answer offline and syncs it; the view-only page shows it', async () => {
    const text = 'Quarterly ESG committee reporting to the board';
    const edited = await app.core.handlers['responses.setValue']({
      responseId,
      variable: 'LE3_governance',
      value: text,
    });
    expect(edited.status).toBe('modified');
    const report = await app.core.handlers['responses.sync']({});
    expect(report).toMatchObject({ sent: 1, conflicts: [], rejected: [] });
    expect((await open(responseId)).values.find((v) => v.variable === 'LE3_governance')).toMatchObject({
      status: 'clean',
      value: text,
    });
    expect(await viewPage()).toContain(text);
  });

  it('uploads a document with progress and sees it listed here and on the view-only response page', async () => {
    const file = join(files, 'ESG policy 2025.pdf');
    const bytes = new Uint8Array(1_500_000);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    writeFileSync(file, bytes);
    progress.length = 0;
    const doc = await attachPicked(file, 'LE1_objectives');
    expect(doc).toMatchObject({
      filename: 'ESG policy 2025.pdf',
      size: bytes.length,
      contentType: 'application/pdf',
      variable: 'LE1_objectives',
    });
    const sent = progress.map((p) => p.sent);
    expect(progress.length).toBeGreaterThan(2);
    expect(sent).toEqual([...sent].sort((x, y) => x - y));
    expect(progress.at(-1)).toMatchObject({
      responseId,
      sent: bytes.length,
      total: bytes.length,
      done: true,
    });

    const detail = await open(responseId);
    expect(detail.documents.map((d) => d.filename)).toContain('ESG policy 2025.pdf');
    expect(detail.response.documents).toBe(1);
    expect(await viewPage()).toContain('ESG policy 2025.pdf');

    // A later pull keeps the list as the service has it.
    await app.core.handlers['responses.sync']({});
    expect((await open(responseId)).documents).toHaveLength(1);
  });

  it('refuses what main cannot or should not send, before uploading', async () => {
    const attach = (filePath: string, variable?: string) => attachPicked(filePath, variable);
    const folder = join(files, 'folder.pdf');
    mkdirSync(folder);
    const big = join(files, 'big.pdf');
    writeFileSync(big, '');
    truncateSync(big, 10 * 1024 * 1024 + 1);
    const script = join(files, 'tool.exe');
    writeFileSync(script, 'MZ');
    const empty = join(files, 'empty.txt');
    writeFileSync(empty, '');
    const note = join(files, 'note.txt');
    writeFileSync(note, 'evidence');

    await expect(attach('relative/file.pdf')).rejects.toThrow(/absolute/);
    await expect(attach(join(files, 'missing.pdf'))).rejects.toThrow(/cannot be read/);
    await expect(attach(folder)).rejects.toThrow(/not a regular file/);
    await expect(attach(big)).rejects.toThrow(/at most 10 MB/);
    await expect(attach(script)).rejects.toThrow(/not accepted/);
    await expect(attach(empty)).rejects.toThrow(/empty/);
    await expect(attach(note, 'LE2_responsible')).rejects.toThrow(/takes no evidence/);
    const history = (await app.core.handlers['responses.list']({})).find((r) => r.readOnly)?.id ?? 0;
    await expect(attachPicked(note, undefined, history)).rejects.toThrow(/read-only/);
    await expect(
      app.core.handlers['responses.attachDocument']({ responseId, fileId: 'never-picked' }),
    ).rejects.toThrow(/pick it again/);
    expect((await open(responseId)).documents).toHaveLength(1);
  });

  it('refuses edits of a historical response', async () => {
    const history = (await app.core.handlers['responses.list']({})).find((r) => r.readOnly)?.id ?? 0;
    expect(() =>
      app.core.handlers['responses.setValue']({
        responseId: history,
        variable: 'LE2_responsible',
        value: 'none',
      }),
    ).toThrow(/read-only/);
  });
});
