/**
 * The worker thread's entry (built as its own file beside main): reads the figures of many assets
 * (portfolio-figures.ts) from a workspace file on a read-only connection of its own, in one read
 * transaction, so they are the figures of one moment whatever main writes meanwhile. Posts them a
 * chunk at a time, then closes its connection.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MeterStore } from '../workspace/meter-store';
import { WorkspaceStore } from '../workspace/workspace-store';
import { sendFigures, type FiguresMessage, type FiguresRequest } from './portfolio-figures';

const { file, request } = workerData as { file: string; request: FiguresRequest };
const post = (message: FiguresMessage): void => parentPort?.postMessage(message);

try {
  const store = WorkspaceStore.open(file, { readOnly: true });
  try {
    const { access, path } = store.meterAccess;
    const meters = new MeterStore(access, path);
    store.snapshot(() => sendFigures(store, meters, request, (chunk) => post({ kind: 'chunk', chunk })));
    post({ kind: 'done' });
  } finally {
    store.close();
  }
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
