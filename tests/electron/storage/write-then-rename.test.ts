import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeThenRename } from '../../../electron/storage/write-then-rename';

describe('a file the user chose is never written in place', () => {
  it('a write that fails half-way leaves the earlier file whole and no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-then-rename-'));
    const file = join(dir, 'assets.xlsx');
    writeFileSync(file, 'the earlier export');
    await expect(
      writeThenRename(file, async (tmp) => {
        expect(tmp.endsWith('.xlsx')).toBe(true);
        await writeFile(tmp, 'half of the new ex');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('the earlier export');
    expect(readdirSync(dir)).toEqual(['assets.xlsx']);
  });

  it('a write that succeeds replaces the file at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'write-then-rename-'));
    const file = join(dir, 'assets.csv');
    writeFileSync(file, 'old');
    await writeThenRename(file, (tmp) => writeFile(tmp, 'new'));
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['assets.csv']);
  });
});
