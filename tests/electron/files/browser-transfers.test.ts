import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserTransfers } from '../../../electron/files/browser-transfers';
import { PickedFiles } from '../../../electron/files/picked-files';

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

async function open(): Promise<{ transfers: BrowserTransfers; files: PickedFiles; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-transfers-'));
  // As a folder made under umask 022 is.
  chmodSync(dataDir, 0o755);
  const files = new PickedFiles(undefined);
  const transfers = new BrowserTransfers(dataDir, files);
  await transfers.open();
  return { transfers, files, dataDir };
}

describe('browser transfers', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps an upload under a random name and picks it under the name the user chose', async () => {
    const { transfers, files, dataDir } = await open();
    const picked = await transfers.upload('..\\../Q3 assets.CSV', Buffer.from('id,name\n'));
    expect(picked).toMatchObject({ name: 'Q3 assets.CSV', size: 8 });
    const path = files.path(picked.fileId);
    expect(dirname(path)).toBe(join(dataDir, 'transfers', 'uploads'));
    expect(path).toMatch(/[0-9a-f-]{36}\.csv$/);
    expect(readFileSync(path, 'utf8')).toBe('id,name\n');
    expect(files.name(picked.fileId)).toBe('Q3 assets.CSV');
    await expect(transfers.upload('notes.txt', Buffer.from('x'))).rejects.toThrow('.xlsx or .csv');
  });

  it('serves an export once, and clears what an earlier run left', async () => {
    const { transfers, dataDir } = await open();
    const file = await transfers.pickSaveFile({ defaultName: 'Fund 2026-01-01.xlsx' });
    writeFileSync(file, 'book');
    const id = transfers.offer(file, 'Fund 2026-01-01.xlsx');
    expect(transfers.take(id)).toEqual({ file, name: 'Fund 2026-01-01.xlsx' });
    expect(transfers.take(id)).toBeUndefined();
    await transfers.discard(file);
    expect(existsSync(dirname(file))).toBe(false);

    const left = await transfers.pickSaveFile({ defaultName: 'a.csv' });
    writeFileSync(left, 'x');
    await transfers.open();
    expect(readdirSync(join(dataDir, 'transfers', 'downloads'))).toEqual([]);
  });

  it('deletes an export nobody fetched after ten minutes', async () => {
    const { transfers } = await open();
    const file = await transfers.pickSaveFile({ defaultName: 'a.csv' });
    writeFileSync(file, 'x');
    vi.useFakeTimers();
    const id = transfers.offer(file, 'a.csv');
    vi.advanceTimersByTime(9 * 60 * 1000);
    expect(existsSync(file)).toBe(true);
    vi.advanceTimersByTime(60 * 1000);
    vi.useRealTimers();
    expect(transfers.take(id)).toBeUndefined();
    await expect.poll(() => existsSync(dirname(file))).toBe(false);
  });

  it('keeps uploads and exports for this user only (folders 0700, files 0600)', async () => {
    const { transfers, files, dataDir } = await open();
    for (const dir of ['transfers', 'transfers/uploads', 'transfers/downloads']) {
      expect({ dir, mode: mode(join(dataDir, dir)) }).toEqual({ dir, mode: '700' });
    }
    const picked = await transfers.upload('a.csv', Buffer.from('id\n'));
    expect(mode(files.path(picked.fileId))).toBe('600');
    const file = await transfers.pickSaveFile({ defaultName: 'a.xlsx' });
    expect(mode(dirname(file))).toBe('700');
    // An exporter writes with the umask's mode; offered, it is the user's alone.
    writeFileSync(file, 'book', { mode: 0o644 });
    transfers.offer(file, 'a.xlsx');
    expect(mode(file)).toBe('600');
  });

  it('deletes an upload once it is read, and every upload and export when the app closes', async () => {
    const { transfers, files, dataDir } = await open();
    const read = await transfers.upload('read.csv', Buffer.from('id\n'));
    const readPath = files.path(read.fileId);
    await files.used(read.fileId);
    expect(existsSync(readPath)).toBe(false);
    expect(() => files.path(read.fileId)).toThrow('pick it again');

    const unread = await transfers.upload('unread.xlsx', Buffer.from('PK'));
    const unreadPath = files.path(unread.fileId);
    const exported = await transfers.pickSaveFile({ defaultName: 'b.csv' });
    writeFileSync(exported, 'x');
    transfers.offer(exported, 'b.csv');
    await transfers.close();
    expect(existsSync(unreadPath)).toBe(false);
    expect(existsSync(exported)).toBe(false);
    expect(existsSync(join(dataDir, 'transfers'))).toBe(false);
  });
});
