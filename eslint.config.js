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
  {
    files: ['electron/main.ts', 'electron/preload.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noSandbox] }] },
  },
  {
    // The sandbox's launcher.
    files: ['electron/app/embedded-sandbox.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [onlyMainImportsElectron] }] },
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
    files: [
      'electron/**/*.ts',
      'sandbox/**/*.ts',
      'tests/**/*.ts',
      'bench/**/*.ts',
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
