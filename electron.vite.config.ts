import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The embedded sandbox is its own entry: main starts it as a utility process. So are the
      // workbook's and the sync's worker threads (electron/workers/start-worker.ts looks for them
      // beside the module that starts them): shared chunks go beside them too, not in a folder of
      // their own, or a starter split into a chunk would look in that folder.
      rollupOptions: {
        input: {
          index: resolve('electron/main.ts'),
          sandbox: resolve('sandbox/embedded.ts'),
          'workbook-worker': resolve('electron/workbook/workbook-worker.ts'),
          'sync-worker': resolve('electron/sync/sync-worker.ts'),
          'checkpoint-worker': resolve('electron/workspace/checkpoint-worker.ts'),
          'readings-apply-worker': resolve('electron/meters/readings-apply-worker.ts'),
          'figures-worker': resolve('electron/meters/figures-worker.ts'),
        },
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require node_modules or load ES modules: one self-contained CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
