import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../electron/storage/sqlite';
import { workspaceFile } from '../../../electron/storage/paths';
import { ensurePrivateDir } from '../../../electron/storage/private-files';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('the data is the analyst’s alone', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-desk-private-'));
    dirs.push(dir);
    return dir;
  };

  it('a workspace file is 0600 (with its WAL) in 0700 folders, whatever the umask', () => {
    const dataDir = join(tempDir(), 'data');
    const previous = process.umask(0o022);
    try {
      const file = workspaceFile(dataDir, 'local-sandbox', 7);
      const db = openSqlite(file);
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(join(dataDir, 'workspaces'))).toBe(0o700);
      expect(mode(join(file, '..'))).toBe(0o700);
      db.close();
    } finally {
      process.umask(previous);
    }
  });

  it('an existing file or folder made readable by others is narrowed', () => {
    const dataDir = tempDir();
    const folder = join(dataDir, 'workspaces', 'abc');
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'entity-1.sqlite');
    writeFileSync(file, '', { mode: 0o644 });
    chmodSync(file, 0o644);
    openSqlite(file).close();
    expect(mode(file)).toBe(0o600);
    expect(mode(folder)).toBe(0o700);
  });

  it('the data folder main opens is 0700', () => {
    const dataDir = join(tempDir(), 'userData');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    ensurePrivateDir(dataDir);
    expect(mode(dataDir)).toBe(0o700);
  });
});
