import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySecretStore } from '../electron/auth/secret-store';
import { startAppCore, type AppCore } from '../electron/app/app-core';
import { startBrowserHost, type BrowserHost } from '../electron/browser-host/server';
import { assessmentYear } from './assessment-year';
import { builtRendererDir } from './built-renderer';

export const testAssessmentYear = assessmentYear;

/**
 * The whole app as a new user gets it (embedded sandbox seeded with the demo entities), served by
 * the browser host. Secrets stay in memory: test files run in parallel and would otherwise share
 * one keychain entry (the keychain has its own tests).
 */
export async function startTestApp(
  opts: {
    /** The system browser for OAuth sign-in (a test drives it); without it the app has none. */
    openBrowser?: (url: string) => Promise<void>;
    /** As `npm run start:browser` runs: no injected dialogs, files go through browser uploads and downloads. */
    browserFiles?: boolean;
    /** An earlier run's data (a restart); a new folder by default. */
    dataDir?: string;
    /** False: return once the workspace is open from disk, as a window would load (the session follows). */
    waitForSession?: boolean;
  } = {},
): Promise<{
  core: AppCore;
  host: BrowserHost;
  dataDir: string;
  /** What the next open (`next`) or save (`saveNext`) dialog returns, as if the user chose it. */
  picker: { next: string | undefined; saveNext: string | undefined };
  close(): Promise<void>;
}> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'asset-desk-app-'));
  const picker: { next: string | undefined; saveNext: string | undefined } = {
    next: undefined,
    saveNext: undefined,
  };
  const core = await startAppCore({
    dataDir,
    version: 'test',
    host: 'browser',
    assessmentYear: testAssessmentYear,
    secrets: { store: new MemorySecretStore(), status: { available: true, backend: 'keychain' } },
    ...(opts.browserFiles
      ? {}
      : { pickFile: async () => picker.next, pickSaveFile: async () => picker.saveNext }),
    ...(opts.openBrowser ? { openBrowser: opts.openBrowser } : {}),
    // As the browser host's command does: main cannot open a browser, so the page opens a tab.
    ...(opts.browserFiles && !opts.openBrowser
      ? {
          openBrowser: () =>
            Promise.reject(new Error('The browser host opens the sign-in page from the page')),
        }
      : {}),
  });
  // Tests start from a session that is up (tests/electron/app/start-order.test.ts checks the order).
  await (opts.waitForSession === false ? core.ready : core.connected);
  const host = await startBrowserHost({
    rendererDir: builtRendererDir(),
    handlers: core.handlers,
    transfers: core.transfers,
  });
  core.events.attach(host.events);
  return {
    core,
    host,
    dataDir,
    picker,
    async close() {
      await host.close();
      await core.close();
    },
  };
}

/** A started test app, as `startTestApp` gives it. */
export type TestApp = Awaited<ReturnType<typeof startTestApp>>;
