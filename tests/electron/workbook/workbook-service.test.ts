/**
 * Spreadsheet exchange through the bridge: export to a file chosen in main's save dialog, read it
 * back through main's open dialog into a preview, apply it as one change and undo it; and the
 * service's own export delivered to the loopback callback and previewed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../support/test-app';

describe('spreadsheet exchange through the bridge', () => {
  let app: TestApp;
  const folder = mkdtempSync(join(tmpdir(), 'asset-desk-exchange-'));
  const changed: string[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    app.core.events.attach({
      emit: (name, payload) => {
        if (name === 'workspace.changed') changed.push((payload as { reason: string }).reason);
      },
    });
  });
  afterAll(() => app?.close());

  it('export, preview, apply and undo', { timeout: 60_000 }, async () => {
    const { handlers } = app.core;
    const snapshot = await handlers['workspace.snapshot']({});
    const target = snapshot.assets[0];
    if (!target) throw new Error('empty demo workspace');
    const originalCity = target.doc['city'];

    app.picker.saveNext = undefined;
    expect(await handlers['workbook.export']({ format: 'xlsx' })).toBeNull();
    const file = join(folder, 'assets.xlsx');
    app.picker.saveNext = file;
    const written = await handlers['workbook.export']({ format: 'xlsx' });
    expect(written).toEqual({ fileName: 'assets.xlsx', assets: snapshot.assets.length });

    // The workspace moves on; the file still holds the old city.
    await handlers['workspace.edit']({ edits: [{ localId: target.localId, path: 'city', value: 'Zwolle' }] });
    app.picker.next = file;
    const picked = await handlers['files.pick']({ purpose: 'workbook' });
    if (!picked) throw new Error('nothing picked');
    const preview = await handlers['workbook.previewImport']({ fileId: picked.fileId });
    expect(preview.counts).toMatchObject({ new: 0, changed: 1, rejected: 0 });
    expect(preview.counts.unchanged).toBe(snapshot.assets.length - 1);
    expect(preview.canApply).toBe(true);
    const row = preview.rows.find((r) => r.status === 'changed');
    expect(row?.changes).toContainEqual(
      expect.objectContaining({ path: 'city', before: 'Zwolle', after: originalCity }),
    );
    // The preview changed nothing.
    expect(
      (await handlers['workspace.snapshot']({})).assets.find((a) => a.localId === target.localId)?.doc[
        'city'
      ],
    ).toBe('Zwolle');

    const applied = await handlers['workbook.applyImport']({ planId: preview.planId });
    expect(applied).toMatchObject({ created: 0, updated: 1, skipped: 0 });
    expect(changed).toContain('import');
    const cityNow = async () =>
      (await handlers['workspace.snapshot']({})).assets.find((a) => a.localId === target.localId)?.doc[
        'city'
      ];
    expect(await cityNow()).toBe(originalCity);
    await expect(handlers['workbook.applyImport']({ planId: preview.planId })).rejects.toThrow(
      /preview is gone/,
    );

    expect(await handlers['workbook.undoImport']({})).toMatchObject({ restored: 1 });
    expect(await cityNow()).toBe('Zwolle');
  });

  it('a preview made on one entity cannot be applied after switching to another', async () => {
    const { handlers } = app.core;
    const session = await handlers['session.get']({});
    const home = session.activeEntityId!;
    const other = session.entities.find((e) => e.id !== home)!.id;
    const file = join(folder, 'new-asset.csv');
    app.picker.saveNext = file;
    await handlers['workbook.export']({ format: 'csv' });
    app.picker.next = file;
    const picked = await handlers['files.pick']({ purpose: 'workbook' });
    const preview = await handlers['workbook.previewImport']({ fileId: picked!.fileId });
    await handlers['session.selectEntity']({ entityId: other });
    try {
      const before = (await handlers['workspace.snapshot']({})).assets.length;
      await expect(handlers['workbook.applyImport']({ planId: preview.planId })).rejects.toThrow(
        /preview is gone/,
      );
      expect((await handlers['workspace.snapshot']({})).assets.length).toBe(before);
    } finally {
      await handlers['session.selectEntity']({ entityId: home });
    }
  });

  it('a file that is not a workbook is refused with a clear error and changes nothing', async () => {
    const { handlers } = app.core;
    const bogus = join(folder, 'not-a-workbook.xlsx');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bogus, 'this is plain text');
    app.picker.next = bogus;
    const picked = await handlers['files.pick']({ purpose: 'workbook' });
    const before = JSON.stringify((await handlers['workspace.snapshot']({})).assets);
    await expect(handlers['workbook.previewImport']({ fileId: picked?.fileId ?? '' })).rejects.toThrow(
      /xlsx|workbook/i,
    );
    expect(JSON.stringify((await handlers['workspace.snapshot']({})).assets)).toBe(before);
  });

  it(
    "the service's export arrives on the loopback callback, is downloaded and previewed",
    { timeout: 60_000 },
    async () => {
      const { handlers } = app.core;
      const progress: string[] = [];
      const detach = app.core.events.attach({
        emit: (name, payload) => {
          if (name === 'serviceExport.progress') progress.push((payload as { phase: string }).phase);
        },
      });
      const result = await handlers['serviceExport.start']({});
      detach();
      expect(result.kind).toBe('downloaded');
      if (result.kind !== 'downloaded') return;
      expect(result.bytes).toBeGreaterThan(1_000);
      expect(result.preview.counts.rejected).toBe(0);
      expect(result.preview.rows.length).toBeGreaterThan(0);
      expect(progress).toEqual(expect.arrayContaining(['listening', 'requested', 'downloading', 'done']));
    },
  );
});

describe('matching rows by name, offered by the preview', () => {
  let app: TestApp;
  // The browser host's uploads: deleted once read, so the offer cannot read the file again.
  beforeAll(async () => {
    app = await startTestApp({ browserFiles: true });
  });
  afterAll(() => app?.close());

  it(
    'an uploaded CSV naming a synced asset without its ID: matched by name when asked, after the upload is gone',
    { timeout: 60_000 },
    async () => {
      const { handlers } = app.core;
      const { assets } = await handlers['workspace.snapshot']({});
      const synced = assets.find((a) => a.serviceAssetId !== null && a.doc['name'] !== undefined)!;
      const name = String(synced.doc['name']);
      const csv = `gresb_asset_id,name,city\nAsset ID,Asset name,City\n,"${name}",Haarlem\n`;
      const picked = await app.core.transfers!.upload('by-name.csv', Buffer.from(csv));
      const first = await handlers['workbook.previewImport']({ fileId: picked.fileId });
      expect(first).toMatchObject({ nameMatches: 1, matchByName: false, canApply: false });
      expect(first.counts).toMatchObject({ new: 0, rejected: 1 });
      // The upload is deleted once read: the offer plans again from what was read.
      await expect(handlers['workbook.previewImport']({ fileId: picked.fileId })).rejects.toThrow(
        /pick it again/,
      );
      const byName = await handlers['workbook.previewImport']({ planId: first.planId, matchByName: true });
      expect(byName).toMatchObject({
        nameMatches: 1,
        matchByName: true,
        canApply: true,
        fileName: 'by-name.csv',
      });
      expect(byName.counts).toMatchObject({ new: 0, changed: 1, rejected: 0 });
      expect(byName.rows.find((r) => r.status === 'changed')).toMatchObject({
        localId: synced.localId,
        changes: [expect.objectContaining({ path: 'city', after: 'Haarlem' })],
      });
      // The first plan was replaced; the offer can be taken back.
      await expect(handlers['workbook.applyImport']({ planId: first.planId })).rejects.toThrow(/gone/);
      const back = await handlers['workbook.previewImport']({ planId: byName.planId, matchByName: false });
      expect(back.counts).toMatchObject({ rejected: 1 });
      const again = await handlers['workbook.previewImport']({ planId: back.planId, matchByName: true });
      const before = (await handlers['workspace.snapshot']({})).assets.length;
      expect(await handlers['workbook.applyImport']({ planId: again.planId })).toMatchObject({
        created: 0,
        updated: 1,
      });
      const after = await handlers['workspace.snapshot']({});
      expect(after.assets.length).toBe(before);
      expect(after.assets.find((a) => a.localId === synced.localId)?.doc['city']).toBe('Haarlem');
    },
  );
});
