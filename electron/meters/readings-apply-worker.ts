/**
 * The worker thread's entry (built as its own file beside main): writes one previewed readings
 * import (readings-apply.ts) on a connection of its own to the workspace's file, answers main with
 * the result or the error, then closes its connection. Killed midway, its one transaction never
 * commits: the workspace keeps nothing of the import.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { UserFacingError } from '../../shared/errors';
import { MeterStore } from '../workspace/meter-store';
import { WorkspaceStore } from '../workspace/workspace-store';
import { applyReadings, revived, type ApplyInput, type ApplyReply } from './readings-apply';

const { storeFile, input } = workerData as { storeFile: string; input: ApplyInput };

async function run(): Promise<ApplyReply> {
  const store = WorkspaceStore.open(storeFile);
  try {
    const { access, path } = store.meterAccess;
    // The log's copy into the file is main's to start (readings-apply.ts): this thread ends on answering.
    const result = await applyReadings(store, new MeterStore(access, path), revived(input), 'caller');
    return { ok: true, result };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      userCode: error instanceof UserFacingError ? error.userCode : null,
    };
  } finally {
    store.close();
  }
}

void run().then((reply) => parentPort?.postMessage(reply));
