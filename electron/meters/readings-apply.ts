import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Worker } from 'node:worker_threads';
import type { MeterWriteResult } from '../../shared/bridge/contract';
import type { ChangeSource } from '../../shared/history/change-source';
import type { ReadingsImport } from '../../shared/meters/import-rows';
import { ImportedReadings } from '../../shared/meters/imported-readings';
import type { ReadingsImportResult } from '../../shared/meters/views';
import type { AssetIdName } from '../../shared/sync/asset-id-name';
import { UserFacingError, type UserFacingCode } from '../../shared/errors';
import { startWorker } from '../workers/start-worker';
import type { MeterDocChange, MeterStore } from '../workspace/meter-store';
import { checkpointOffMain } from '../workspace/wal-flush';
import type { WorkspaceStore } from '../workspace/workspace-store';
import { affectedBy, autoStates, recomputeFiguresSliced } from './figures-recompute';
import { assetLookups, countNew, countOf, createdAssets, importChanges } from './readings-preview';
import { PlannedReadings, planReadings, type ReadingsPlan } from './readings-plan';

/**
 * Writing a previewed readings import (issue 32): the meters, the readings, their journal and
 * history rows, the import's record and the derived cells of the assets they touch, as one undo
 * step and one transaction. A workspace on disk has it written by a worker thread on a connection of
 * its own (`applyOffMain`): 1.44 M readings are minutes of work, and main, even answering between
 * ~10 ms slices, then competed for the CPU with everything else the machine ran, a task that never
 * sleeps waiting its turn for hundreds of ms. Main, left idle, answers at once; it refuses writes
 * meanwhile (`WorkspaceStore.writtenElsewhere`), as it did between the slices.
 */

export interface ApplyInput {
  parsed: ReadingsImport;
  plan: ReadingsPlan;
  /** The file's name, for the step's label, the readings' source and the import's record. */
  file: string;
  createAssets: boolean;
  idName: AssetIdName;
  accepted: { min: number; max: number };
}

export type ApplyResult = Omit<MeterWriteResult, 'history'> & ReadingsImportResult;

/** The import written on `store`'s connection, in slices (main or a worker runs it). */
export async function applyReadings(
  store: WorkspaceStore,
  meters: MeterStore,
  input: ApplyInput,
  /** 'caller': the log's copy into the file is left to the caller (a worker thread's: see applyOffMain). */
  checkpoint: 'here' | 'caller' = 'here',
): Promise<ApplyResult> {
  const { parsed, plan, file, idName, accepted } = input;
  const create = input.createAssets ? plan.unknownAssets : [];
  let done: ReadingsPlan = plan;
  const label =
    create.length > 0
      ? `import of readings from ${file}, with ${countOf(create.length, 'new asset')}`
      : `import of ${countOf(plan.readings.length, 'reading')} from ${file}`;
  // Recorded once, inside the step (the file is deleted once read): its changes carry the record's id.
  let record: ReturnType<WorkspaceStore['imports']['begin']> | undefined;
  const began = () => (record ??= store.imports.begin('readings', file));
  const result = await store.slicedStep(
    label,
    async (pause) => {
      const { source } = began();
      if (create.length > 0) {
        // The assets the file names and the workspace lacks: made first, then the file planned again.
        for (const asset of createdAssets(parsed, new Set(create))) store.createAsset(asset, source);
        done = planReadings(parsed, assetLookups(store, meters), file);
      }
      const touched = await writeChanges(store, meters, importChanges(done), source, pause);
      const figures = await recomputeFiguresSliced(
        store,
        meters,
        touched,
        autoStates,
        idName,
        accepted,
        pause,
      );
      const { id } = began();
      store.imports.finish(id, source, {
        kind: 'readings',
        sheets: [],
        created: done.meters.filter((p) => p.isNew).length,
        updated: 0,
        cells: done.readings.length,
        skipped: done.problems.length,
        skippedWhat: `${done.problems.length === 1 ? 'row' : 'rows'} left out (a reading already there or twice in the file, or a problem)`,
        label,
      });
      return figures;
    },
    { checkpoint },
  );
  return {
    ...result,
    meters: countNew(done),
    readings: done.readings.length,
    figures: { written: result.views.length, held: result.held },
  };
}

