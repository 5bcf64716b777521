/**
 * The built main (out/main, made by `npm test`'s pretest build) as the packaged app runs it: each
 * module that starts a worker thread finds the worker's file where electron/workers/start-worker.ts
 * looks for it, beside the module itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const outMain = fileURLToPath(new URL('../../out/main/', import.meta.url));

describe('the built main', () => {
  it('has each worker beside the module that starts it', () => {
    const files = readdirSync(outMain, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    const starts = files.flatMap((file) =>
      [...readFileSync(join(outMain, file), 'utf8').matchAll(/startWorker\(import\.meta\.url, "([\w-]+)"/g)].map(
        (match) => ({ file, worker: match[1] ?? '' }),
      ),
    );
    // The workspace's log checkpoint, the meter figures' read, the readings import's apply, the
    // sync's worker and the workbook's.
    expect(starts.map((start) => start.worker).sort()).toEqual([
      'checkpoint-worker',
      'figures-worker',
      'readings-apply-worker',
      'sync-worker',
      'workbook-worker',
    ]);
    for (const { file, worker } of starts) {
      const wanted = fileURLToPath(new URL(`./${worker}.js`, pathToFileURL(join(outMain, file))));
      expect({ file, worker, found: files.map((f) => join(outMain, f)).includes(wanted) }).toEqual({
        file,
        worker,
        found: true,
      });
    }
  });
});
