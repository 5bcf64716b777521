// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const onlyMainImportsElectron = {
  name: 'electron',
  message: 'Only electron/main.ts and electron/preload.ts import electron.',
};
// The sandbox (the local Submission Service) is a separate product in its own folder: it imports only
// shared/, and only its launcher, the tests and the benches import it.
const noSandbox = {
  regex: '^\\.{1,2}/(.*/)?sandbox(/|$)',
  message: 'Only the launcher (electron/app/embedded-sandbox.ts), tests and benches import sandbox/.',
};
const sandboxImportsOnlyShared = {
  regex: '^\\.{1,2}/(.*/)?(electron|renderer|tests|bench)(/|$)',
  message: 'The sandbox imports only shared/ (and npm packages); move what both sides need to shared/.',
};

// Layers inside main (issue 35), as VS Code's `code-layering` rule: a folder of electron/ may import
// folders of lower layers and never one of a higher layer; folders of one layer do not import each
// other (a group of folders in one layer could; none is needed now). `bridge/handlers.ts` is only the
// contract's handler types, which every service's slice names: it sits at the bottom; the rest of
// bridge/ (dispatch, the error mapping) is at the top with the hosts.
const mainLayers = [
  // What knows nothing of the domains: files and SQLite, sockets and deadlines, the shell's policy,
  // worker threads, the meters' file parsers, the files the user picked.
  [['storage'], ['net'], ['security'], ['workers'], ['files']],
  [['service-client']],
  // The service's spreadsheet export (request, callback, download) needs only the client.
  [['auth'], ['service-export']],
  [['workspace']],
  [['sync'], ['workbook'], ['responses']],
  // Meters read readings files with the workbook's readers and write through the workspace; the
  // history's audit log (its storage is the workspace's: workspace/cell-history.ts) writes with the
  // workbook's deflate.
  [['meters'], ['history']],
  [['app']],
  [['bridge']],
  [['browser-host']],
];
const folderPattern = (folder) => (folder === 'bridge' ? 'bridge/(?!handlers$)' : `${folder}(/|$)`);
/** The no-restricted-imports pattern that keeps `folder` off what it may not import. */
function layerPattern(folder) {
  const at = mainLayers.findIndex((layer) => layer.some((group) => group.includes(folder)));
  const siblings = mainLayers[at].filter((group) => !group.includes(folder)).flat();
  const higher = mainLayers.slice(at + 1).flat(2);
  // The bridge sits above the services yet imports none of them: it dispatches to the handlers it
  // is given and maps errors by their base class (shared/errors.ts), so it knows no domain.
  const lower = folder === 'bridge' ? mainLayers.slice(0, at).flat(2) : [];
  const banned = [...lower, ...siblings, ...higher];
  return {
    // `../main`, `../preload` too: the composition root and the preload import everything, nothing imports them.
    regex: `^(\\.\\./)+(${[...banned.map(folderPattern), 'main$', 'preload$'].join('|')})`,
    message: `Layers of main (eslint.config.js, README "Main, by concern"): electron/${folder}/ may not import ${banned.join(', ')}, main or preload. Move what both need down a layer.`,
  };
}
const mainFolders = mainLayers.flat(2);

export default tseslint.config(
  {
    ignores: [
      '.scratch/**',
      'out/**',
      'dist/**',
      'release/**',
      'node_modules/**',
      'test-results/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Only the composition root and the preload may touch Electron: the rest runs under plain Node.
      'no-restricted-imports': ['error', { paths: [onlyMainImportsElectron] }],
    },
  },
  {
    files: ['electron/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [onlyMainImportsElectron], patterns: [noSandbox] }],
    },
  },
  ...mainFolders.map((folder) => ({
    files: [`electron/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [onlyMainImportsElectron], patterns: [noSandbox, layerPattern(folder)] },
      ],
    },
  })),
  {
    files: ['electron/main.ts', 'electron/preload.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSandbox] }] },
  },
  {
    // The sandbox's launcher.
    files: ['electron/app/embedded-sandbox.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [onlyMainImportsElectron], patterns: [layerPattern('app')] },
      ],
    },
  },
  {
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [onlyMainImportsElectron], patterns: [sandboxImportsOnlyShared] },
      ],
    },
  },
  {
    // The benches and what they share with the tests (support/: the test app, Chromium, the sync's
    // and the workbook's rigs) import no test module: a bench must not change when a test does.
    files: ['bench/**/*.ts', 'support/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [onlyMainImportsElectron],
          patterns: [
            {
              regex: '^(\\.\\./)+tests(/|$)',
              message: 'bench/ and support/ import no test module: move what both need to support/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'electron/**/*.ts',
      'sandbox/**/*.ts',
      'tests/**/*.ts',
      'bench/**/*.ts',
      'support/**/*.ts',
      '*.config.ts',
      '*.config.js',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // The renderer and the shared code run in a sandboxed page: no Node, no secrets, no storage.
    files: ['renderer/**/*.{ts,tsx}', 'shared/**/*.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer reaches main only through the bridge.' },
            { name: 'keytar', message: 'Secrets stay in main.' },
            { name: 'better-sqlite3', message: 'Storage stays in main.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'No Node modules in renderer or shared code.' })),
          ],
          patterns: [noSandbox],
        },
      ],
    },
  },
);
