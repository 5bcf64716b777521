/**
 * Issue 35: after a push of 20,000 creates, how long until the window's grid shows every
 * acknowledged row, against a full reload of the same workspace in the same run.
 *
 * The whole app (the browser host over the embedded sandbox) in Debian's Chromium: the workspace is
 * seeded with `count` new assets behind the app (a second connection to its file, as the grid
 * bench does), the window is opened on it, and Sync is clicked in the header. Ours: from the push's
 * end (main's last progress event of the push, after its last answer was settled) to the status bar
 * counting no pending change, a frame later. The peer: the same `count` rows changed behind the
 * window (a second connection again), then `workspace.changed`, the one reload left (a pull, an
 * import): from the reload's start in the page to the status bar counting them all, a frame later.
 * Both end the same way, and both clocks are the epoch's (main's and the page's, one machine).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AssetDoc } from '../../shared/sync/asset-doc';
import { localSandboxId } from '../../electron/auth/connections';
import { connectionFolder } from '../../electron/storage/paths';
import { WorkspaceStore } from '../../electron/workspace/workspace-store';
import { launchChromium } from '../../support/chromium';
import { startTestApp } from '../../support/test-app';

// What the functions run by page.evaluate use in the page (this tsconfig has no DOM library).
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const performance: {
  timeOrigin: number;
  getEntriesByName(name: string): Array<{ startTime: number }>;
};
declare function requestAnimationFrame(callback: () => void): number;

export interface PushToGrid {
  /** From the push's end to the grid showing every acknowledged row (ms). */
  viewsMs: number;
  /** A full reload of the same workspace to the grid showing every row (ms). */
  reloadMs: number;
  /** How many assets the workspace held (the seeded ones and the demo entity's). */
  total: number;
}

export async function measurePushToGrid(count: number, doc: (i: number) => AssetDoc): Promise<PushToGrid> {
  const app = await startTestApp();
  const browser = await launchChromium();
  try {
    const entityId = (await app.core.handlers['session.get']({})).activeEntityId!;
    const file = join(connectionFolder(app.dataDir, localSandboxId), `entity-${entityId}.sqlite`);
    const seed = WorkspaceStore.open(file);
    seed.transaction(() => {
      for (let i = 0; i < count; i++) seed.createAsset(doc(i));
    });
    const total = seed.assetCount();

    const page = await browser.context.newPage();
    page.setDefaultTimeout(600_000);
    // tsx keeps function names by wrapping them in `__name(...)`, which the page does not define.
    await page.addInitScript('globalThis.__name = (f) => f;');
    await page.goto(app.host.launchUrl);
    await page.locator('[data-testid="status-loading"]').waitFor({ state: 'detached' });
    await page.locator('[data-testid="status-pending"]', { hasText: `${count} pending` }).waitFor();

    // Ours: Sync in the header; the push's end is main's last progress event of the push.
    let pushEnd = NaN;
    let doneAt = NaN;
    const off = app.core.events.attach({
      emit: (name, payload) => {
        if (name === 'sync.progress' && (payload as { phase: string }).phase === 'push') pushEnd = Date.now();
        if (name === 'sync.progress' && (payload as { phase: string }).phase === 'done') doneAt = Date.now();
      },
    });
    const shownAll = pendingShown(page, 0);
    await page.locator('[data-testid="sync-button"]').click();
    const viewsEnd = await shownAll;
    off();
    const viewsMs = viewsEnd - pushEnd;
    {
      // Where the time went: main's end of the sync, its answer in the page, the views applied.
      const [answered, applied] = await page.evaluate(() =>
        ['sync:answered', 'sync:applied'].map((name) => {
          const marks = performance.getEntriesByName(name);
          return performance.timeOrigin + (marks[marks.length - 1]?.startTime ?? NaN);
        }),
      );
      console.log(
        `  after the push's end: the sync's end +${doneAt - pushEnd} ms, its answer in the page +${(answered! - pushEnd).toFixed(0)} ms, the views applied +${(applied! - pushEnd).toFixed(0)} ms, every row shown +${viewsMs} ms`,
      );
    }

    // The peer: the same rows changed behind the window, then the one reload trigger.
    const ids = seed
      .listAssets()
      .flatMap((record) => (record.serviceAssetId === null ? [] : [record.localId]));
    seed.transaction(() => {
      for (const localId of ids.slice(0, count)) seed.setValue(localId, 'address', 'Reloaded street 1');
    });
    seed.close();
    const reloaded = pendingShown(page, count);
    app.core.events.emit('workspace.changed', { reason: 'import' });
    const reloadEnd = await reloaded;
    const reloadStart = await page.evaluate(() => {
      const marks = performance.getEntriesByName('workspace:reload');
      return performance.timeOrigin + (marks[marks.length - 1]?.startTime ?? NaN);
    });
    return { viewsMs, reloadMs: reloadEnd - reloadStart, total };
  } finally {
    await browser.close();
    await app.close();
  }
}

/**
 * Resolves (epoch ms, a frame after) once the status bar counts `n` pending changes; fails, saying
 * what the bar shows, if it has not in `waitMs` (a push that failed or timed out on a loaded machine
 * never gets there: the bench said nothing and waited for ever).
 */
function pendingShown(page: Page, n: number, waitMs = 180_000): Promise<number> {
  return page.evaluate(
    ([wanted, wait]) =>
      new Promise<number>((resolve, reject) => {
        const until = Date.now() + wait;
        const check = (): void => {
          const text = document.querySelector('[data-testid="status-pending"]')?.textContent ?? '';
          if (text.startsWith(`${wanted} pending`)) requestAnimationFrame(() => resolve(Date.now()));
          else if (Date.now() > until)
            reject(
              new Error(
                `the status bar never counted ${wanted} pending in ${wait / 1000} s; it shows "${text}"`,
              ),
            );
          else requestAnimationFrame(check);
        };
        check();
      }),
    [n, waitMs] as const,
  );
}
