/**
 * The worker thread's entry (built as its own file beside main): checkpoints a workspace file's
 * write-ahead log on a connection of its own, then exits. After a sliced step of a million rows
 * (an import of readings) the log holds more than a gigabyte; copying it into the file on main's
 * connection would stop main for seconds (wal-flush.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../storage/sqlite';

const { file } = workerData as { file: string };
const db = openSqlite(file);
try {
  // PASSIVE: never waits for main's readers or writers; what it cannot copy now the next checkpoint does.
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort?.postMessage('done');
} finally {
  db.close();
}
