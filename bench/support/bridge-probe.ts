import { Worker } from 'node:worker_threads';

/**
 * How long main takes to answer a bridge call while other work runs, as a caller sees it: a worker
 * thread (its own event loop, like the renderer's process) sends main a message every 5 ms, by its
 * own clock, whatever main is doing, and times each answer. A call arriving while main is stuck in
 * one long task waits for that task's end, so a 2 s task gives ~400 answers of up to 2 s, as a user
 * clicking then would see; this weighs long tasks by their length.
 *
 * It reads the process's RSS at each call too (from its own thread, so a busy main misses none):
 * the phase's peak, which the kernel's high-water mark for the whole run cannot place.
 *
 * (`eventLoopProbe` in goal.ts times a callback due right after its previous one ran, which misses
 * a task that starts during its 5 ms sleep and lets a single long task count as one sample.)
 */
export interface ProbeFigures {
  delays: number[];
  /** The highest RSS read during the phase, MB. */
  peakMb: number;
}

export function bridgeCallProbe(): { stop(): Promise<ProbeFigures> } {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const sent = new Map();
     const delays = [];
     let n = 0;
     let peak = 0;
     const timer = setInterval(() => {
       peak = Math.max(peak, process.memoryUsage.rss());
       sent.set(n, performance.now());
       parentPort.postMessage(n++);
     }, 5);
     parentPort.on('message', (message) => {
       if (message === 'stop') {
         clearInterval(timer);
         for (const t of sent.values()) delays.push(performance.now() - t);
         parentPort.postMessage({ delays, peakMb: peak / 1024 / 1024 });
         return;
       }
       const t = sent.get(message);
       if (t !== undefined) { delays.push(performance.now() - t); sent.delete(message); }
     });`,
    { eval: true },
  );
  // Main's side of the call: answered as soon as main's event loop gets to it.
  worker.on('message', (message: unknown) => {
    if (typeof message === 'number') worker.postMessage(message);
  });
  return {
    stop: () =>
      new Promise<ProbeFigures>((resolve, reject) => {
        worker.on('message', (message: unknown) => {
          if (typeof message === 'object' && message !== null && 'delays' in message) {
            resolve(message as ProbeFigures);
            void worker.terminate();
          }
        });
        worker.on('error', reject);
        worker.postMessage('stop');
      }),
  };
}
