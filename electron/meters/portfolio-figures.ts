import type { Worker } from 'node:worker_threads';
import type { FiguresPreview } from '../../shared/meters/views';
import { startWorker } from '../workers/start-worker';
import type { MeterStore } from '../workspace/meter-store';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { assetMeters, figuresOf } from './meter-figures';

/**
 * The figures of many assets at once (`meters.figures`, issue 32: a portfolio's 5,000 assets take
 * seconds). A workspace on disk has them read by a worker thread (figures-worker.ts) on a read-only
 * connection of its own, in one read transaction (WAL: a snapshot main's writes meanwhile do not
 * move): main, even answering between ~10 ms slices, competed for the CPU with everything else the
 * machine ran and answered a bridge call in up to 700 ms; left idle, it answers at once.
 */

export interface FiguresRequest {
  assetIds: readonly string[];
  years: readonly number[] | undefined;
  /** The entity's `reporting_period_month` (12: calendar years). */
  month: number;
  accepted: { min: number; max: number };
}

/** Fewer assets than this are read on main: starting a worker costs more than it saves. */
export const OFF_MAIN_FROM = 100;

/** The assets whose figures the worker sends in one message: a short task for main to take in. */
const CHUNK_ASSETS = 20;

/** Each asset's figures in turn (assets missing or deleted give none). */
export function* figuresEach(
  store: WorkspaceStore,
  meters: MeterStore,
  request: FiguresRequest,
): Generator<FiguresPreview> {
  for (const localId of request.assetIds) {
    const record = store.asset(localId);
    if (!record?.current) continue;
    yield figuresOf(
      assetMeters(meters, localId, record.current),
      meters.derived(localId),
      request.month,
      request.years,
      request.accepted,
    );
  }
}

/** The figures of `request`'s assets, sent to `send` a chunk at a time (the worker's side). */
export function sendFigures(
  store: WorkspaceStore,
  meters: MeterStore,
  request: FiguresRequest,
  send: (chunk: FiguresPreview) => void,
): void {
  let chunk: FiguresPreview = { cells: [], warnings: [] };
  let assets = 0;
  for (const preview of figuresEach(store, meters, request)) {
    for (const cell of preview.cells) chunk.cells.push(cell);
    for (const warning of preview.warnings) chunk.warnings.push(warning);
    if (++assets % CHUNK_ASSETS === 0) {
      send(chunk);
      chunk = { cells: [], warnings: [] };
    }
  }
  if (chunk.cells.length > 0 || chunk.warnings.length > 0) send(chunk);
}

/** What the worker posts: a chunk of figures, then the end (or the error it met). */
export type FiguresMessage =
  { kind: 'chunk'; chunk: FiguresPreview } | { kind: 'done' } | { kind: 'failed'; message: string };

/** `request`'s figures read by a worker thread from `file` (a workspace on disk). */
export function figuresOffMain(file: string, request: FiguresRequest): Promise<FiguresPreview> {
  const worker = startWorker(import.meta.url, 'figures-worker', { workerData: { file, request } });
  return answerOf(worker);
}

function answerOf(worker: Worker): Promise<FiguresPreview> {
  const out: FiguresPreview = { cells: [], warnings: [] };
  return new Promise<FiguresPreview>((resolve, reject) => {
    let settled = false;
    worker.on('message', (message: FiguresMessage) => {
      if (message.kind === 'chunk') {
        for (const cell of message.chunk.cells) out.cells.push(cell);
        for (const warning of message.chunk.warnings) out.warnings.push(warning);
        return;
      }
      settled = true;
      if (message.kind === 'done') resolve(out);
      else reject(new Error(message.message));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`Reading the meter figures stopped (exit code ${code}).`));
    });
  });
}
