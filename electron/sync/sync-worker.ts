/**
 * The sync's worker thread (built as its own file beside main, like the workbook's): it runs the
 * local part of pulls and pushes (sync-session.ts) on its own connection to the workspace's SQLite
 * file, one session per run, and answers each request in the order it came.
 */
import { parentPort } from 'node:worker_threads';
import { WorkspaceStore } from '../workspace/workspace-store';
import { SyncSession } from './sync-session';
import { movableBuffers, toWire, type WorkerReply, type WorkerRequest } from './sync-wire';

const sessions = new Map<number, SyncSession>();

function handle(request: WorkerRequest): unknown {
  if (request.kind === 'open') {
    // WAL: this connection works beside main's; each of its transactions takes the write lock first.
    const store = WorkspaceStore.open(request.file);
    store.tuneForBulk();
    sessions.set(request.session, new SyncSession(store));
    return null;
  }
  const session = sessions.get(request.session);
  if (request.kind === 'close') {
    sessions.delete(request.session);
    session?.store.close();
    return null;
  }
  if (!session) throw new Error(`No sync session ${request.session} in the worker`);
  return session.run(request.op, request.arg as never);
}

parentPort?.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    reply = { id: request.id, ok: false, error: toWire(error) };
  }
  try {
    parentPort?.postMessage(reply, movableBuffers(reply.ok ? reply.result : undefined));
  } catch (error) {
    // An error's body that does not clone: its message still goes back.
    parentPort?.postMessage({ id: request.id, ok: false, error: toWire(error) } satisfies WorkerReply);
  }
});
