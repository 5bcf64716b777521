/**
 * Where the sync's local part runs. A workspace with a file gets a session in the sync's worker
 * thread (its own connection to the file): planning batches, diffs, validation, JSON and SQLite
 * writes stay off main's event loop, which only sends and receives. A workspace without a file to
 * share (':memory:') runs the same session in main.
 *
 * One worker serves every session, started with the first engine so the first sync does not wait
 * for it, and stopped after a while without one; started as the workbook's workers are
 * (electron/workers/start-worker.ts).
 */
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/start-worker';
import type { LedgerPort } from '../workspace/ledger-port';
import { SyncSession, type SessionOp, type SessionOps } from './sync-session';
import { fromWire, movableBuffers, type WorkerReply, type WorkerRequest } from './sync-wire';

export interface SyncLocal {
  run<K extends SessionOp>(op: K, arg: SessionOps[K][0]): Promise<SessionOps[K][1]>;
  close(): Promise<void>;
}

/** `worker` unless the workspace has no file another thread could open. */
export type LocalWork = 'worker' | 'inline';

export function localWorkFor(store: LedgerPort): LocalWork {
  return store.file === '' || store.file === ':memory:' ? 'inline' : 'worker';
}

export async function openSyncLocal(store: LedgerPort, where: LocalWork): Promise<SyncLocal> {
  if (where === 'inline') {
    const session = new SyncSession(store);
    return {
      run: async (op, arg) => session.run(op, arg),
      close: async () => undefined,
    };
  }
  const host = workerHost();
  const id = host.newSession();
  try {
    await host.request({ kind: 'open', session: id, file: store.file });
  } catch (error) {
    host.sessionClosed();
    throw error;
  }
  return {
    run: async (op, arg) => (await host.request({ kind: 'run', session: id, op, arg })) as never,
    close: async () => {
      await host.request({ kind: 'close', session: id }).finally(() => host.sessionClosed());
    },
  };
}

/** Starts the worker now, so that the first sync finds it ready. */
export function prewarmSyncWorker(): void {
  workerHost();
}

/** The worker's young generation (V8 sizes it at three semi-spaces; 192 MB: 64 MB semi-spaces). */
const youngGenerationMb = 192;

/** A worker without a session stops after this long; the next sync starts another. */
const idleMs = 60_000;

let current: WorkerHost | undefined;

function workerHost(): WorkerHost {
  if (!current || current.dead) current = new WorkerHost();
  return current;
}

class WorkerHost {
  dead = false;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  private sessions = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor() {
    this.worker = startWorker(import.meta.url, 'sync-worker', {
      // A 5,000-asset batch makes tens of megabytes of short-lived objects (its rows, documents,
      // body, answer): a young generation that holds them spares most of the collections V8's
      // default size runs (a tenth of planning a batch's CPU).
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
    });
    // Idle, the worker does not keep the process alive; while a request waits for it, it does.
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const entry = this.waiting.get(reply.id);
      if (!entry) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) this.worker.unref();
      if (reply.ok) entry.resolve(reply.result);
      else entry.reject(fromWire(reply.error));
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`The sync worker stopped (exit code ${code}).`)));
    this.startIdle();
  }

  newSession(): number {
    this.sessions++;
    clearTimeout(this.idle);
    return this.nextId++;
  }

  sessionClosed(): void {
    this.sessions = Math.max(0, this.sessions - 1);
    if (this.sessions === 0) this.startIdle();
  }

  request(message: DistributiveOmit<WorkerRequest, 'id'>): Promise<unknown> {
    if (this.dead) return Promise.reject(new Error('The sync worker has stopped.'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      const arg = message.kind === 'run' ? message.arg : undefined;
      this.worker.postMessage({ ...message, id }, movableBuffers(arg));
    });
  }

  private startIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      this.dead = true;
      void this.worker.terminate();
    }, idleMs);
    this.idle.unref();
  }

  private fail(error: Error): void {
    this.dead = true;
    clearTimeout(this.idle);
    for (const entry of this.waiting.values()) entry.reject(error);
    this.waiting.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
