/**
 * Keeping a very large step's commit short on main's thread (issue 32: an import of 1.44 M readings
 * writes a 1.6 GB write-ahead log in one transaction). SQLite syncs the log at COMMIT and, past
 * 1,000 pages, copies it into the file there too: 10 s or more of main stopped. So, while the step
 * runs, the log's bytes already written are synced from libuv's pool every couple of seconds (an
 * extra sync changes nothing SQLite relies on; its own sync at COMMIT still comes last), the last
 * one awaited just before COMMIT; and the checkpoint after it runs in a worker thread.
 */
import { open } from 'node:fs/promises';
import { startWorker } from '../workers/start-worker';

const FLUSH_EVERY_MS = 2_000;

export class WalFlusher {
  private running: Promise<void> | null = null;
  private last = performance.now();

  constructor(private readonly file: string) {}

  /** Between slices: starts a sync of the log if none runs and the last is a couple of seconds old. */
  tick(): void {
    if (this.running || performance.now() - this.last < FLUSH_EVERY_MS) return;
    this.running = this.flush().finally(() => {
      this.running = null;
      this.last = performance.now();
    });
  }

  /** Before COMMIT: the sync running, then one more of what was written since. */
  async settle(): Promise<void> {
    await this.running;
    await this.flush();
  }

  private async flush(): Promise<void> {
    try {
      const handle = await open(`${this.file}-wal`, 'r+');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    } catch {
      // No log to sync (an in-memory or rolled-back file): COMMIT syncs whatever there is.
    }
  }
}

/** Checkpoints the file's log in a worker thread (checkpoint-worker.ts); errors are the next checkpoint's. */
export function checkpointOffMain(file: string): Promise<void> {
  return new Promise((resolve) => {
    const worker = startWorker(import.meta.url, 'checkpoint-worker', { workerData: { file } });
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
}
