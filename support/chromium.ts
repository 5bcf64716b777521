import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const artifactsDir = join(process.cwd(), 'test-results');

/**
 * Debian's Chromium with a fresh profile per test file; the flags keep it off the (closed) network
 * so it does not stall on background requests.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'asset-desk-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1366, height: 768 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function artifactPath(name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  return join(artifactsDir, name);
}
