/**
 * The workbook's heavy work — reading, writing, the preview's comparison — in a worker thread, so
 * main's event loop keeps answering the window while a 10,000-asset book is read or written. Each
 * job gets a fresh worker: it starts in tens of milliseconds, and its memory goes when it ends.
 */
import type { Worker } from 'node:worker_threads';
import type { AssetInput } from '../../shared/domain';
import type { WriteWorkbookOptions } from '../../shared/workbook/write-workbook';
import { startWorker } from '../workers/start-worker';
import type { AssetRecord } from '../workspace/asset-record';
import type { WriteCsvOptions } from './csv';
import type { ImportPlan } from './import-plan';
import { WorkbookError, type WorkbookErrorKind } from './workbook-limits';
import type { ExchangeFormat, PreviewOptions } from './preview-file';
import type { ParsedWorkbook } from './sheet-parser';

/** The workspace export's choices (they travel to the worker with its job, so they live here). */
export interface ExportWorkspaceOptions {
  format?: ExchangeFormat;
  /** Years side by side; default every year the workspace holds data for. */
  years?: readonly number[];
  /** Used when the workspace has no annual data at all (normally the assessment year). */
  fallbackYear?: number;
  /** A workbook's Sources tab: where each value that is not the analyst's own came from (sources-sheet.ts). */
  sourcesTab?: boolean;
}

export type WriteJob =
  | { job: 'write-xlsx'; file: string; docs: readonly AssetInput[]; opts: WriteWorkbookOptions }
  | { job: 'write-csv'; file: string; docs: readonly AssetInput[]; opts: WriteCsvOptions };

export interface ExportSummary {
  file: string;
  assets: number;
  years: number[];
}

/** The workspace is either sent (records) or read by the worker from its SQLite file. */
export type WorkbookJob =
  | WriteJob
  | { job: 'export-workspace'; workspaceFile: string; file: string; opts: ExportWorkspaceOptions }
  | ({ job: 'preview'; file: string; opts: PreviewOptions } & WorkspaceRecords)
  | ({
      job: 'replan';
      parsed: ParsedWorkbook;
      source: ImportPlan['source'];
      matchByName: boolean;
    } & WorkspaceRecords);

type WorkspaceRecords = { records: readonly AssetRecord[] } | { workspaceFile: string };

interface JobResults {
  'write-xlsx': null;
  'write-csv': null;
  'export-workspace': ExportSummary;
  preview: ImportPlan;
  replan: ImportPlan;
}

export type WorkerAnswer =
  { ok: true; result: unknown } | { ok: false; error: { message: string; kind?: WorkbookErrorKind } };

/** The job's worker, its heap bounded: whatever a book does, it cannot take main's memory with it. */
function startJobWorker(job: WorkbookJob): Worker {
  return startWorker(import.meta.url, 'workbook-worker', {
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: workerHeapMb },
  });
}

/** Several times what the largest book the limits let through needs (about 300 MB at 10,000 assets). */
const workerHeapMb = 2048;

/** Runs one job in its own worker thread; a WorkbookError there is a WorkbookError here. */
export function runWorkbookJob<J extends WorkbookJob>(job: J): Promise<JobResults[J['job']]> {
  const worker = startJobWorker(job);
  return new Promise((resolve, reject) => {
    let settled = false;
    worker.once('message', (answer: WorkerAnswer) => {
      settled = true;
      if (answer.ok) resolve(answer.result as JobResults[J['job']]);
      else if (answer.error.kind) reject(new WorkbookError(answer.error.kind, answer.error.message));
      else reject(new Error(answer.error.message));
      void worker.terminate();
    });
    worker.once('error', (error: Error & { code?: string }) => {
      settled = true;
      reject(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error('This workbook needs more memory than an import or export may take.', { cause: error })
          : error,
      );
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The workbook worker stopped (exit code ${code}).`));
    });
  });
}
