/**
 * The app's data folder as the browser host leaves it, under the usual umask 022: other local users
 * read nothing (folders 0700, files 0600, the embedded sandbox's included), an upload is deleted
 * once read and nothing uploaded or exported outlives the run.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeSecretHeader } from '../../../shared/bridge/browser-host-secret';
import { uploadRoute } from '../../../shared/bridge/browser-host-files';
import type { BridgeEnvelope } from '../../../shared/bridge/envelope';
import type { PickedFile } from '../../../shared/bridge/types';
import { hostCookie, hostSecret, openBridgeSocket } from '../../support/bridge-socket';
import { startTestApp, type TestApp } from '../../../support/test-app';

let app: TestApp;
const dataDir = mkdtempSync(join(tmpdir(), 'asset-desk-private-'));

beforeAll(async () => {
  const previousUmask = process.umask(0o022);
  chmodSync(dataDir, 0o755);
  try {
    app = await startTestApp({ browserFiles: true, dataDir });
  } finally {
    process.umask(previousUmask);
  }
}, 120_000);
let closed = false;
afterAll(async () => {
  if (!closed) await app?.close();
});

/** Every folder and file under `dir` with its mode, as `relative path: mode`. */
function modes(dir: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const name = `${prefix}${entry.name}`;
    found[name] = (statSync(path).mode & 0o777).toString(8);
    if (entry.isDirectory()) Object.assign(found, modes(path, `${name}/`));
  }
  return found;
}

describe('private data', () => {
  it('leaves every folder 0700 and every file 0600, the embedded sandbox included', () => {
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    const found = modes(dataDir);
    expect(Object.keys(found).some((name) => name.endsWith('sandbox.sqlite'))).toBe(true);
    const wider = Object.entries(found).filter(([name, mode]) => {
      const isDir = statSync(join(dataDir, name)).isDirectory();
      return mode !== (isDir ? '700' : '600');
    });
    expect(wider).toEqual([]);
  });

  it('keeps an upload 0600 until it is read, then deletes it; the rest goes when the app closes', async () => {
    const cookie = await hostCookie(app.host);
    const upload = async (name: string): Promise<PickedFile> => {
      const response = await fetch(`${app.host.origin}${uploadRoute}?name=${name}`, {
        method: 'POST',
        headers: {
          Cookie: cookie,
          [bridgeSecretHeader]: hostSecret(app.host),
          'Content-Type': 'application/octet-stream',
        },
        body: 'Asset name,Country\nUploaded,NL\n',
      });
      const envelope = (await response.json()) as BridgeEnvelope;
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.result as PickedFile;
    };
    const uploads = join(dataDir, 'transfers', 'uploads');
    const read = await upload('read.csv');
    const unread = await upload('unread.csv');
    expect(Object.values(modes(uploads))).toEqual(['600', '600']);

    const socket = await openBridgeSocket(app.host, { cookie });
    const preview = await socket.call('workbook.previewImport', { fileId: read.fileId });
    expect(preview.ok).toBe(true);
    expect(readdirSync(uploads)).toHaveLength(1);
    // Read once: the page uploads again to read it again.
    const again = await socket.call('workbook.previewImport', { fileId: read.fileId });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
    socket.close();
    expect(unread.fileId).not.toBe(read.fileId);

    closed = true;
    await app.close();
    expect(existsSync(join(dataDir, 'transfers'))).toBe(false);
  });
});
