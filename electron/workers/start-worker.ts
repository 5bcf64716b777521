/**
 * Starts one of main's worker threads: the entry `name` beside the module at `caller` (its
 * `import.meta.url`). Built, each worker is its own file beside main (electron.vite.config.ts lists
 * them). From source (tests, benches, the browser host under tsx) a worker cannot take tsx's loader
 * as a flag, so a two-line bootstrap loads the entry through tsx's API.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(caller: string, name: string, options: WorkerOptions = {}): Worker {
  if (!caller.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, caller), options);
  // require() resolves tsx's CommonJS build of the API; the worker imports its ES module twin.
  const tsx = pathToFileURL(
    createRequire(caller)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const entry = new URL(`./${name}.ts`, caller).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(caller)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}
