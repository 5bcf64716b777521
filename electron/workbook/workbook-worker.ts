/**
 * The worker thread's entry (built as its own file beside main): runs the one job it was started
 * with (`workbook-jobs.ts`) and posts the result or the error back.
 */
import { open } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { writeAssetWorkbook } from '../../shared/workbook/write-workbook';
import { writeAssetCsv } from './csv';
import { nativeDeflate } from './native-deflate';
import type { WorkbookJob, WorkerAnswer } from './workbook-jobs';
import { WorkbookError } from './workbook-limits';
import { previewFile, replan } from './preview-file';
import type { AssetRecord } from '../workspace/asset-record';
import { exportJob } from './workspace-workbook';
import { WorkspaceStore } from '../workspace/workspace-store';

/** The workspace's SQLite file opened in this thread, for one job (WAL: beside main's connection). */
function withWorkspace<T>(workspaceFile: string, fn: (store: WorkspaceStore) => T): T {
  const store = WorkspaceStore.open(workspaceFile);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

function recordsOf(
  job: { records: readonly AssetRecord[] } | { workspaceFile: string },
): readonly AssetRecord[] {
  return 'records' in job ? job.records : withWorkspace(job.workspaceFile, (store) => store.listAssets());
}

async function run(job: WorkbookJob): Promise<unknown> {
  switch (job.job) {
    case 'export-workspace': {
      const { job: write, summary } = withWorkspace(job.workspaceFile, (store) =>
        exportJob(store, job.file, job.opts),
      );
      await run(write);
      return summary;
    }
    case 'write-xlsx': {
      const handle = await open(job.file, 'w');
      try {
        await writeAssetWorkbook(handle, job.docs, job.opts, nativeDeflate);
      } finally {
        await handle.close();
      }
      return null;
    }
    case 'write-csv':
      await writeAssetCsv(job.file, job.docs, job.opts);
      return null;
    case 'preview':
      return previewFile(job.file, recordsOf(job), job.opts);
    case 'replan':
      return replan(job.parsed, job.source, recordsOf(job), job.matchByName);
  }
}

async function main(): Promise<void> {
  let answer: WorkerAnswer;
  try {
    answer = { ok: true, result: await run(workerData as WorkbookJob) };
  } catch (error) {
    answer = {
      ok: false,
      error:
        error instanceof WorkbookError
          ? { message: error.message, kind: error.kind }
          : { message: error instanceof Error ? error.message : String(error) },
    };
  }
  parentPort?.postMessage(answer);
}

void main();
