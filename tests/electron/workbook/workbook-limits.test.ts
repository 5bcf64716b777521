/**
 * Hostile workbooks under the 40 MB file limit (hardening item 7): each crosses one of the reader's
 * limits and is refused, quickly and with a message naming that limit, in the import's worker thread.
 * The files are built by `hostile-books.ts`, small on disk.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { importFromExportLink } from '../../../electron/workbook/export-link';
import { readWorkbook } from '../../../electron/workbook/read-workbook';
import { WorkbookError, type WorkbookErrorKind } from '../../../electron/workbook/workbook-limits';
import { previewImportFile } from '../../../electron/workbook/workspace-workbook';
import type { WorkspaceStore } from '../../../electron/workspace/workspace-store';
import { seededWorkspace, snapshot, tmpDir } from '../../../support/workbook-fixtures';
import { craft as craftBook, hostile, repeat } from '../../../support/hostile-books';

const stores: WorkspaceStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const dir = tmpDir();
/** Every hostile book here is small on disk. */
const small = (file: string): string => {
  expect(statSync(file).size).toBeLessThan(2 * 1024 * 1024);
  return file;
};
const craft = (name: string, rows: string): string => small(craftBook(dir, name, rows));

/** The refusal of `file` by the app's import (in its worker), leaving the workspace as it was. */
async function refusedByImport(file: string, kind: WorkbookErrorKind, message: RegExp): Promise<void> {
  const { store } = seededWorkspace(2, 0);
  stores.push(store);
  const before = snapshot(store);
  const error = await previewImportFile(store, file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkbookError);
  expect((error as WorkbookError).kind).toBe(kind);
  expect((error as WorkbookError).message).toMatch(message);
  expect(snapshot(store)).toEqual(before);
}

/** The refusal by the reader itself (how fast: `npm run bench workbook` times each refusal). */
async function refusedByReader(
  file: string,
  opts: Parameters<typeof readWorkbook>[1],
  kind: WorkbookErrorKind,
): Promise<WorkbookError> {
  const error = await readWorkbook(file, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkbookError);
  expect((error as WorkbookError).kind).toBe(kind);
  return error as WorkbookError;
}

describe('hostile workbooks are refused by the limit they cross', () => {
  it('more shared strings than the table may hold', async () => {
    const file = small(hostile.strings(dir));
    await refusedByImport(file, 'too_many_strings', /more than 2,000,000 distinct texts/);
    await refusedByReader(file, {}, 'too_many_strings');
  });

  it('a shared-strings table that unpacks to more than its size limit (a string bomb)', async () => {
    const file = small(hostile.stringBomb(dir));
    await refusedByImport(file, 'too_many_strings', /texts of this workbook unpack to more than 64\.0 MB/);
  });

  it('shared strings are counted before they are parsed, each form of the start tag once', async () => {
    const file = small(
      craftBook(
        dir,
        'four-strings.xlsx',
        '',
        '<si><t>a</t></si><si/><si ><t>b</t></si><si\n><t>c</t></si><sis/>',
      ),
    );
    await refusedByReader(file, { maxSharedStrings: 3 }, 'too_many_strings');
    const fits = await readWorkbook(file, { maxSharedStrings: 4 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(fits instanceof WorkbookError ? fits.kind : fits).not.toBe('too_many_strings');
  });

  it('a shared-strings table declared past its size limit is refused before any of it is inflated', async () => {
    // The table's deflated bytes are made garbage: inflating any of them would fail as corrupt, so
    // only a refusal on the size the ZIP declares gives the limit's error.
    const bytes = readFileSync(hostile.stringBomb(dir));
    const name = bytes.indexOf('xl/sharedStrings.xml');
    const dataAt = name + 'xl/sharedStrings.xml'.length + bytes.readUInt16LE(name - 2);
    bytes.fill(0xff, dataAt, dataAt + 64);
    const file = `${dir}/garbled-string-bomb.xlsx`;
    writeFileSync(file, bytes);
    const error = await refusedByReader(file, {}, 'too_many_strings');
    expect(error.message).toMatch(/unpack to more than 64\.0 MB/);
  });

  it('100,000 rows each with a cell in column XFD', async () => {
    const file = small(hostile.xfd(dir));
    await refusedByImport(file, 'too_many_columns', /cell at XFD2, beyond column 4,096/);
    await refusedByReader(file, {}, 'too_many_columns');
  });

  it('a million blank rows', async () => {
    const file = small(hostile.blankRows(dir));
    await refusedByImport(file, 'too_many_rows', /more than 250,000 rows/);
    await refusedByReader(file, {}, 'too_many_rows');
  });

  it('more cells than the workbook may hold', async () => {
    const file = craft(
      'cells.xlsx',
      repeat(
        2_000,
        (i) =>
          `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c><c r="B${i + 2}" t="inlineStr"><is><t>n</t></is></c></row>`,
      ),
    );
    const e = await refusedByReader(file, { maxCells: 1_000 }, 'too_many_cells');
    expect(e.message).toMatch(/more than 1,000 cells/);
  });

  it('a row longer than a row may be', async () => {
    const file = small(hostile.longRow(dir));
    await refusedByImport(
      file,
      'too_many_cells',
      /A row of the tab "Asset Characteristics" holds more than 16\.0 MB/,
    );
  });

  it('an archive that declares more unpacked bytes than the limit, refused before inflating', async () => {
    // The central directory's uncompressed size of the sheet, set to 3 GB: nothing is inflated.
    const file = small(hostile.declared(dir));
    await refusedByImport(file, 'unpacks_too_large', /unpacks to more than 1024\.0 MB/);
  });

  it('a sheet that unpacks to more or fewer bytes than it declares (a lying header)', async () => {
    // Issue 33: the reader inflates the packed bytes itself and checks the size yauzl checked.
    const rows = repeat(5_000, (i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`);
    for (const [name, declared] of [
      ['understated.xlsx', 4096],
      ['overstated.xlsx', 50 * 1024 * 1024],
    ] as const) {
      const file = craft(name, rows);
      const bytes = readFileSync(file);
      const part = Buffer.from('xl/worksheets/sheet1.xml');
      const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
      for (let at = bytes.indexOf(central); at >= 0; at = bytes.indexOf(central, at + 4))
        if (bytes.subarray(at + 46, at + 46 + part.length).equals(part))
          bytes.writeUInt32LE(declared, at + 24);
      writeFileSync(file, bytes);
      const e = await refusedByReader(file, {}, 'corrupt');
      expect(e.message).toMatch(declared === 4096 ? /too many bytes/ : /not enough bytes/);
    }
  });

  it('a sheet that unpacks past a lowered limit while it is read', async () => {
    const file = craft(
      'unpacked.xlsx',
      repeat(50_000, (i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`),
    );
    const e = await refusedByReader(file, { maxUnpackedBytes: 1024 * 1024 }, 'unpacks_too_large');
    expect(e.message).toMatch(/unpacks to more than 1\.0 MB/);
  });

  it("the service's export path: a hostile download is refused by the same limits", async () => {
    const body = readFileSync(hostile.xfd(tmpDir()));
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { store, file: workspaceFile } = seededWorkspace(2, 0);
      stores.push(store);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.xlsx`;
      const error = await importFromExportLink(url, { store, workspaceFile, downloadDir: tmpDir() }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WorkbookError);
      expect((error as WorkbookError).kind).toBe('too_many_columns');
    } finally {
      server.close();
    }
  });
});
