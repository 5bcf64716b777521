import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(join(repo, dir), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.(ts|tsx|js|mjs|cjs)$/.test(e.name))
    .map((e) => relative(repo, join(e.parentPath, e.name)));
}

async function hits(files: string[], pattern: RegExp): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    if (pattern.test(await readFile(join(repo, file), 'utf8'))) found.push(file);
  }
  return found;
}

describe('token-holding code stays in electron/auth', () => {
  it('imports keytar nowhere else in the app', async () => {
    const app = [
      ...(await sources('electron')),
      ...(await sources('shared')),
      ...(await sources('renderer')),
    ];
    expect(app.length).toBeGreaterThan(10);
    expect(await hits(app, /['"]keytar['"]/)).toEqual(['electron/auth/secret-store.ts']);
  });

  it('keeps tokens out of the renderer and out of the bridge contract', async () => {
    const files = [...(await sources('renderer')), ...(await sources('shared/bridge'))];
    expect(files.length).toBeGreaterThan(3);
    expect(await hits(files, /access_token|accessToken|Authorization|Bearer|keytar/i)).toEqual([]);
  });

  it('lets shared/domain describe the OAuth wire shapes, but not hold or send tokens', async () => {
    const files = await sources('shared');
    // Declaring the token response's fields is a schema, not token handling; anything else is.
    const allowed = new Set(['shared/domain/schemas.ts', 'shared/domain/types.ts']);
    expect((await hits(files, /access_token|accessToken/)).filter((f) => !allowed.has(f))).toEqual([]);
    expect(await hits(files, /Authorization|Bearer\s|keytar/)).toEqual([]);
  });
});