/** Writes the changes, pausing every 16 (~1 ms): returns the assets and years they touch. */
async function writeChanges(
  store: WorkspaceStore,
  meters: MeterStore,
  changes: Iterable<MeterDocChange>,
  source: ChangeSource,
  pause: () => Promise<void>,
): Promise<Map<string, Set<number> | null>> {
  const touched = new Map<string, Set<number> | null>();
  const month = store.entity()?.reporting_preferences.reporting_period_month ?? 12;
  let n = 0;
  for (const change of changes) {
    affectedBy([change], month, touched);
    meters.write([change], source);
    if ((++n & 15) === 0) await pause();
  }
  return touched;
}

/** A worker's answer: the result, or the error it threw (a user-facing one stays one). */
export type ApplyReply =
  { ok: true; result: ApplyResult } | { ok: false; message: string; userCode: UserFacingCode | null };

/**
 * The import written by a worker thread (readings-apply-worker.ts) on its own connection to the
 * workspace's file, main refusing writes meanwhile. The plan's columns are moved, not copied: main
 * lets the plan go once it is handed over.
 */
export function applyOffMain(store: WorkspaceStore, input: ApplyInput): Promise<ApplyResult> {
  // Held only until the worker has it: no closure below keeps the plan alive on main.
  // The file's meters and errors serve only to plan again after creating assets: not cloned otherwise.
  const replans = input.createAssets && input.plan.unknownAssets.length > 0;
  let handed: ApplyInput | undefined = replans
    ? input
    : { ...input, parsed: { ...input.parsed, meters: [], errors: [] } };
  return store.writtenElsewhere(() => {
    const worker = startWorker(import.meta.url, 'readings-apply-worker', {
      workerData: { storeFile: store.file, input: handed },
      transferList: movableColumns(handed as ApplyInput),
      // Its garbage (a JSON text per row written) dies young: a small young generation keeps the
      // worker's heap, beside main's, within the import's memory goal.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    handed = undefined;
    // Main is idle while the worker writes, and V8 collects when main allocates: the preview's
    // garbage (a few hundred MB for 1.44 M readings) would stay beside the worker's growing heap.
    // Collected once, once nothing on main's stack holds the plan any more.
    setImmediate(collectGarbage);
    return answerOf(worker, store.file);
  });
}

/** A full collection of main's heap, asked for (V8 exposes it only behind its flag). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function answerOf(worker: Worker, file: string): Promise<ApplyResult> {
  return new Promise<ApplyResult>((resolve, reject) => {
    let answered = false;
    worker.once('message', (reply: ApplyReply) => {
      answered = true;
      // The log's copy into the file from a connection of main's own worker: the import's worker
      // ends now, and its heap with it.
      if (reply.ok) void checkpointOffMain(file);
      if (reply.ok) resolve(reply.result);
      else
        reject(
          reply.userCode === null
            ? new Error(reply.message)
            : new UserFacingError(reply.message, { userCode: reply.userCode }),
        );
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    // A worker gone without a word (killed): its transaction never committed, nothing was written.
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`The readings import stopped (exit code ${code}): nothing was added.`));
    });
  });
}

/** The typed arrays holding the plan's readings that own their whole buffer (moved to the worker). */
function movableColumns(input: ApplyInput): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const holder of [input.parsed.readings, input.plan.readings])
    for (const value of Object.values(holder))
      if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer && value.byteOffset === 0)
        if (value.byteLength === value.buffer.byteLength) out.add(value.buffer);
  return [...out];
}

/**
 * The plan as the worker receives it (a structured clone keeps own fields, Maps and typed arrays,
 * and one object reached twice stays one, but not classes): its two column holders made whole again.
 */
export function revived(input: ApplyInput): ApplyInput {
  Object.setPrototypeOf(input.parsed.readings, ImportedReadings.prototype);
  Object.setPrototypeOf(input.plan.readings, PlannedReadings.prototype);
  return input;
}
